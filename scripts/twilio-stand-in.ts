/**
 * The local Twilio stand-in of `npm start` and the tests (no internet here): an HTTP server on
 * 127.0.0.1 that answers the call Twilio's Node client makes to send a text (form-encoded
 * POST /2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP basic auth with the account SID and
 * auth token) with Twilio-shaped JSON, and records every message it took. It plays the patient's
 * phone too: reply() sends Twilio's inbound-message webhook (form fields MessageSid, From, To,
 * Body…, signed in X-Twilio-Signature with the twilio library's own signer) to the API, and, as
 * Twilio's Advanced Opt-Out does, a number that replied STOP (or STOPALL, UNSUBSCRIBE, CANCEL, END,
 * QUIT) is refused with error 21610 until it replies START or UNSTOP. Its page (GET /) lists the
 * messages and has a reply box, for trying it by hand. It keeps everything in memory and never
 * talks to Twilio.
 */
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { normaliseMobile, smsKeywordAction, TWILIO_UNSUBSCRIBED_ERROR } from '@platform/domain';
import { signTwilioRequest } from '@platform/server';

export interface StandInSms {
  sid: string;
  to: string;
  from: string;
  body: string;
  at: Date;
}

export interface StandInReply {
  messageSid: string;
  from: string;
  body: string;
  /** The API's answer to the webhook (null when it could not be reached). */
  status: number | null;
}

export interface TwilioStandIn {
  url: string;
  port: number;
  /** Every message the client sent that the stand-in took, oldest first. */
  messages: StandInSms[];
  /** Every inbound webhook sent, with the API's answer. */
  replies: StandInReply[];
  messagesTo(phone: string): StandInSms[];
  /** Where inbound webhooks go (the API's /api/webhooks/sms/inbound, as the Twilio number's messaging webhook is set). */
  setWebhookUrl(url: string): void;
  /** The patient's phone replies: the signed inbound webhook; resolves with the API's answer. `signWith` forges the signature with another token. */
  reply(from: string, body: string, options?: { signWith?: string }): Promise<StandInReply>;
  close(): Promise<void>;
}

export interface TwilioStandInOptions {
  accountSid: string;
  authToken: string;
  /** Our number as Twilio's webhook names it (To of an inbound message). */
  ourNumber: string;
  webhookUrl?: string | null;
  port?: number;
  host?: string;
}

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`;

function json(res: http.ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json', 'Twilio-Request-Id': sid('RQ') });
  res.end(JSON.stringify(body));
}

/** Twilio's error body (RestException reads code, message, more_info, status). */
function twilioError(res: http.ServerResponse, status: number, code: number, message: string): void {
  json(res, status, { code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status });
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function page(messages: StandInSms[], replies: StandInReply[]): string {
  const rows = messages.slice().reverse().map((m) => `<tr><td>${m.at.toISOString()}</td><td>${escapeHtml(m.to)}</td><td>${escapeHtml(m.body)}</td></tr>`).join('');
  const replied = replies.slice().reverse().map((r) => `<li>${escapeHtml(r.from)}: ${escapeHtml(r.body)} → ${r.status ?? 'unreachable'}</li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Text messages (local Twilio stand-in)</title>
<style>body{font-family:system-ui,sans-serif;margin:16px}table{border-collapse:collapse}td,th{border:1px solid #888;padding:4px 8px;text-align:left}</style></head>
<body><main><h1>Text messages sent (local Twilio stand-in)</h1>
<table><thead><tr><th>At</th><th>To</th><th>Text</th></tr></thead><tbody>${rows || '<tr><td colspan="3">None yet</td></tr>'}</tbody></table>
<h2>Reply from a phone</h2>
<form method="post" action="/reply"><label>From <input name="from" placeholder="+14155550134" required></label>
<label>Text <input name="body" value="STOP" required></label> <button type="submit">Send reply</button></form>
<ul>${replied}</ul></main></body></html>`;
}

export async function startTwilioStandIn(options: TwilioStandInOptions): Promise<TwilioStandIn> {
  const messages: StandInSms[] = [];
  const replies: StandInReply[] = [];
  const optedOut = new Set<string>();
  let webhookUrl = options.webhookUrl ?? null;
  const expectedAuth = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`).toString('base64')}`;

  async function reply(from: string, body: string, replyOptions: { signWith?: string } = {}): Promise<StandInReply> {
    const phone = normaliseMobile(from) ?? from;
    // Twilio applies its opt-out list before it tells us: the same here (a forged request never reached Twilio).
    const action = smsKeywordAction(body);
    if (!replyOptions.signWith && action === 'opt-out') optedOut.add(phone);
    if (!replyOptions.signWith && action === 'opt-in') optedOut.delete(phone);
    const params: Record<string, string> = {
      ToCountry: 'US', SmsMessageSid: '', NumMedia: '0', SmsSid: '', SmsStatus: 'received', Body: body, To: options.ourNumber,
      NumSegments: '1', MessageSid: sid('SM'), AccountSid: options.accountSid, From: phone, ApiVersion: '2010-04-01',
    };
    params.SmsMessageSid = params.SmsSid = params.MessageSid;
    if (action) params.OptOutType = action === 'opt-out' ? 'STOP' : 'START';
    const record: StandInReply = { messageSid: params.MessageSid, from: phone, body, status: null };
    replies.push(record);
    if (!webhookUrl) return record;
    try {
      const answer = await fetch(webhookUrl, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          'X-Twilio-Signature': signTwilioRequest(replyOptions.signWith ?? options.authToken, webhookUrl, params),
          'User-Agent': 'TwilioProxy/1.1',
        },
        body: new URLSearchParams(params).toString(),
      });
      await answer.arrayBuffer();
      record.status = answer.status;
    } catch {
      record.status = null;
    }
    return record;
  }

  async function sendMessage(req: http.IncomingMessage, res: http.ServerResponse, accountSid: string): Promise<void> {
    if (req.headers.authorization !== expectedAuth || accountSid !== options.accountSid) {
      return twilioError(res, 401, 20003, 'Authentication Error - invalid username');
    }
    const form = new URLSearchParams(await readBody(req));
    const to = normaliseMobile(form.get('To') ?? '');
    const body = form.get('Body') ?? '';
    const from = form.get('From') ?? form.get('MessagingServiceSid') ?? '';
    if (!to) return twilioError(res, 400, 21211, `The 'To' number ${form.get('To') ?? ''} is not a valid phone number.`);
    if (!from) return twilioError(res, 400, 21603, 'A \'From\' or \'MessagingServiceSid\' parameter is required to send a message');
    if (!body) return twilioError(res, 400, 21602, 'Message body is required.');
    if (optedOut.has(to)) return twilioError(res, 400, TWILIO_UNSUBSCRIBED_ERROR, 'Attempt to send to unsubscribed recipient');
    const message: StandInSms = { sid: sid('SM'), to, from, body, at: new Date() };
    messages.push(message);
    const now = message.at.toUTCString();
    json(res, 201, {
      account_sid: options.accountSid, api_version: '2010-04-01', body, date_created: now, date_sent: null, date_updated: now, direction: 'outbound-api',
      error_code: null, error_message: null, from: form.get('From'), messaging_service_sid: form.get('MessagingServiceSid'), num_media: '0', num_segments: '1',
      price: null, price_unit: 'USD', sid: message.sid, status: 'queued', subresource_uris: {}, to, uri: `/2010-04-01/Accounts/${accountSid}/Messages/${message.sid}.json`,
    });
  }

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://stand-in');
    const send = /^\/2010-04-01\/Accounts\/(\w+)\/Messages\.json$/.exec(url.pathname);
    const handle = async () => {
      if (req.method === 'POST' && send) return sendMessage(req, res, send[1]);
      if (req.method === 'GET' && url.pathname === '/') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end(page(messages, replies));
      }
      if (req.method === 'POST' && url.pathname === '/reply') {
        const form = new URLSearchParams(await readBody(req));
        await reply(form.get('from') ?? '', form.get('body') ?? '');
        res.writeHead(303, { Location: '/' });
        return res.end();
      }
      twilioError(res, 404, 20404, 'The requested resource was not found');
    };
    handle().catch(() => {
      if (!res.headersSent) twilioError(res, 500, 20500, 'Internal Server Error');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, options.host ?? '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port ?? 0;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    messages,
    replies,
    messagesTo: (phone) => messages.filter((m) => m.to === phone),
    setWebhookUrl(url) {
      webhookUrl = url;
    },
    reply,
    close: () => new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    }),
  };
}
