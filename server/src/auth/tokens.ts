/** Every emailed single-use token (password links, invitations, result and follow-up links, order keys) is kept only as its SHA-256. */
import { createHash, randomBytes } from 'node:crypto';
import { RESULT_LINK_TOKEN_HEX_LENGTH } from '@platform/domain';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** A new emailed-link token (32 random bytes, hex) and the hash the database keeps: every tokened link of the platform. */
export function newLinkToken(): { token: string; tokenHash: string } {
  const token = randomBytes(RESULT_LINK_TOKEN_HEX_LENGTH / 2).toString('hex');
  return { token, tokenHash: hashToken(token) };
}

/** The hash to look a link up by, or null for a string that cannot be a token (a malformed one answers as a wrong one). */
export function linkTokenHash(token: unknown): string | null {
  if (typeof token !== 'string' || !/^[0-9a-f]+$/i.test(token) || token.length !== RESULT_LINK_TOKEN_HEX_LENGTH) return null;
  return hashToken(token.toLowerCase());
}
