import { randomUUID } from 'node:crypto';
import { UnrecoverableError } from 'bullmq';
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

/**
 * The email's Message-ID, kept on its row before the first send: the same for every retry (a
 * receiver drops a redelivery), random so that no other database's email ever had it (a recreated
 * or restored database numbers its emails from 1 again, and a mailbox would drop those as copies).
 * Two runs racing here agree on whichever was written first.
 */
async function assignMessageId(db: WorkerDeps['db'], emailId: number, hostname: string): Promise<string> {
  await db.models.Email.update({ messageId: `<${randomUUID()}@${hostname}>` }, { where: { id: emailId, messageId: null } });
  const row = await db.models.Email.findByPk(emailId, { attributes: ['messageId'] });
  return row!.messageId!;
}

/**
 * Sends one logged email. At-least-once delivery must not send twice: an email already marked
 * Sent is skipped, and the Message-ID is stable per email so a receiver can drop a duplicate
 * from the one window we cannot close (killed after the SMTP server accepted, before we marked it).
 */
const sendOneEmail: Processor<'send-email'> = async ({ emailId }, { db, mailer, config }) => {
  const email = await db.models.Email.findByPk(emailId);
  if (!email) throw new UnrecoverableError(`email ${emailId} does not exist`);
  if (email.status === 'Sent') return { skipped: 'already sent' };
  const messageId = email.messageId ?? (await assignMessageId(db, email.id, new URL(config.publicUrl).hostname));
  await permanentRefusalsFailAtOnce(() => mailer.sendMail({
    from: config.smtp.from,
    to: email.toAddress,
    subject: email.subject,
    text: email.textBody,
    html: email.htmlBody ?? undefined,
    messageId,
  }));
  // The log keeps what was sent, less the credentials in it: a reset or result link works only from the mailbox.
  await email.update({ status: 'Sent', sentAt: new Date(), messageId, error: null, textBody: redactTokens(email.textBody), htmlBody: email.htmlBody && redactTokens(email.htmlBody) });
  return { messageId };
};

/** No attempt left: the email log says Failed, with the reason (an email already Sent stays Sent). */
const markEmailFailed: Processor<'send-email'>['onFinalFailure'] = async ({ emailId }, { db }, { error, transaction }) => {
  await db.models.Email.update({ status: EmailStatus.Failed, error: error.message }, { where: { id: emailId, status: EmailStatus.Pending }, transaction });
};

export const sendEmail: Processor<'send-email'> = Object.assign(sendOneEmail, { onFinalFailure: markEmailFailed });
