import { randomUUID } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
import { QueryTypes } from 'sequelize';
import { EmailStatus } from '@platform/domain';
import type { Processor, WorkerDeps } from './types';

/** A reset, result or patient-invitation link's token, as the log must not keep it. */
const LINK_TOKEN = /([?&](?:token|invitation)=)[0-9a-f]{64}/g;
export const redactTokens = (text: string) => text.replace(LINK_TOKEN, '$1[redacted]');

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

/**
 * Reads the email and gives it its Message-ID if it has none, in one statement. The Message-ID is
 * kept on its row before the first send: the same for every retry (a receiver drops a
 * redelivery), random so that no other database's email ever had it (a recreated or restored
 * database numbers its emails from 1 again, and a mailbox would drop those as copies). Two runs
 * racing here agree on whichever was written first.
 */
async function emailWithMessageId(db: WorkerDeps['db'], emailId: number, hostname: string): Promise<EmailToSend | null> {
  const read = () => db.sequelize.query<EmailToSend>(
    `WITH assigned AS (
       UPDATE emails SET message_id = $2, updated_at = now() WHERE id = $1 AND message_id IS NULL AND status <> 'Sent' RETURNING message_id
     )
     SELECT e.id, e.to_address AS "toAddress", e.subject, e.text_body AS "textBody", e.html_body AS "htmlBody", e.status,
            COALESCE(e.message_id, (SELECT message_id FROM assigned)) AS "messageId"
       FROM emails e WHERE e.id = $1`,
    { bind: [emailId, `<${randomUUID()}@${hostname}>`], type: QueryTypes.SELECT },
  );
  const [email] = await read();
  // Another run assigned one between this statement's snapshot and its update: read what it wrote.
  if (email && !email.messageId && email.status !== EmailStatus.Sent) return (await read())[0] ?? null;
  return email ?? null;
}

/**
 * Sends one logged email. At-least-once delivery must not send twice: an email already marked
 * Sent is skipped, and the Message-ID is stable per email so a receiver can drop a duplicate
 * from the one window we cannot close (killed after the SMTP server accepted, before we marked it).
 */
const sendOneEmail: Processor<'send-email'> = async ({ emailId }, { db, mailer, config }) => {
  const email = await emailWithMessageId(db, emailId, new URL(config.publicUrl).hostname);
  if (!email) throw new UnrecoverableError(`email ${emailId} does not exist`);
  if (email.status === EmailStatus.Sent) return { skipped: 'already sent' };
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
  await db.sequelize.query(
    `UPDATE emails SET status = $2, sent_at = now(), error = NULL, text_body = $3, html_body = $4, updated_at = now() WHERE id = $1`,
    { bind: [email.id, EmailStatus.Sent, redactTokens(email.textBody), email.htmlBody && redactTokens(email.htmlBody)], type: QueryTypes.UPDATE },
  );
  return { messageId };
};

/** No attempt left: the email log says Failed, with the reason (an email already Sent stays Sent). */
const markEmailFailed: Processor<'send-email'>['onFinalFailure'] = async ({ emailId }, { db }, { error, transaction }) => {
  await db.models.Email.update({ status: EmailStatus.Failed, error: error.message }, { where: { id: emailId, status: EmailStatus.Pending }, transaction });
};

export const sendEmail: Processor<'send-email'> = Object.assign(sendOneEmail, { onFinalFailure: markEmailFailed });
