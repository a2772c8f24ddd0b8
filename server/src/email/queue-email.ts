import { randomUUID } from 'node:crypto';
import { QueryTypes, type Transaction } from 'sequelize';
import type { Db } from '@platform/db';
import type { EntityKind } from '@platform/domain';
import type { Config } from '../config';
import { enqueueJob, type OutboxRelay } from '../jobs/outbox';
import type { EmailContent } from './templates';

/** An email from one of the templates, to one address. */
export interface OutgoingEmail extends EmailContent {
  to: string;
  html?: string;
  entity?: { kind: EntityKind; id: number | string };
  createdByUserId?: number | null;
}

type EmailCtx = { db: Db; relay: OutboxRelay; config: Pick<Config, 'publicUrl'> };

/**
 * A new email's Message-ID: random, so that no other database's email ever had it (a recreated or
 * restored database numbers its emails from 1 again, and a mailbox would drop those as copies), at
 * the lab's host name. It is written with the email and sent with every attempt, so a receiver can
 * drop a redelivery.
 */
export function newEmailMessageId(publicUrl: string): string {
  return `<${randomUUID()}@${new URL(publicUrl).hostname}>`;
}

/** Records an email in the email log and queues its sending (a send-email job), inside the caller's transaction. */
export async function queueEmail(ctx: EmailCtx, transaction: Transaction, email: OutgoingEmail): Promise<{ id: number }> {
  const [written] = await writeEmails(ctx, transaction, [email]);
  await enqueueJob(ctx, transaction, 'send-email', { emailId: written.id }, { idempotencyKey: `send-email:${written.id}`, createdByUserId: email.createdByUserId ?? null });
  return written;
}

/**
 * Records a campaign's batch of emails and queues their sending as one send-email-batch job,
 * inside the caller's transaction (at most EMAIL_BATCH_MAX: the job's schema refuses more).
 * Answers the rows in the order given.
 */
export async function queueEmailBatch(
  ctx: EmailCtx,
  transaction: Transaction,
  emails: OutgoingEmail[],
  createdByUserId: number | null,
): Promise<Array<{ id: number }>> {
  if (!emails.length) return [];
  const written = await writeEmails(ctx, transaction, emails);
  const emailIds = written.map((e) => e.id);
  await enqueueJob(ctx, transaction, 'send-email-batch', { emailIds }, { idempotencyKey: `send-email-batch:${emailIds[0]}`, createdByUserId });
  return written;
}

/** Writes emails into the log, Pending, each with its Message-ID, in one statement; answers their ids in the order given. */
async function writeEmails(ctx: EmailCtx, transaction: Transaction, emails: OutgoingEmail[]): Promise<Array<{ id: number }>> {
  // The ids are drawn first (a volatile CTE is evaluated once): each answer is matched to its email by position.
  const rows = await ctx.db.sequelize.query<{ id: number; n: number }>(
    `WITH input AS (
       SELECT nextval('emails_id_seq') AS id, i.* FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
         WITH ORDINALITY AS i(to_address, subject, text_body, html_body, template, entity_kind, entity_id, message_id, n)
     ), written AS (
       INSERT INTO emails (id, to_address, subject, text_body, html_body, template, entity_kind, entity_id, message_id, status)
       SELECT id, to_address, subject, text_body, html_body, template, entity_kind, entity_id, message_id, 'Pending' FROM input
     )
     SELECT id, n FROM input`,
    {
      bind: [
        emails.map((e) => e.to),
        emails.map((e) => e.subject),
        emails.map((e) => e.text),
        emails.map((e) => e.html ?? null),
        emails.map((e) => e.template),
        emails.map((e) => e.entity?.kind ?? null),
        emails.map((e) => (e.entity ? String(e.entity.id) : null)),
        emails.map(() => newEmailMessageId(ctx.config.publicUrl)),
      ],
      type: QueryTypes.SELECT,
      transaction,
    },
  );
  const ids = new Map(rows.map((r) => [Number(r.n), Number(r.id)]));
  return emails.map((_, i) => ({ id: ids.get(i + 1)! }));
}
