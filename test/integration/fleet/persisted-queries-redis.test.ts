/**
 * The fleet's persisted-query store over a real redis-server at scale: however many registrations
 * arrive, what Redis holds for them (measured with MEMORY USAGE) stays under APQ_SHARED_MAX_BYTES
 * (the least recently used go first), so registrations cannot fill the Redis that leases and
 * provisionings need. The rules both stores share are persisted-queries-stores.test.ts's.
 */
import { createHash } from 'node:crypto';
import { RedisPersistedQueries } from '../../../src/state/redis/persisted-queries';
import type { RedisLink } from '../../../src/state/redis/link';
import { redisLinks } from '../../helpers/redis-links';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');
/** A valid-looking document of about `size` characters, different for each `n`. */
const documentOf = (n: number, size: number): string => `{ a${n}: gatewayInfo { version } ${'# padding\n'.repeat(Math.ceil(size / 10))}}`;

describeFleet('persisted queries shared in Redis', () => {
  let redis: TestRedis | undefined;
  const links = redisLinks(() => redis);
  const link = (): Promise<RedisLink> => links.up();

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await links.closeAll();
    await redis?.close();
  });

  it('stays under its byte cap after 3,000 registrations of 2 KB, keeping the most recent', async () => {
    const cap = 1024 * 1024;
    const store = new RedisPersistedQueries(await link(), { maxDocumentBytes: 100_000, ttlMs: 60_000, maxSharedBytes: cap });
    const checker = await link();
    const docs = Array.from({ length: 3000 }, (_, n) => documentOf(n + 1000, 2000));
    for (const doc of docs) await store.set(hashOf(doc), doc, 'identity-1');

    const keys = await checker.client.keys('netgraph:apq:*');
    let held = 0;
    for (const key of keys) held += Number(await checker.client.call('MEMORY', 'USAGE', key, 'SAMPLES', '0'));
    const counted = Number(await checker.client.get('netgraph:apq:bytes'));
    const kept = await checker.client.hlen('netgraph:apq:documents');
    // Figures for the report: what Redis holds for 3,000 registrations of 2 KB (6 MB sent).
    console.log(JSON.stringify({ apqRedis: { registrations: docs.length, capBytes: cap, countedBytes: counted, memoryUsageBytes: held, kept } }));
    expect(counted).toBeLessThanOrEqual(cap);
    expect(held).toBeLessThanOrEqual(cap);
    expect(kept).toBeGreaterThan(100);
    expect(kept).toBeLessThan(docs.length);
    // The most recent registration is there (from Redis: another replica reads it), the first long gone.
    const fresh = new RedisPersistedQueries(checker, { maxDocumentBytes: 100_000, ttlMs: 60_000 });
    const last = docs[docs.length - 1] ?? '';
    await expect(fresh.get(hashOf(last))).resolves.toBe(last);
    await expect(fresh.get(hashOf(docs[0] ?? ''))).resolves.toBeNull();
  }, 60_000);
});
