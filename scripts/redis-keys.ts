/** Deletes every Redis key starting with `prefix` (a run's own keys: the tests', the bench's, the load run's). */
import { Redis } from 'ioredis';

export async function deleteRedisKeys(url: string | undefined, prefix: string): Promise<void> {
  const redis = new Redis(url ?? 'redis://127.0.0.1:6379');
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
      if (keys.length) await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}
