/**
 * A text a patient sent to our number, as Twilio's inbound-message webhook reports it (its
 * X-Twilio-Signature checked by the route first): a reply of STOP (or another of Twilio's opt-out
 * words) stops every text to that number, START or UNSTOP lets them through again; anything else
 * changes nothing (Twilio answers HELP itself). Each message is applied once (its MessageSid in
 * webhook_events), in one transaction, audited with the number's last four digits only.
 */
import { QueryTypes } from 'sequelize';
import type { Db } from '@platform/db';
import { maskedMobile, normaliseMobile, smsKeywordAction, type SmsKeywordAction } from '@platform/domain';
import { auditActor, recordAudit, systemCaller } from '../audit';

/** webhook_events' source of Twilio's inbound messages. */
export const SMS_WEBHOOK_SOURCE = 'twilio-sms';

/** The path under /api/webhooks that Twilio's number posts inbound messages to. */
export const SMS_INBOUND_PATH = '/sms/inbound';

export interface InboundSms {
  messageSid: string;
  from: string;
  body: string;
}

export interface InboundOutcome {
  action: SmsKeywordAction;
  duplicate: boolean;
}

/** Applies an inbound message once: the opt-out or opt-in it asks for, if any. */
export async function handleInboundSms(ctx: { db: Db }, message: InboundSms, meta: { requestId: string | null }): Promise<InboundOutcome> {
  const action = smsKeywordAction(message.body);
  const phone = normaliseMobile(message.from);
  return ctx.db.sequelize.transaction(async (transaction) => {
    const first = await ctx.db.sequelize.query<{ id: number }>(
      `INSERT INTO webhook_events (source, event_id) VALUES (:source, :eventId) ON CONFLICT (source, event_id) DO NOTHING RETURNING id`,
      { replacements: { source: SMS_WEBHOOK_SOURCE, eventId: message.messageSid }, type: QueryTypes.SELECT, transaction },
    );
    if (!first.length) return { action, duplicate: true };
    if (!action || !phone) return { action: null, duplicate: false };
    if (action === 'opt-out') {
      await ctx.db.sequelize.query(
        `INSERT INTO sms_opt_outs (phone, keyword) VALUES (:phone, :keyword) ON CONFLICT (phone) DO NOTHING`,
        { replacements: { phone, keyword: message.body.trim().toUpperCase() }, transaction },
      );
    } else {
      await ctx.db.models.SmsOptOut.destroy({ where: { phone }, transaction });
    }
    await recordAudit(ctx.db, {
      ...auditActor(systemCaller(meta.requestId)),
      action: action === 'opt-out' ? 'sms.opted_out' : 'sms.opted_in',
      details: { phone: maskedMobile(phone), keyword: message.body.trim().toUpperCase(), messageSid: message.messageSid },
    }, transaction);
    return { action, duplicate: false };
  });
}

/** Whether a number replied STOP and has not replied START since. */
export async function optedOut(db: Db, phone: string): Promise<boolean> {
  return (await db.models.SmsOptOut.count({ where: { phone } })) > 0;
}
