/** Sends one logged text message through Twilio (server/src/sms/send-sms.ts); a permanent refusal fails at once. */
import { UnrecoverableError } from 'bullmq';
import { markTextMessageFailed, sendTextMessage, TextRefused } from '@platform/server';
import type { Processor } from './types';

const sendOneSms: Processor<'send-sms'> = async ({ textMessageId }, { db, config }, { attempt }) => {
  try {
    return await sendTextMessage({ db, config }, textMessageId, attempt);
  } catch (err) {
    if (err instanceof TextRefused) throw new UnrecoverableError(err.message);
    throw err;
  }
};

export const sendSms: Processor<'send-sms'> = Object.assign(sendOneSms, {
  onFinalFailure: (({ textMessageId }, { db }, { error, transaction }) => markTextMessageFailed(db, textMessageId, error.message, transaction)) as Processor<'send-sms'>['onFinalFailure'],
});
