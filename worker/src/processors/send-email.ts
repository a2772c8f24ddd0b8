import { UnrecoverableError } from 'bullmq';
import { Op, QueryTypes, type Transaction } from 'sequelize';
import { EmailStatus } from '@platform/domain';
import type { Db } from '@platform/db';
import { batchedPerDb, newEmailMessageId, redactTokens } from '@platform/server';
import type { Processor, WorkerDeps } from './types';

/** An SMTP 5xx answer (an address the server refuses, say) is permanent: no retry delivers it. Connection faults and 4xx retry. */
async function permanentRefusalsFailAtOnce<T>(send: () => Promise<T>): Promise<T> {
  try {
    return await send();
  } catch (err) {
    const code = (err as { responseCode?: unknown }).responseCode;
    if (typeof code === 'number' && code >= 500 && code < 600) throw new UnrecoverableError((err as Error).message);
    throw err;
  }
}

/** The columns of an email this processor reads. */
interface EmailToSend {
  id: number;
  toAddress: string;
  subject: string;
  textBody: string;
  htmlBody: string | null;
  status: string;
  messageId: string | null;
}

const EMAIL_COLUMNS = `e.id, e.to_address AS "toAddress", e.subject, e.text_body AS "textBody", e.html_body AS "htmlBody", e.status`;

/**
 * Reads emails, in one statement for every send-email job starting at the same moment. An email is
 * written with its Message-ID (queue-email.ts); one written before that was so (still Pending in the
 * log across an upgrade) gets one here, kept on its row before the first send, the same for every
 * retry. Two runs racing here agree on whichever was written first.
 */
async function readAndAssign(db: Db, asked: Array<{ emailId: number; newMessageId: string }>): Promise<Array<EmailToSend | null>> {
  const rows = await db.sequelize.query<EmailToSend>(
    `WITH v AS (SELECT * FROM unnest($1::bigint[], $2::text[]) AS v(id, new_message_id)),
     assigned AS (
       UPDATE emails e SET message_id = v.new_message_id, updated_at = now() FROM v
        WHERE e.id = v.id AND e.message_id IS NULL AND e.status <> $3 RETURNING e.id, e.message_id
     )
     SELECT DISTINCT ON (e.id) ${EMAIL_COLUMNS}, COALESCE(e.message_id, a.message_id) AS "messageId"
       FROM emails e JOIN v ON v.id = e.id LEFT JOIN assigned a ON a.id = e.id`,
    { bind: [asked.map((a) => a.emailId), asked.map((a) => a.newMessageId), EmailStatus.Sent], type: QueryTypes.SELECT },
  );
  const byId = new Map(rows.map((r) => [r.id, r]));
  return asked.map((a) => byId.get(a.emailId) ?? null);
}

/**
 * Sent, for every email sent at the same moment, with the log's copy of a body less the credentials
 * in it: `redacted` holds the bodies redaction changed (null keeps the stored one, so an email
 * without a link token, a campaign's say, is not written again).
 */
async function markSent(db: Db, sent: Array<{ id: number; redacted: { textBody: string; htmlBody: string | null } | null }>): Promise<void> {
  await db.sequelize.query(
    `UPDATE emails e SET status = $5, sent_at = now(), error = NULL, updated_at = now(),
            text_body = CASE WHEN v.redacted THEN v.text_body ELSE e.text_body END,
            html_body = CASE WHEN v.redacted THEN v.html_body ELSE e.html_body END
       FROM unnest($1::bigint[], $2::boolean[], $3::text[], $4::text[]) AS v(id, redacted, text_body, html_body) WHERE e.id = v.id`,
    {
      bind: [sent.map((s) => s.id), sent.map((s) => s.redacted !== null), sent.map((s) => s.redacted?.textBody ?? null), sent.map((s) => s.redacted?.htmlBody ?? null), EmailStatus.Sent],
      type: QueryTypes.UPDATE,
    },
  );
}

/** The bodies less the credentials in them, or null when they carry none. */
function redactedBodies(email: Pick<EmailToSend, 'textBody' | 'htmlBody'>): { textBody: string; htmlBody: string | null } | null {
  const textBody = redactTokens(email.textBody);
  const htmlBody = email.htmlBody && redactTokens(email.htmlBody);
  return textBody === email.textBody && htmlBody === email.htmlBody ? null : { textBody, htmlBody };
}

/** The emails of the send-email jobs starting at the same moment, read (and given Message-IDs) in one statement. */
const readEmail = batchedPerDb(readAndAssign);
/** The emails sent at the same moment, marked in one statement. */
const markEmailSent = batchedPerDb(markSent);

async function emailWithMessageId(db: Db, emailId: number, publicUrl: string): Promise<EmailToSend | null> {
  const read = () => readEmail(db, { emailId, newMessageId: newEmailMessageId(publicUrl) });
  const email = await read();
  // Another run assigned one between this statement's snapshot and its update: read what it wrote.
  if (email && !email.messageId && email.status !== EmailStatus.Sent) return read();
  return email;
}

/**
 * Sends one logged email. At-least-once delivery must not send twice: an email already marked
 * Sent is skipped, and the Message-ID is stable per email so a receiver can drop a duplicate
 * from the one window we cannot close (killed after the SMTP server accepted, before we marked it).
 * A refusal no retry mends (an SMTP 5xx, an email that does not exist) throws UnrecoverableError.
 */
async function sendLoggedEmail(emailId: number, { db, mailer, config }: WorkerDeps, skip: readonly string[]): Promise<{ messageId: string } | { already: string }> {
  const email = await emailWithMessageId(db, emailId, config.publicUrl);
  if (!email) throw new UnrecoverableError(`email ${emailId} does not exist`);
  if (skip.includes(email.status)) return { already: email.status };
  const messageId = email.messageId!;
  await permanentRefusalsFailAtOnce(() => mailer.sendMail({
    from: config.smtp.from,
    to: email.toAddress,
    subject: email.subject,
    text: email.textBody,
    html: email.htmlBody ?? undefined,
    messageId,
  }));
  // The log keeps what was sent, less the credentials in it: a reset or result link works only from the mailbox.
  await markEmailSent(db, { id: email.id, redacted: redactedBodies(email) });
  return { messageId };
}

/** The emails still Pending among these are Failed, with why (an email already Sent stays Sent). */
async function markPendingFailed(db: Db, emailIds: number[], error: string, transaction?: Transaction): Promise<void> {
  await db.models.Email.update({ status: EmailStatus.Failed, error }, { where: { id: { [Op.in]: emailIds }, status: EmailStatus.Pending }, transaction });
}

/** One email: a refusal for good fails the job at once; any other fault is retried. */
const sendOneEmail: Processor<'send-email'> = async ({ emailId }, deps) => {
  const outcome = await sendLoggedEmail(emailId, deps, [EmailStatus.Sent]);
  return 'already' in outcome ? { skipped: 'already sent' } : outcome;
};

/** No attempt left: the email log says Failed, with the reason. */
const markEmailFailed: Processor<'send-email'>['onFinalFailure'] = ({ emailId }, { db }, { error, transaction }) =>
  markPendingFailed(db, [emailId], error.message, transaction);

export const sendEmail: Processor<'send-email'> = Object.assign(sendOneEmail, { onFinalFailure: markEmailFailed });

/**
 * A campaign's batch, all at once through the mailer's pool, each email as send-email sends one.
 * An email refused for good is Failed at once, with its own reason, and the others go on. If any
 * failed for a reason that may pass (a connection fault, a 4xx), the attempt fails and the retry
 * sends only the emails still Pending; if none did but some were refused, the job fails for good
 * (the job monitor's retry sends those again). Emails Sent or Failed by an earlier attempt are skipped.
 */
const sendBatch: Processor<'send-email-batch'> = async ({ emailIds }, deps) => {
  const outcomes = await Promise.allSettled(emailIds.map((id) => sendLoggedEmail(id, deps, [EmailStatus.Sent, EmailStatus.Failed])));
  const failures = outcomes.flatMap((o, i) => (o.status === 'rejected' ? [{ emailId: emailIds[i], error: o.reason as Error }] : []));
  const refused = failures.filter((f) => f.error instanceof UnrecoverableError);
  for (const { emailId, error } of refused) await markPendingFailed(deps.db, [emailId], error.message);
  const retryable = failures.filter((f) => !(f.error instanceof UnrecoverableError));
  if (retryable.length) throw new Error(`${retryable.length} of ${emailIds.length} emails not sent yet: ${retryable[0].error.message}`);
  // Refused now, or by an earlier attempt of this run: the job fails for good, so the monitor offers its retry.
  const refusedBefore = outcomes.filter((o) => o.status === 'fulfilled' && 'already' in o.value && o.value.already === EmailStatus.Failed).length;
  if (refused.length + refusedBefore) {
    throw new UnrecoverableError(`${refused.length + refusedBefore} of ${emailIds.length} emails refused: ${refused[0]?.error.message ?? 'in an earlier attempt (each email\'s log says why)'}`);
  }
  const sent = outcomes.filter((o) => o.status === 'fulfilled' && 'messageId' in o.value).length;
  return { sent, skipped: emailIds.length - sent };
};

/** No attempt left: the batch's emails still Pending are Failed, with the job's reason. */
const markBatchFailed: Processor<'send-email-batch'>['onFinalFailure'] = ({ emailIds }, { db }, { error, transaction }) =>
  markPendingFailed(db, emailIds, error.message, transaction);

export const sendEmailBatch: Processor<'send-email-batch'> = Object.assign(sendBatch, { onFinalFailure: markBatchFailed });
