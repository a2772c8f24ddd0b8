/**
 * Signatures of the shipping service's webhooks: HMAC-SHA256 with the shared secret over
 * "<unix seconds>.<raw body>", sent as `x-shipping-signature: t=<unix seconds>,v1=<hex>`
 * (several v1 entries allowed while a secret is rotated). Timestamps further than five minutes
 * from now are refused, so a captured request cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { SHIPPING_SIGNATURE_TOLERANCE_SECONDS } from '@platform/domain';

function hmacHex(secret: string, timestamp: number, rawBody: Buffer | string): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(rawBody).digest('hex');
}

/** The x-shipping-signature header value for a body (what the shipping service sends). */
export function signShippingPayload(secret: string, rawBody: Buffer | string, timestamp: number = Math.floor(Date.now() / 1000)): string {
  return `t=${timestamp},v1=${hmacHex(secret, timestamp, rawBody)}`;
}

export type SignatureCheck = { ok: true; timestamp: number } | { ok: false; reason: 'missing' | 'malformed' | 'stale' | 'mismatch' };

/** Checks a signature header against the raw body, in constant time per candidate. */
export function verifyShippingSignature(
  secret: string,
  header: string | undefined,
  rawBody: Buffer,
  nowSeconds: number = Math.floor(Date.now() / 1000),
): SignatureCheck {
  if (!header) return { ok: false, reason: 'missing' };
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) return { ok: false, reason: 'malformed' };
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't') {
      if (!/^\d{1,12}$/.test(value) || timestamp !== null) return { ok: false, reason: 'malformed' };
      timestamp = Number(value);
    } else if (key === 'v1') {
      candidates.push(value);
    }
  }
  if (timestamp === null || candidates.length === 0) return { ok: false, reason: 'malformed' };
  if (Math.abs(nowSeconds - timestamp) > SHIPPING_SIGNATURE_TOLERANCE_SECONDS) return { ok: false, reason: 'stale' };
  const expected = Buffer.from(hmacHex(secret, timestamp, rawBody), 'hex');
  let matched = false;
  for (const candidate of candidates) {
    if (!/^[0-9a-fA-F]{64}$/.test(candidate)) continue;
    const given = Buffer.from(candidate, 'hex');
    // Every candidate is compared (no early exit), each in constant time.
    if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
  }
  return matched ? { ok: true, timestamp } : { ok: false, reason: 'mismatch' };
}
