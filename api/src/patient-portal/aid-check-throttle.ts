/**
 * The per-address throttle of patient/financial-assistance-patient-exists: anyone may ask, so one
 * address may ask only a few times per window (it answers yes or no about a named person).
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { tooManyRequests } from '../http/errors';

export const AID_CHECKS_PER_ADDRESS = 10;
export const AID_CHECK_WINDOW_SECONDS = 15 * 60;

export interface AidCheckThrottle {
  /** Counts one check from the address; throws 429 (with Retry-After) when it is over the limit. */
  consume(ip: string): Promise<void>;
}

export function createAidCheckThrottle(redis: Redis, redisPrefix: string): AidCheckThrottle {
  const limiter = new RateLimiterRedis({
    storeClient: redis, keyPrefix: `${redisPrefix}:aid-check-address`, points: AID_CHECKS_PER_ADDRESS, duration: AID_CHECK_WINDOW_SECONDS,
  });
  return {
    async consume(ip) {
      try {
        await limiter.consume(ip);
      } catch (err) {
        if (!(err instanceof RateLimiterRes)) throw err; // Redis itself failed: not a throttle decision
        const seconds = Math.max(1, Math.ceil(err.msBeforeNext / 1000));
        const minutes = Math.max(1, Math.ceil(seconds / 60));
        throw tooManyRequests(`Too many checks from your network. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, seconds);
      }
    },
  };
}
