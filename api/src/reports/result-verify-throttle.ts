/**
 * The per-address throttle on date-of-birth attempts, on top of the per-link lockout: every
 * attempt (right or wrong) from one address counts, so one address cannot walk through many links.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../http/errors';

export const RESULT_VERIFY_ATTEMPTS_PER_ADDRESS = 30;
export const RESULT_VERIFY_WINDOW_SECONDS = 15 * 60;

export interface ResultVerifyThrottle {
  /** Counts one attempt from the address; throws 429 (with Retry-After) when it is over the limit. */
  consume(ip: string): Promise<void>;
}

export function createResultVerifyThrottle(redis: Redis, redisPrefix: string): ResultVerifyThrottle {
  const limiter = new RateLimiterRedis({
    storeClient: redis,
    keyPrefix: `${redisPrefix}:result-verify-address`,
    points: RESULT_VERIFY_ATTEMPTS_PER_ADDRESS,
    duration: RESULT_VERIFY_WINDOW_SECONDS,
  });
  return {
    async consume(ip) {
      try {
        await limiter.consume(ip);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err;
        const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        const minutes = Math.max(1, Math.ceil(seconds / 60));
        throw tooManyRequests(`Too many attempts from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, seconds);
      }
    },
  };
}
