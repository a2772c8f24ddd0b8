/**
 * The one Twilio client of a configuration (Twilio's official Node library). With TWILIO_API_URL
 * set (the local stand-in of `npm start` and the tests) its calls go there instead of
 * api.twilio.com: the client's own request client, with the origin of each call's address
 * replaced; the code path is the same either way.
 */
import twilio from 'twilio';
import type { SmsConfig } from '../config';

type TwilioClient = ReturnType<typeof twilio>;

const clients = new WeakMap<SmsConfig, TwilioClient>();

/** Twilio's request client, sending to another origin (the stand-in) with the same paths, auth and form bodies. */
function requestClientTo(apiUrl: string): twilio.RequestClient {
  const origin = new URL(apiUrl);
  const client = new twilio.RequestClient({ timeout: 20_000 });
  const request = client.request.bind(client);
  client.request = (opts) => {
    const uri = new URL(opts.uri);
    uri.protocol = origin.protocol;
    uri.host = origin.host;
    return request({ ...opts, uri: uri.toString() });
  };
  return client;
}

/** Built once per configuration and kept. */
export function twilioClient(config: { sms: SmsConfig }): TwilioClient {
  const existing = clients.get(config.sms);
  if (existing) return existing;
  const client = twilio(config.sms.accountSid, config.sms.authToken, {
    timeout: 20_000,
    ...(config.sms.apiUrl ? { httpClient: requestClientTo(config.sms.apiUrl) } : {}),
  });
  clients.set(config.sms, client);
  return client;
}

/** Whether an inbound webhook's X-Twilio-Signature is Twilio's over this URL and these form fields (the library's own check). */
export function twilioSignatureValid(config: { sms: SmsConfig }, signature: string, url: string, params: Record<string, string>): boolean {
  return twilio.validateRequest(config.sms.authToken, signature, url, params);
}

/** Signs an inbound webhook as Twilio does (the stand-in's, and the tests' forged ones). */
export function signTwilioRequest(authToken: string, url: string, params: Record<string, string>): string {
  return twilio.getExpectedTwilioSignature(authToken, url, params);
}

/** A Twilio REST error's code (21610: the number replied STOP), if the error is one. */
export function twilioErrorCode(err: unknown): number | null {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'number' ? code : null;
}
