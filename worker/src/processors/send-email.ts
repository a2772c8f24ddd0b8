import { UnrecoverableError } from 'bullmq';
import type { Processor } from './types';

/**
 * Sends one logged email. At-least-once delivery must not send twice: an email already marked
 * Sent is skipped, and the Message-ID is stable per email so a receiver can drop a duplicate
 * from the one window we cannot close (killed after the SMTP server accepted, before we marked it).
 */
export const sendEmail: Processor<'send-email'> = async ({ emailId }, { db, mailer, config }) => {
  const email = await db.models.Email.findByPk(emailId);
  if (!email) throw new UnrecoverableError(`email ${emailId} does not exist`);
  if (email.status === 'Sent') return { skipped: 'already sent' };
  const messageId = `<email-${email.id}@${new URL(config.publicUrl).hostname}>`;
  await mailer.sendMail({
    from: config.smtp.from,
    to: email.toAddress,
    subject: email.subject,
    text: email.textBody,
    html: email.htmlBody ?? undefined,
    messageId,
  });
  await email.update({ status: 'Sent', sentAt: new Date(), messageId, error: null });
  return { messageId };
};
