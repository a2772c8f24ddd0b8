/**
 * Twilio's inbound-message webhook (a patient replied to one of our texts), mounted at /api/webhooks
 * before JSON parsing, sessions and CSRF. The X-Twilio-Signature is checked with the twilio
 * library's validateRequest over the URL Twilio was given (PUBLIC_URL + the path) and the form
 * fields, before anything is read: missing or wrong, it is a 403 and nothing changes. A reply of
 * STOP opts the number out, START back in (server/src/sms/inbound.ts). The answer is empty TwiML:
 * Twilio itself confirms an opt-out to the phone.
 */
import express, { Router, type Request } from 'express';
import { handleInboundSms, SMS_INBOUND_PATH, twilioSignatureValid } from '@platform/server';
import type { AppContext } from '../context';
import { AppError } from '../http/errors';
import { declareRawBody, publicRoute } from '../http/route-policy';
import { answersFile } from '../http/answers';

const WEBHOOK_BODY_LIMIT = '64kb';
const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/** The form fields, each once (Twilio sends no repeated field on an SMS webhook). */
function formFields(req: Request): Record<string, string> {
  const body = Buffer.isBuffer(req.body) ? req.body.toString('utf8') : '';
  return Object.fromEntries(new URLSearchParams(body));
}

export function smsWebhookRouter(ctx: AppContext): Router {
  const router = Router();
  const raw = declareRawBody(express.raw({ type: () => true, limit: WEBHOOK_BODY_LIMIT }), {
    contentType: 'application/x-www-form-urlencoded',
    description: "Twilio's inbound-message webhook (MessageSid, From, To, Body…), signed in the X-Twilio-Signature header",
  });

  router.post(SMS_INBOUND_PATH, publicRoute("Twilio: the X-Twilio-Signature over the webhook's URL and form fields"), raw, answersFile('text/xml'), async (req, res) => {
    const params = formFields(req);
    const signature = req.get('x-twilio-signature') ?? '';
    // The URL Twilio signs is the one its number is configured with: ours, not what a proxy forwarded.
    const url = `${ctx.config.publicUrl}/api/webhooks${SMS_INBOUND_PATH}`;
    if (!signature || !twilioSignatureValid(ctx.config, signature, url, params)) {
      throw new AppError(403, 'bad_signature', 'The X-Twilio-Signature does not verify for this request');
    }
    if (!params.MessageSid || !params.From || params.Body === undefined) {
      throw new AppError(400, 'malformed_message', 'The webhook has no MessageSid, From or Body');
    }
    await handleInboundSms(ctx, { messageSid: params.MessageSid, from: params.From, body: params.Body }, { requestId: (res.locals.requestId as string | undefined) ?? null });
    res.type('text/xml').send(EMPTY_TWIML);
  });

  return router;
}
