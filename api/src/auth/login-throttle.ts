/**
 * Sign-in throttling kept in Redis, per account (the email typed, whether or not it exists) and
 * per address. Only failures count; a success clears the account's counter.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { LOGIN_FAILURES_PER_ACCOUNT, LOGIN_FAILURES_PER_ADDRESS, LOGIN_THROTTLE_WINDOW_SECONDS } from '@platform/domain';
import { tooManyRequests } from '../http/errors';

export interface LoginThrottle {
  assertAllowed(email: string, ip: string): Promise<void>;
  recordFailure(email: string, ip: string): Promise<void>;
  recordSuccess(email: string): Promise<void>;
}

function blocked(seconds: number) {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return tooManyRequests(`Too many sign-in attempts. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, seconds);
}

export function createLoginThrottle(redis: Redis, prefix: string): LoginThrottle {
  const common = { storeClient: redis, duration: LOGIN_THROTTLE_WINDOW_SECONDS, blockDuration: LOGIN_THROTTLE_WINDOW_SECONDS };
  const byAccount = new RateLimiterRedis({ ...common, keyPrefix: `${prefix}:login-fail-account`, points: LOGIN_FAILURES_PER_ACCOUNT });
  const byAddress = new RateLimiterRedis({ ...common, keyPrefix: `${prefix}:login-fail-address`, points: LOGIN_FAILURES_PER_ADDRESS });
  const accountKey = (email: string) => email.trim().toLowerCase();

  return {
    async assertAllowed(email, ip) {
      const [a, b] = await Promise.all([byAccount.get(accountKey(email)), byAddress.get(ip)]);
      const over = [a && a.consumedPoints >= LOGIN_FAILURES_PER_ACCOUNT ? a : null, b && b.consumedPoints >= LOGIN_FAILURES_PER_ADDRESS ? b : null]
        .filter((r): r is RateLimiterRes => r !== null);
      if (over.length) throw blocked(Math.ceil(Math.max(...over.map((r) => r.msBeforeNext)) / 1000));
    },
    async recordFailure(email, ip) {
      await Promise.all([
        byAccount.consume(accountKey(email)).catch(() => undefined),
        byAddress.consume(ip).catch(() => undefined),
      ]);
    },
    async recordSuccess(email) {
      await byAccount.delete(accountKey(email));
    },
  };
}
