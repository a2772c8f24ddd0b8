/**
 * Results to an account's EHR as HL7 v2.5.1 ORU^R01 (issue 28, item 2). On each release,
 * correction and rejection of the account's results, one message row per test and a `send-hl7`
 * job are written in the command's own transaction (the outbox: no message without its commit,
 * none lost after it). The worker builds the message when it sends it, from the result version the
 * row names, sends it over MLLP and waits for the ACK: AA completes it; AE, AR or no answer throws
 * so the job is retried with back-off; after the last attempt the message is Failed, shown in the
 * account's message log with "Resend" (a new message, with a new control id).
 */
import { QueryTypes, type Transaction } from 'sequelize';
import {
  DocumentType, HL7_LOG_SIZE, Hl7MessageReason, Hl7MessageStatus, labReportFileName, TestResultStatus, WebhookEventType, type Hl7MessageView,
} from '@platform/domain';
import type { ServerContext } from '../context';
import { enqueueJobs } from '../jobs/outbox';
import { auditActor, recordAudit, type Caller } from '../audit';
import { conflict, notFound } from '../errors';
import { toIso } from '../answer-values';
import { sampleDocumentNamed } from '../files';
import { OUTSIDE_SAMPLE_FROM, OUTSIDE_SAMPLE_SCOPE, OUTSIDE_SQL_CONSTANTS, OUTSIDE_TEST_JOIN } from '../outside-scope';
import type { ResultEvent } from '../webhooks/result-webhooks';
import { buildResultOru } from './oru';
import { Hl7NoAnswer, sendOverMllp } from './mllp';
import { Hl7InvalidAck } from './ack';
import { enabledHl7Destination, type Hl7Destination } from './interfaces';
import { resultOruInput, type MessageSource } from './result-input';

export const ORU_R01 = 'ORU^R01';

const REASON_OF_EVENT: Readonly<Record<WebhookEventType, Hl7MessageReason>> = {
  [WebhookEventType.ResultReleased]: Hl7MessageReason.Released,
  [WebhookEventType.ResultCorrected]: Hl7MessageReason.Corrected,
  [WebhookEventType.SampleRejected]: Hl7MessageReason.Rejected,
};

type Ctx = Pick<ServerContext, 'db'>;

/**
 * Queues the ORU^R01 of one event's tests when the sample's account has an enabled interface and
 * the sample may be told outside (outside-scope.ts). The control id is `M` and the row's id: unique,
 * and within the 20 characters of MSH-10. Answers how many messages were queued.
 */
export async function queueResultMessages(ctx: Pick<ServerContext, 'db' | 'relay'>, transaction: Transaction, event: ResultEvent): Promise<number> {
  if (!event.testIds.length) return 0;
  const reason = REASON_OF_EVENT[event.type];
  const rows = await ctx.db.sequelize.query<{ id: string }>(
    `INSERT INTO hl7_messages (id, control_id, account_id, message_type, reason, sample_id, test_id, test_result_id, created_by_user_id)
     SELECT n.id, 'M' || n.id, n.account_id, :messageType, :reason, n.sample_id, n.test_id, n.result_id, :userId
       FROM (SELECT nextval('hl7_messages_id_seq') AS id, s.account_id, s.id AS sample_id, t.id AS test_id,
                    (SELECT r.id FROM test_results r WHERE r.test_id = t.id AND r.status = :released AND :reason <> :rejected) AS result_id
               ${OUTSIDE_SAMPLE_FROM} ${OUTSIDE_TEST_JOIN}
               JOIN hl7_interfaces i ON i.account_id = s.account_id AND i.enabled
              WHERE s.id = :sampleId AND t.id IN (:testIds) AND ${OUTSIDE_SAMPLE_SCOPE}
              ORDER BY t.id) n
     RETURNING id`,
    {
      replacements: {
        ...OUTSIDE_SQL_CONSTANTS, messageType: ORU_R01, reason, rejected: Hl7MessageReason.Rejected, released: TestResultStatus.Released,
        sampleId: event.sampleId, testIds: event.testIds, userId: event.createdByUserId,
      },
      type: QueryTypes.SELECT, transaction,
    },
  );
  await enqueueHl7Sends(ctx, transaction, rows.map((r) => Number(r.id)), event.createdByUserId);
  return rows.length;
}

async function enqueueHl7Sends(ctx: Pick<ServerContext, 'db' | 'relay'>, transaction: Transaction, ids: number[], userId: number | null): Promise<void> {
  if (!ids.length) return;
  await enqueueJobs(ctx, transaction, 'send-hl7', ids.map((id) => ({ payload: { messageId: id }, idempotencyKey: `hl7:${id}` })), userId);
}

interface MessageRow extends MessageSource {
  status: Hl7MessageStatus;
  enabled: boolean | null;
  host: string | null;
  port: number | null;
}

async function messageRow(ctx: Ctx, messageId: number): Promise<MessageRow | null> {
  const [row] = await ctx.db.sequelize.query<MessageRow>(
    `SELECT m.id, m.control_id, m.reason, m.status, m.account_id, m.created_at, i.enabled, i.host, i.port,
            i.receiving_application, i.receiving_facility,
            s.id AS sample_id, s.barcode, s.collected_at, s.received_at, s.rejection_reason,
            p.id AS patient_id, p.first_name, p.last_name, p.date_of_birth, p.sex, p.address_line1, p.address_line2, p.city, p.state,
            p.postal_code, p.country, p.medical_record_number,
            o.id AS order_id, ph.first_name AS physician_first_name, ph.last_name AS physician_last_name, ph.npi,
            t.name AS test_name, r.id AS result_id, r.value, r.reviewed_at, r.correction_reason
       FROM hl7_messages m
       LEFT JOIN hl7_interfaces i ON i.account_id = m.account_id
       LEFT JOIN samples s ON s.id = m.sample_id
       LEFT JOIN orders o ON o.id = s.order_id
       LEFT JOIN patients p ON p.id = s.patient_id
       LEFT JOIN physicians ph ON ph.id = o.physician_id
       LEFT JOIN tests t ON t.id = m.test_id
       LEFT JOIN test_results r ON r.id = m.test_result_id
      WHERE m.id = :messageId`,
    { replacements: { messageId }, type: QueryTypes.SELECT },
  );
  return row ?? null;
}

export type Hl7SendOutcome = { acknowledged: true; controlId: string } | { skipped: string };

export interface Hl7SendHooks {
  /** Makes sure the result version's lab report PDF is stored (the worker renders it when it is not yet). */
  ensureReport(sampleId: number, testResultId: number): Promise<void>;
}

/**
 * One attempt of one message (the worker's `send-hl7`): built, sent, its ACK recorded. AE, AR or
 * no answer throws, so the job is retried; a message already acknowledged is not sent again.
 */
export async function attemptHl7Send(ctx: Pick<ServerContext, 'db' | 'config'>, messageId: number, hooks: Hl7SendHooks): Promise<Hl7SendOutcome> {
  let row = await messageRow(ctx, messageId);
  if (!row) return { skipped: 'no such message' };
  if (row.status === Hl7MessageStatus.Acknowledged) return { skipped: 'already acknowledged' };
  if (!row.enabled || row.host === null || row.port === null) {
    await finishHl7Message(ctx, messageId, 'The account\'s HL7 interface is disabled');
    return { skipped: 'interface disabled' };
  }
  const to = { host: row.host, port: row.port };
  if (row.reason !== Hl7MessageReason.Rejected && row.sample_id !== null && row.result_id !== null) {
    await hooks.ensureReport(Number(row.sample_id), Number(row.result_id));
    row = (await messageRow(ctx, messageId))!;
  }
  const report = row.reason !== Hl7MessageReason.Rejected && row.sample_id !== null && row.result_id !== null
    ? await sampleDocumentNamed(ctx.db, Number(row.sample_id), DocumentType.LabReport, labReportFileName(row.barcode!, Number(row.result_id)))
    : null;
  const message = buildResultOru(resultOruInput(ctx.config, row, report?.content ?? null));
  await sendAndRecord(ctx, messageId, to, message);
  return { acknowledged: true, controlId: row.control_id };
}

/** Sends one built message and records its answer; throws unless the answer is AA (or CA). */
export async function sendAndRecord(
  ctx: Pick<ServerContext, 'db' | 'config'>, messageId: number, to: Pick<Hl7Destination, 'host' | 'port'>, message: ReturnType<typeof buildResultOru>,
): Promise<void> {
  const at = new Date();
  let ack: Awaited<ReturnType<typeof sendOverMllp>>;
  try {
    ack = await sendOverMllp({ host: to.host, port: to.port, message, timeoutMs: ctx.config.hl7AckTimeoutMs });
  } catch (err) {
    // Every attempt is in the log, whatever ended it (no ACK, an unreadable answer, the network).
    await recordAttempt(ctx, messageId, { at, ackCode: null, ackText: failureText(err, ctx.config.hl7AckTimeoutMs) });
    throw err;
  }
  await recordAttempt(ctx, messageId, { at, ackCode: ack.code, ackText: ack.text || null });
  if (ack.code !== 'AA' && ack.code !== 'CA') throw new Error(`The receiver answered ${ack.code}${ack.text ? `: ${ack.text}` : ''}`);
}

/** Why an attempt got no ACK, in words for the admin (the error's own text can hold no patient data: it is the network's). */
function failureText(err: unknown, timeoutMs: number): string {
  if (err instanceof Hl7NoAnswer) return noAnswerText(err, timeoutMs);
  if (err instanceof Hl7InvalidAck) return 'The receiver\'s answer is not an HL7 acknowledgement';
  return `Could not send the message (${(err as Error).name}${(err as NodeJS.ErrnoException).code ? ` ${(err as NodeJS.ErrnoException).code}` : ''})`;
}

function noAnswerText(err: Hl7NoAnswer, timeoutMs: number): string {
  if (err.reason === 'timeout') return `No acknowledgement within ${Math.round(timeoutMs / 1000)} s`;
  if (err.reason === 'closed') return 'The receiver closed the connection without an acknowledgement';
  return 'Could not connect to the receiver';
}

async function recordAttempt(ctx: Ctx, messageId: number, a: { at: Date; ackCode: string | null; ackText: string | null }): Promise<void> {
  const accepted = a.ackCode === 'AA' || a.ackCode === 'CA';
  await ctx.db.sequelize.query(
    `UPDATE hl7_messages SET attempts = attempts + 1, last_attempt_at = :at, ack_code = :ackCode, ack_text = :ackText,
       status = CASE WHEN :accepted THEN :acknowledged ELSE status END,
       acknowledged_at = CASE WHEN :accepted THEN CAST(:at AS timestamptz) ELSE acknowledged_at END, updated_at = now()
     WHERE id = :messageId`,
    { replacements: { messageId, ...a, accepted, acknowledged: Hl7MessageStatus.Acknowledged } },
  );
}

/** The end of a message that will not be tried again (its last attempt failed, or the interface was disabled). */
export async function finishHl7Message(ctx: Ctx, messageId: number, error: string, transaction?: Transaction): Promise<void> {
  await ctx.db.sequelize.query(
    `UPDATE hl7_messages SET status = :failed, ack_text = COALESCE(ack_text, :error), updated_at = now()
      WHERE id = :messageId AND status <> :acknowledged`,
    { replacements: { messageId, error, failed: Hl7MessageStatus.Failed, acknowledged: Hl7MessageStatus.Acknowledged }, transaction },
  );
}

interface LogRow {
  id: string;
  control_id: string;
  message_type: string;
  reason: Hl7MessageReason;
  barcode: string | null;
  test_name: string | null;
  status: Hl7MessageStatus;
  created_at: Date;
  attempts: number;
  last_attempt_at: Date | null;
  ack_code: string | null;
  ack_text: string | null;
  acknowledged_at: Date | null;
}

const LOG_SELECT = `SELECT m.id, m.control_id, m.message_type, m.reason, s.barcode, t.name AS test_name, m.status, m.created_at, m.attempts,
       m.last_attempt_at, m.ack_code, m.ack_text, m.acknowledged_at
  FROM hl7_messages m LEFT JOIN samples s ON s.id = m.sample_id LEFT JOIN tests t ON t.id = m.test_id`;

const logViewOf = (r: LogRow): Hl7MessageView => ({
  id: Number(r.id), controlId: r.control_id, messageType: r.message_type, reason: r.reason, sample: r.barcode, test: r.test_name, status: r.status,
  createdAt: toIso(r.created_at)!, attempts: r.attempts, lastAttemptAt: toIso(r.last_attempt_at), ackCode: r.ack_code, ackText: r.ack_text,
  acknowledgedAt: toIso(r.acknowledged_at),
});

export async function hl7MessageView(ctx: Ctx, messageId: number, transaction?: Transaction): Promise<Hl7MessageView> {
  const [row] = await ctx.db.sequelize.query<LogRow>(`${LOG_SELECT} WHERE m.id = :messageId`, { replacements: { messageId }, type: QueryTypes.SELECT, transaction });
  if (!row) throw notFound('HL7 message not found');
  return logViewOf(row);
}

/** GET /api/admin/accounts/{accountId}/hl7-messages: the account's newest HL7_LOG_SIZE messages and how each went. */
export async function listHl7Messages(ctx: Ctx, accountId: number): Promise<Hl7MessageView[]> {
  const rows = await ctx.db.sequelize.query<LogRow>(
    `${LOG_SELECT} WHERE m.account_id = :accountId ORDER BY m.id DESC LIMIT :limit`,
    { replacements: { accountId, limit: HL7_LOG_SIZE }, type: QueryTypes.SELECT },
  );
  return rows.map(logViewOf);
}

/**
 * POST …/hl7-messages/{messageId}/resend: the same result sent again as a new message (a new
 * control id: a receiver that kept the first ignores none), queued through the outbox, audited.
 */
export async function resendHl7Message(ctx: Pick<ServerContext, 'db' | 'relay'>, caller: Caller, accountId: number, messageId: number): Promise<Hl7MessageView> {
  return ctx.db.sequelize.transaction(async (transaction) => {
    const [original] = await ctx.db.sequelize.query<{ reason: Hl7MessageReason; result_status: TestResultStatus | null }>(
      `SELECT m.reason, r.status AS result_status FROM hl7_messages m LEFT JOIN test_results r ON r.id = m.test_result_id
        WHERE m.id = :messageId AND m.account_id = :accountId`,
      { replacements: { messageId, accountId }, type: QueryTypes.SELECT, transaction },
    );
    if (!original) throw notFound('HL7 message not found');
    if (original.reason === Hl7MessageReason.Test) throw conflict('A test message is not resent: send a new one from the interface');
    if (original.reason === Hl7MessageReason.Order) throw conflict('An order received from the EHR is not resent: the EHR sends it again');
    // An older version resent after a correction would tell the EHR the wrong value.
    if (original.result_status !== null && original.result_status !== TestResultStatus.Released) {
      throw conflict('This result was corrected since: its correction is the message to send');
    }
    if (!(await enabledHl7Destination(ctx, accountId, transaction))) throw conflict('The account\'s HL7 interface is disabled: enable it to resend');
    const [copy] = await ctx.db.sequelize.query<{ id: string }>(
      `INSERT INTO hl7_messages (id, control_id, account_id, message_type, reason, sample_id, test_id, test_result_id, created_by_user_id)
       SELECT n.id, 'M' || n.id, m.account_id, m.message_type, m.reason, m.sample_id, m.test_id, m.test_result_id, :userId
         FROM hl7_messages m CROSS JOIN (SELECT nextval('hl7_messages_id_seq') AS id) n WHERE m.id = :messageId
       RETURNING id`,
      { replacements: { messageId, userId: caller.userId }, type: QueryTypes.SELECT, transaction },
    );
    const copyId = Number(copy.id);
    await enqueueHl7Sends(ctx, transaction, [copyId], caller.userId);
    await recordAudit(ctx.db, {
      ...auditActor(caller), action: 'hl7_message.resent', entityKind: 'account', entityId: accountId, details: { messageId, resentAs: copyId },
    }, transaction);
    return hl7MessageView(ctx, copyId, transaction);
  });
}
