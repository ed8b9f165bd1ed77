/**
 * Links to a suite's Redis (redis-server.ts), each up before it is handed out; `closeAll` closes
 * every link made so far.
 */
import { RedisLink } from '../../src/state/redis/link';
import type { TestRedis } from './redis-server';
import { waitUntil } from './wait';

export interface RedisLinks {
  up(): Promise<RedisLink>;
  closeAll(): Promise<void>;
}

/** `redis` is read when a link is asked for (a suite starts its server in `beforeAll`). */
export function redisLinks(redis: () => TestRedis | undefined): RedisLinks {
  const made: RedisLink[] = [];
  return {
    async up() {
      const server = redis();
      if (server === undefined) throw new Error('no redis-server started');
      const link = new RedisLink(server.url, () => undefined);
      made.push(link);
      await waitUntil(() => link.isUp, 'the Redis link up');
      return link;
    },
    async closeAll() {
      await Promise.all(made.splice(0).map((link) => link.close()));
    },
  };
}
