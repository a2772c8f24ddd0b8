/**
 * The device cookie of OWASP's guidance on lockout: a browser in which someone signed in to an
 * account gets a signed cookie naming that account; its later sign-ins to that account have an
 * allowance of their own, so failures an attacker causes from other devices and addresses never
 * lock the owner out of the device they use. The cookie carries a random id and an HMAC over the
 * id and the account's email (never the email itself).
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Request, Response } from 'express';
import { DEVICE_COOKIE_DAYS } from '@platform/domain';
import { cookieOf, sameString } from './session';

export const DEVICE_COOKIE = 'platform.device';

interface DeviceCookieConfig {
  sessionSecret: string;
  secureCookies: boolean;
}

const accountKey = (email: string) => email.trim().toLowerCase();
const signDevice = (secret: string, id: string, email: string) => createHmac('sha256', secret).update(`device:${id}:${accountKey(email)}`).digest('base64url');

/** The id of this request's device cookie when it was issued for the account of `email`; null otherwise. */
export function knownDevice(req: Request, config: DeviceCookieConfig, email: string): string | null {
  const [id, mac, ...rest] = (cookieOf(req, DEVICE_COOKIE) ?? '').split('.');
  return rest.length === 0 && id && mac && sameString(mac, signDevice(config.sessionSecret, id, email)) ? id : null;
}

/** After a successful sign-in: the device cookie for this account (kept when it is already this account's). */
export function rememberDevice(req: Request, res: Response, config: DeviceCookieConfig, email: string): void {
  if (knownDevice(req, config, email)) return;
  const id = randomBytes(16).toString('base64url');
  res.cookie(DEVICE_COOKIE, `${id}.${signDevice(config.sessionSecret, id, email)}`, {
    httpOnly: true, sameSite: 'lax', secure: config.secureCookies, path: '/api/auth', maxAge: DEVICE_COOKIE_DAYS * 86_400_000,
  });
}
