/** Every emailed single-use token (password links, invitations, result and follow-up links, order keys) is kept only as its SHA-256. */
import { createHash } from 'node:crypto';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
