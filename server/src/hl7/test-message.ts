/**
 * "Send test message" on an account's HL7 interface: an ORU^R01 of a fictitious patient (MSH-11 T)
 * sent at once to the configured host, enabled or not, so the admin sees the receiver's ACK before
 * switching the interface on. Logged like every message and audited.
 */
import { QueryTypes } from 'sequelize';
import { Hl7MessageReason, type Hl7MessageView } from '@platform/domain';
import type { ServerContext } from '../context';
import { auditActor, recordAudit, type Caller } from '../audit';
import { unprocessable } from '../errors';
import { buildResultOru } from './oru';
import { configuredHl7Destination } from './interfaces';
import { testOruInput } from './result-input';
import { finishHl7Message, hl7MessageView, ORU_R01, sendAndRecord } from './result-messages';

/** POST /api/admin/accounts/{accountId}/hl7-interface/test-message: answers the logged message with its ACK (or why none came). */
export async function sendHl7TestMessage(ctx: Pick<ServerContext, 'db' | 'config'>, caller: Caller, accountId: number): Promise<Hl7MessageView> {
  const to = await configuredHl7Destination(ctx, accountId);
  if (!to) throw unprocessable('Save the account\'s HL7 interface before sending a test message');
  const row = await ctx.db.sequelize.transaction(async (transaction) => {
    const [inserted] = await ctx.db.sequelize.query<{ id: string; control_id: string; created_at: Date }>(
      `INSERT INTO hl7_messages (id, control_id, account_id, message_type, reason, created_by_user_id)
       SELECT n.id, 'M' || n.id, :accountId, :messageType, :reason, :userId FROM (SELECT nextval('hl7_messages_id_seq') AS id) n
       RETURNING id, control_id, created_at`,
      { replacements: { accountId, messageType: ORU_R01, reason: Hl7MessageReason.Test, userId: caller.userId }, type: QueryTypes.SELECT, transaction },
    );
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'hl7_interface.test_message', entityKind: 'account', entityId: accountId, details: { messageId: Number(inserted.id) },
    }, transaction);
    return inserted;
  });
  const messageId = Number(row.id);
  try {
    await sendAndRecord(ctx, messageId, to, buildResultOru(testOruInput(ctx.config, to, row.control_id, new Date(row.created_at))));
  } catch (err) {
    // The answer (or its absence) is recorded on the row: the admin reads it there.
    await finishHl7Message(ctx, messageId, (err as Error).message);
  }
  return hl7MessageView(ctx, messageId);
}
