/**
 * Token requests throttled per client id and per address (kept in Redis, shared by every API
 * process): a guessing run against one client, or from one address against many, is slowed to a
 * few dozen tries a minute. Every request takes its point before the secret is checked.
 */
import type { Redis } from 'ioredis';
import { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { TOKEN_REQUESTS_PER_ADDRESS, TOKEN_REQUESTS_PER_CLIENT, TOKEN_THROTTLE_WINDOW_SECONDS } from '@platform/domain';

/** Takes one request from the client's and the address's allowance; the seconds to wait when either is spent. */
export type TokenThrottle = (clientId: string, ip: string) => Promise<number | null>;

export function createTokenThrottle(redis: Redis, prefix: string): TokenThrottle {
  const common = { storeClient: redis, duration: TOKEN_THROTTLE_WINDOW_SECONDS };
  const byClient = new RateLimiterRedis({ ...common, keyPrefix: `${prefix}:oauth-client`, points: TOKEN_REQUESTS_PER_CLIENT });
  const byAddress = new RateLimiterRedis({ ...common, keyPrefix: `${prefix}:oauth-address`, points: TOKEN_REQUESTS_PER_ADDRESS });
  return async (clientId, ip) => {
    const outcomes = await Promise.allSettled([byClient.consume(clientId || '-'), byAddress.consume(ip)]);
    const waits = outcomes.flatMap((o) => {
      if (o.status === 'fulfilled') return [];
      if (o.reason instanceof RateLimiterRes) return [o.reason.msBeforeNext];
      throw o.reason; // Redis itself failed: not a throttle decision
    });
    return waits.length ? Math.ceil(Math.max(...waits) / 1000) : null;
  };
}
