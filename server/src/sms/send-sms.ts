/**
 * Sending one logged text message (the worker's send-sms job). At-least-once delivery must not text
 * twice: a row no longer Pending is skipped. Just before sending, the patient must still consent,
 * still have that number, and the number must not have replied STOP: otherwise the row becomes
 * "Not sent" with the reason, and nothing goes to Twilio. Twilio's own refusal of an unsubscribed
 * number (21610) is recorded the same way. The result link's token is redacted from the row once
 * sent (the link works only from the phone).
 */
import { NOT_SENT_REASONS, TextMessageStatus, TWILIO_UNSUBSCRIBED_ERROR } from '@platform/domain';
import type { Db } from '@platform/db';
import type { Config } from '../config';
import { redactTokens } from '../email/link-tokens';
import { optedOut } from './inbound';
import { twilioClient, twilioErrorCode } from './twilio-client';

type MessageRow = InstanceType<Db['models']['TextMessage']>;


/** Why the message may not go now, or null when it may. */
async function notSendableBecause(db: Db, message: MessageRow): Promise<string | null> {
  const patient = await db.models.Patient.findByPk(message.patientId, { attributes: ['id', 'mobilePhone', 'smsConsent'] });
  if (!patient?.smsConsent) return NOT_SENT_REASONS.noConsent;
  if (patient.mobilePhone !== message.toPhone) return NOT_SENT_REASONS.numberChanged;
  if (await optedOut(db, message.toPhone)) return NOT_SENT_REASONS.optedOut;
  return null;
}

/** A permanent refusal: no retry sends it (a bad number, say). Transient faults (5xx, network, 429) are retried by the job. */
export class TextRefused extends Error {
  override name = 'TextRefused';
}

export type SendOutcome = { skipped: string } | { notSent: string } | { sid: string };

export async function sendTextMessage(deps: { db: Db; config: Pick<Config, 'sms'> }, textMessageId: number, attempt: number): Promise<SendOutcome> {
  const { db, config } = deps;
  const message = await db.models.TextMessage.findByPk(textMessageId);
  if (!message) throw new TextRefused(`text message ${textMessageId} does not exist`);
  if (message.status !== TextMessageStatus.Pending) return { skipped: `already ${message.status}` };
  await message.update({ attempts: attempt });
  const reason = await notSendableBecause(db, message);
  if (reason) {
    await message.update({ status: TextMessageStatus.NotSent, error: reason });
    return { notSent: reason };
  }
  const from = config.sms.from.startsWith('MG') ? { messagingServiceSid: config.sms.from } : { from: config.sms.from };
  let sid: string;
  try {
    ({ sid } = await twilioClient(config).messages.create({ to: message.toPhone, body: message.body, ...from }));
  } catch (err) {
    const code = twilioErrorCode(err);
    if (code === TWILIO_UNSUBSCRIBED_ERROR) {
      // Twilio knows the number replied STOP (perhaps before our webhook heard it): keep it too.
      await db.sequelize.query(`INSERT INTO sms_opt_outs (phone, keyword) VALUES (:phone, 'TWILIO-21610') ON CONFLICT (phone) DO NOTHING`, { replacements: { phone: message.toPhone } });
      await message.update({ status: TextMessageStatus.NotSent, error: NOT_SENT_REASONS.optedOut });
      return { notSent: NOT_SENT_REASONS.optedOut };
    }
    const status = (err as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400 && status < 500 && status !== 429) throw new TextRefused(`Twilio refused the message (${code ?? status}): ${(err as Error).message}`);
    throw err;
  }
  await message.update({ status: TextMessageStatus.Sent, providerSid: sid, sentAt: new Date(), error: null, body: redactTokens(message.body) });
  return { sid };
}

/** No attempt left: the row says Failed, with the reason (a row already Sent or Not sent stays so). */
export async function markTextMessageFailed(db: Db, textMessageId: number, error: string, transaction: import('sequelize').Transaction): Promise<void> {
  await db.models.TextMessage.update({ status: TextMessageStatus.Failed, error }, { where: { id: textMessageId, status: TextMessageStatus.Pending }, transaction });
}
