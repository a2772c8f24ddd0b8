import argon2 from 'argon2';

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, { type: argon2.argon2id });
}

/** A user without a password yet (invited, not set up) never signs in. */
export function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  if (!hash) return burnVerifyTime(password);
  return argon2.verify(hash, password).catch(() => false);
}

/** Verifying against this when no user matches keeps the answer time the same either way. */
let dummyHash: Promise<string> | null = null;
export function burnVerifyTime(password: string): Promise<boolean> {
  dummyHash ??= hashPassword('no-such-user-dummy-password');
  return dummyHash.then((h) => argon2.verify(h, password)).then(() => false, () => false);
}
