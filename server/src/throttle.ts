/**
 * Throttles kept in Redis, shared by every API process: each attempt takes its point BEFORE the
 * costly or revealing work (an atomic increment), so a burst of parallel tries cannot slip past a
 * limit. Redis failing is thrown as itself: it is not a throttle decision.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { TooManyAttempts } from './errors';

export interface ThrottleRule {
  /** The Redis key's middle part (after the run's prefix), e.g. `login-account`. */
  name: string;
  points: number;
  windowSeconds: number;
  /** Once spent, refuse for this long (default: until the window ends). */
  blockSeconds?: number;
}

export function redisLimiter(redis: Redis, prefix: string, rule: ThrottleRule): RateLimiterRedis {
  return new RateLimiterRedis({
    storeClient: redis, keyPrefix: `${prefix}:${rule.name}`, points: rule.points, duration: rule.windowSeconds,
    ...(rule.blockSeconds ? { blockDuration: rule.blockSeconds } : {}),
  });
}

/** Takes one point from each limiter for its key; the longest wait in seconds when any allowance is spent, else null. */
export async function takePoints(takes: [RateLimiterRedis, string][]): Promise<number | null> {
  const outcomes = await Promise.allSettled(takes.map(([limiter, key]) => limiter.consume(key)));
  const waits = outcomes.flatMap((o) => {
    if (o.status === 'fulfilled') return [];
    if (o.reason instanceof RateLimiterRes) return [o.reason.msBeforeNext];
    throw o.reason;
  });
  return waits.length ? Math.max(1, Math.ceil(Math.max(...waits) / 1000)) : null;
}

/** "N minute(s)": how a refusal tells the wait. */
export function minutesOf(seconds: number): string {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** A throttle on one caller's address for an anonymous question (does this person exist? is this their date of birth?). */
export interface AddressThrottle {
  /** Counts one attempt from the address; throws TooManyAttempts (429 with Retry-After) past the limit. */
  consume(ip: string): Promise<void>;
}

/** `refusal` says what was refused, e.g. "Too many checks from your network". */
export function createAddressThrottle(redis: Redis, prefix: string, rule: ThrottleRule & { refusal: string }): AddressThrottle {
  const limiter = redisLimiter(redis, prefix, rule);
  return {
    async consume(ip) {
      const wait = await takePoints([[limiter, ip]]);
      if (wait !== null) throw new TooManyAttempts(`${rule.refusal}. Please try again in ${minutesOf(wait)}.`, wait);
    },
  };
}
