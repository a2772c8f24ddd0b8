/**
 * Sign-in throttling kept in Redis (OWASP's guidance on lockout). A browser with the account's
 * device cookie (device-cookie.ts) has its own allowance of failures, touched by nothing else; every
 * other attempt counts against the account's allowance for unknown devices (the email typed, whether
 * or not it exists) and its address's. So failures from anywhere else slow an attacker and never
 * lock the owner out of the device they signed in on before. Every attempt takes its point BEFORE
 * the password is checked (an atomic increment in Redis), so a burst of parallel guesses cannot slip
 * past the limit; a success gives the points back.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { LOGIN_FAILURES_PER_ACCOUNT, LOGIN_FAILURES_PER_ADDRESS, LOGIN_THROTTLE_WINDOW_SECONDS } from '@platform/domain';
import { tooManyRequests } from '../http/errors';

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
function blocked(what: string, seconds: number) {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return tooManyRequests(`${what}. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, seconds);
}

export function createLoginThrottle(redis: Redis, prefix: string): LoginThrottle {
  const common = { storeClient: redis, duration: LOGIN_THROTTLE_WINDOW_SECONDS, blockDuration: LOGIN_THROTTLE_WINDOW_SECONDS };
  const byDevice = new RateLimiterRedis({ ...common, keyPrefix: `${prefix}:login-device`, points: LOGIN_FAILURES_PER_ACCOUNT });
  const byAccount = new RateLimiterRedis({ ...common, keyPrefix: `${prefix}:login-account`, points: LOGIN_FAILURES_PER_ACCOUNT });
  const byAddress = new RateLimiterRedis({ ...common, keyPrefix: `${prefix}:login-address`, points: LOGIN_FAILURES_PER_ADDRESS });
  const accountKey = (email: string) => email.trim().toLowerCase();

  return {
    async reserve({ email, ip, device }) {
      // No email typed (a malformed body): it counts against its address alone, not an account.
      const takes = device ? [byDevice.consume(device)] : accountKey(email) ? [byAccount.consume(accountKey(email)), byAddress.consume(ip)] : [byAddress.consume(ip)];
      const outcomes = await Promise.allSettled(takes);
      const refused = outcomes.flatMap((o) => (o.status === 'rejected' ? [o.reason] : []));
      if (!refused.length) return;
      const waits = refused.map((r) => {
        if (r instanceof RateLimiterRes) return r.msBeforeNext;
        throw r; // Redis itself failed: not a throttle decision
      });
      throw blocked('Too many sign-in attempts', Math.ceil(Math.max(...waits) / 1000));
    },
    async recordSuccess({ email, ip, device }) {
      if (device) await byDevice.delete(device);
      else await Promise.all([byAccount.delete(accountKey(email)), byAddress.reward(ip, 1)]);
    },
  };
}

/**
 * Changing a password: wrong current passwords are limited per user as sign-in failures are per
 * account. A point is taken before the (costly) password check; a success gives them back.
 */
export function createPasswordChangeThrottle(redis: Redis, prefix: string) {
  const byUser = new RateLimiterRedis({
    storeClient: redis, keyPrefix: `${prefix}:password-change`, points: LOGIN_FAILURES_PER_ACCOUNT,
    duration: LOGIN_THROTTLE_WINDOW_SECONDS, blockDuration: LOGIN_THROTTLE_WINDOW_SECONDS,
  });
  return {
    async reserve(userId: number): Promise<void> {
      try {
        await byUser.consume(String(userId));
      } catch (r) {
        if (!(r instanceof RateLimiterRes)) throw r; // Redis itself failed: not a throttle decision
        throw blocked('Too many wrong current passwords', Math.ceil(r.msBeforeNext / 1000));
      }
    },
    async recordSuccess(userId: number): Promise<void> {
      await byUser.delete(String(userId));
    },
  };
}

/**
 * Anonymous requests that write or send on someone's behalf (a password reset, a request for
 * access): a few per email and per address, so nobody can flood a mailbox or the admins' queue.
 */
export function createEmailRequestThrottle(redis: Redis, prefix: string, name: 'reset' | 'request-access') {
  const window = LOGIN_THROTTLE_WINDOW_SECONDS;
  const byEmail = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:${name}-email`, points: 3, duration: window });
  const byAddress = new RateLimiterRedis({ storeClient: redis, keyPrefix: `${prefix}:${name}-address`, points: 10, duration: window });
  return {
    /** Whether this request may send an email; the caller answers the same either way. */
    async allow(email: string, ip: string): Promise<boolean> {
      const outcomes = await Promise.allSettled([byEmail.consume(email.trim().toLowerCase()), byAddress.consume(ip)]);
      return outcomes.every((o) => o.status === 'fulfilled');
    },
  };
}
