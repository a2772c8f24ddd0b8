/**
 * Sign-in throttling kept in Redis (OWASP's guidance on lockout). A browser with the account's
 * device cookie (api/src/auth/device-cookie.ts) has its own allowance of failures, touched by nothing else; every
 * other attempt counts against the account's allowance for unknown devices (the email typed, whether
 * or not it exists) and its address's. So failures from anywhere else slow an attacker and never
 * lock the owner out of the device they signed in on before. Every attempt takes its point BEFORE
 * the password is checked (an atomic increment in Redis), so a burst of parallel guesses cannot slip
 * past the limit; a success gives the points back.
 */
import type { Redis } from 'ioredis';
import { LOGIN_FAILURES_PER_ACCOUNT, LOGIN_FAILURES_PER_ADDRESS, LOGIN_THROTTLE_WINDOW_SECONDS, SECOND_STEP_FAILURES_PER_USER } from '@platform/domain';
import { TooManyAttempts } from '../errors';
import { minutesOf, redisLimiter, takePoints } from '../throttle';

/** One sign-in attempt: the email typed, the caller's address, and its device cookie's id when it is that account's. */
export interface SignInAttempt {
  email: string;
  ip: string;
  device: string | null;
}

export interface LoginThrottle {
  /** Takes one attempt from the allowances it counts against, or refuses with 429. */
  reserve(attempt: SignInAttempt): Promise<void>;
  /** A success gives its points back: only failures may use up an allowance. */
  recordSuccess(attempt: SignInAttempt): Promise<void>;
}

/** A 429 saying what was refused and when to try again (Retry-After in seconds). */
const blocked = (what: string, seconds: number) => new TooManyAttempts(`${what}. Try again in ${minutesOf(seconds)}.`, seconds);

const window = LOGIN_THROTTLE_WINDOW_SECONDS;

export function createLoginThrottle(redis: Redis, prefix: string): LoginThrottle {
  const failures = { windowSeconds: window, blockSeconds: window };
  const byDevice = redisLimiter(redis, prefix, { name: 'login-device', points: LOGIN_FAILURES_PER_ACCOUNT, ...failures });
  const byAccount = redisLimiter(redis, prefix, { name: 'login-account', points: LOGIN_FAILURES_PER_ACCOUNT, ...failures });
  const byAddress = redisLimiter(redis, prefix, { name: 'login-address', points: LOGIN_FAILURES_PER_ADDRESS, ...failures });
  const accountKey = (email: string) => email.trim().toLowerCase();

  return {
    async reserve({ email, ip, device }) {
      // No email typed (a malformed body): it counts against its address alone, not an account.
      const wait = await takePoints(
        device ? [[byDevice, device]] : accountKey(email) ? [[byAccount, accountKey(email)], [byAddress, ip]] : [[byAddress, ip]],
      );
      if (wait !== null) throw blocked('Too many sign-in attempts', wait);
    },
    async recordSuccess({ email, ip, device }) {
      if (device) await byDevice.delete(device);
      else await Promise.all([byAccount.delete(accountKey(email)), byAddress.reward(ip, 1)]);
    },
  };
}

/**
 * A password re-entered by a signed-in user (to change it, or to sign results): wrong ones are
 * limited per user as sign-in failures are per account, each use with its own count. A point is
 * taken before the (costly) password check; a success gives them back.
 */
export function createPasswordCheckThrottle(redis: Redis, prefix: string, use: 'password-change' | 'signature' = 'password-change') {
  const byUser = redisLimiter(redis, prefix, { name: use, points: LOGIN_FAILURES_PER_ACCOUNT, windowSeconds: window, blockSeconds: window });
  const refusal = use === 'signature' ? 'Too many wrong passwords: nothing can be signed for a while' : 'Too many wrong current passwords';
  return {
    async reserve(userId: number): Promise<void> {
      const wait = await takePoints([[byUser, String(userId)]]);
      if (wait !== null) throw blocked(refusal, wait);
    },
    async recordSuccess(userId: number): Promise<void> {
      await byUser.delete(String(userId));
    },
  };
}
export type PasswordCheckThrottle = ReturnType<typeof createPasswordCheckThrottle>;

/**
 * Anonymous requests that write or send on someone's behalf (a password reset, a request for
 * access): a few per email and per address, so nobody can flood a mailbox or the admins' queue.
 */
export function createEmailRequestThrottle(redis: Redis, prefix: string, name: 'reset' | 'request-access') {
  const byEmail = redisLimiter(redis, prefix, { name: `${name}-email`, points: 3, windowSeconds: window });
  const byAddress = redisLimiter(redis, prefix, { name: `${name}-address`, points: 10, windowSeconds: window });
  return {
    /** Whether this request may send an email; the caller answers the same either way. */
    async allow(email: string, ip: string): Promise<boolean> {
      return (await takePoints([[byEmail, email.trim().toLowerCase()], [byAddress, ip]])) === null;
    },
  };
}

/**
 * The second step of a sign-in (a TOTP or recovery code, a passkey): wrong answers limited per
 * user, apart from the password's allowance. A point is taken before the answer is checked; a
 * success gives them back.
 */
export function createSecondStepThrottle(redis: Redis, prefix: string) {
  const byUser = redisLimiter(redis, prefix, { name: 'second-step', points: SECOND_STEP_FAILURES_PER_USER, windowSeconds: window, blockSeconds: window });
  return {
    async reserve(userId: number): Promise<void> {
      const wait = await takePoints([[byUser, String(userId)]]);
      if (wait !== null) throw blocked('Too many wrong codes', wait);
    },
    async recordSuccess(userId: number): Promise<void> {
      await byUser.delete(String(userId));
    },
  };
}
export type SecondStepThrottle = ReturnType<typeof createSecondStepThrottle>;
