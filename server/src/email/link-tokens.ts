/**
 * A reset, result or patient-invitation link's token, as a log must not keep it: the email log and
 * the text-message rows keep what was sent less the credentials in it (a link works only from the
 * mailbox or the phone it went to).
 */
const LINK_TOKEN = /([?&](?:token|invitation)=)[0-9a-f]{64}/g;

export const redactTokens = (text: string) => text.replace(LINK_TOKEN, '$1[redacted]');
