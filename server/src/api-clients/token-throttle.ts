/**
 * Token requests throttled per client id and per address (kept in Redis, shared by every API
 * process): a guessing run against one client, or from one address against many, is slowed to a
 * few dozen tries a minute. Every request takes its point before the secret is checked.
 */
import type { Redis } from 'ioredis';
import { TOKEN_REQUESTS_PER_ADDRESS, TOKEN_REQUESTS_PER_CLIENT, TOKEN_THROTTLE_WINDOW_SECONDS } from '@platform/domain';
import { redisLimiter, takePoints } from '../throttle';

/** Takes one request from the client's and the address's allowance; the seconds to wait when either is spent. */
export type TokenThrottle = (clientId: string, ip: string) => Promise<number | null>;

export function createTokenThrottle(redis: Redis, prefix: string): TokenThrottle {
  const windowSeconds = TOKEN_THROTTLE_WINDOW_SECONDS;
  const byClient = redisLimiter(redis, prefix, { name: 'oauth-client', points: TOKEN_REQUESTS_PER_CLIENT, windowSeconds });
  const byAddress = redisLimiter(redis, prefix, { name: 'oauth-address', points: TOKEN_REQUESTS_PER_ADDRESS, windowSeconds });
  return (clientId, ip) => takePoints([[byClient, clientId || '-'], [byAddress, ip]]);
}
