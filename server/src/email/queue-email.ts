import type { Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import type { EntityKind } from '@platform/domain';
import { enqueueJob, type OutboxRelay } from '../jobs/outbox';
import type { EmailContent } from './templates';

/** An email from one of the templates, to one address. */
export interface OutgoingEmail extends EmailContent {
  to: string;
  html?: string;
  entity?: { kind: EntityKind; id: number | string };
  createdByUserId?: number | null;
}

/** Records an email in the email log and queues its sending, inside the caller's transaction. */
export async function queueEmail(ctx: { db: Db; relay: OutboxRelay }, transaction: Transaction, email: OutgoingEmail) {
  const row = await ctx.db.models.Email.create(
    {
      toAddress: email.to,
      subject: email.subject,
      textBody: email.text,
      htmlBody: email.html ?? null,
      template: email.template,
      entityKind: email.entity?.kind ?? null,
      entityId: email.entity ? String(email.entity.id) : null,
      status: 'Pending',
    },
    { transaction },
  );
  await enqueueJob(ctx, transaction, 'send-email', { emailId: row.id }, {
    idempotencyKey: `send-email:${row.id}`,
    createdByUserId: email.createdByUserId ?? null,
  });
  return row;
}
