/**
 * The persisted-query (APQ) store's rules, run over both stores: this process's
 * (memory/persisted-queries.ts) and the fleet's in a real redis-server (redis/persisted-queries.ts).
 * The same scenarios hold for both: a document by its hash, the document size cap, expiry after the
 * last use, the least recently used out past the total cap. Where they differ is the registrant rule,
 * stated in the table: only the shared store shows another replica what a known caller registered
 * (an anonymous registration never leaves its replica) and only it asks a lazy registrant.
 * A scenario writes on one replica and reads on another, so Redis's side is what answers there.
 */
import { createHash } from 'node:crypto';
import type { PersistedQueryStore } from '../../../src/persisted/store';
import { MemoryPersistedQueries, type PersistedQueryLimits } from '../../../src/state/memory/persisted-queries';
import { RedisPersistedQueries } from '../../../src/state/redis/persisted-queries';
import type { RedisLink } from '../../../src/state/redis/link';
import { redisLinks } from '../../helpers/redis-links';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';

let redis: TestRedis | undefined;
const links = redisLinks(() => redis);
const upLink = (): Promise<RedisLink> => links.up();

const hashOf = (text: string): string => createHash('sha256').update(text).digest('hex');
/** A document of exactly `size` characters, different for each `n`. */
const documentOf = (n: number, size: number): string => {
  const head = `{ a${n}: gatewayInfo { version } `;
  return `${head}${'#'.repeat(size - head.length - 1)}}`;
};

interface StoreKind {
  /** Whether another replica sees what a known caller registered. */
  shared: boolean;
  /** Starts from nothing stored. */
  reset(): Promise<void>;
  /** One replica's store (in memory: a process of its own). */
  replica(limits: PersistedQueryLimits): Promise<PersistedQueryStore>;
  /** Limits under which exactly `count` documents of `size` characters fit in all. */
  holding(count: number, size: number): Partial<PersistedQueryLimits>;
}

/** Redis's leg runs where a redis-server is installed (test/helpers/redis-server.ts); memory's always. */
const kinds: Array<[string, StoreKind]> = [
  [
    'in this process',
    {
      shared: false,
      reset: () => Promise.resolve(),
      replica: (limits) => Promise.resolve(new MemoryPersistedQueries(limits)),
      holding: (count, size) => ({ maxTotalBytes: count * size }),
    },
  ],
  ...(redisTestsEnabled() ? [inRedis()] : []),
];

function inRedis(): [string, StoreKind] {
  return [
    'in Redis',
    {
      shared: true,
      reset: async () => {
        const link = await upLink();
        await link.client.flushdb();
      },
      replica: async (limits) => new RedisPersistedQueries(await upLink(), limits),
      // The documented count: 1.25 times a document's length and 320 bytes besides.
      holding: (count, size) => ({ maxSharedBytes: count * (Math.ceil(size * 1.25) + 320) }),
    },
  ];
}

beforeAll(async () => {
  if (redisTestsEnabled()) redis = await startRedis();
});
afterAll(async () => {
  await links.closeAll();
  await redis?.close();
});
afterEach(() => jest.restoreAllMocks());

describe.each(kinds)('persisted queries %s', (_name, kind) => {
  const limits: PersistedQueryLimits = { maxDocumentBytes: 1000, ttlMs: 60_000 };
  /** Known callers' registrations: on a shared store, another replica reads them. */
  async function pair(given: PersistedQueryLimits = limits): Promise<{ writer: PersistedQueryStore; reader: PersistedQueryStore }> {
    await kind.reset();
    const writer = await kind.replica(given);
    return { writer, reader: kind.shared ? await kind.replica(given) : writer };
  }

  it('answers a registered document by hash, and nothing for an unknown one', async () => {
    const { writer, reader } = await pair();
    const doc = documentOf(1, 100);
    await writer.set(hashOf(doc), doc, 'identity-1');
    await expect(reader.get(hashOf(doc))).resolves.toBe(doc);
    await expect(reader.get(hashOf('{ unknown }'))).resolves.toBeNull();
  });

  it('does not keep a document over the size cap', async () => {
    const { writer, reader } = await pair({ ...limits, maxDocumentBytes: 99 });
    const doc = documentOf(1, 100);
    await writer.set(hashOf(doc), doc, 'identity-1');
    await expect(writer.get(hashOf(doc))).resolves.toBeNull();
    await expect(reader.get(hashOf(doc))).resolves.toBeNull();
  });

  it('forgets a registration its time after the last use', async () => {
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    const { writer, reader } = await pair({ ...limits, ttlMs: 1000 });
    const doc = documentOf(1, 100);
    await writer.set(hashOf(doc), doc, 'identity-1');
    now.mockReturnValue(1_000_900);
    await expect(reader.get(hashOf(doc))).resolves.toBe(doc); // used: 1000 ms more
    now.mockReturnValue(1_001_800);
    await expect(reader.get(hashOf(doc))).resolves.toBe(doc);
    now.mockReturnValue(1_002_801);
    await expect(reader.get(hashOf(doc))).resolves.toBeNull();
  });

  it('drops the least recently used past the total cap', async () => {
    // Each use a millisecond apart (Redis orders uses by their time).
    const now = jest.spyOn(Date, 'now').mockReturnValue(1_000_000);
    const { writer, reader } = await pair({ ...limits, ...kind.holding(2, 100) });
    const [a, b, c] = [1, 2, 3].map((n) => documentOf(n, 100)) as [string, string, string];
    await writer.set(hashOf(a), a, 'identity-1');
    now.mockReturnValue(1_000_001);
    await writer.set(hashOf(b), b, 'identity-1');
    now.mockReturnValue(1_000_002);
    await expect(reader.get(hashOf(a))).resolves.toBe(a); // a is now the most recently used
    now.mockReturnValue(1_000_003);
    await writer.set(hashOf(c), c, 'identity-1');
    await expect(reader.get(hashOf(b))).resolves.toBeNull();
    await expect(reader.get(hashOf(a))).resolves.toBe(a);
    await expect(reader.get(hashOf(c))).resolves.toBe(c);
  });

  it(`${kind.shared ? 'serves' : 'does not serve'} a known caller's registration on another replica, and never an anonymous one`, async () => {
    await kind.reset();
    const one = await kind.replica(limits);
    const other = await kind.replica(limits);
    const known = documentOf(1, 100);
    const anonymous = documentOf(2, 100);
    await one.set(hashOf(known), known, 'identity-1');
    await one.set(hashOf(anonymous), anonymous, null);
    await expect(other.get(hashOf(known))).resolves.toBe(kind.shared ? known : null);
    await expect(other.get(hashOf(anonymous))).resolves.toBeNull();
    await expect(one.get(hashOf(anonymous))).resolves.toBe(anonymous);
  });

  it(`${kind.shared ? 'asks' : 'never asks'} who registers (a lazy registrant), and keeps a registration it answers null for on this replica`, async () => {
    await kind.reset();
    const one = await kind.replica(limits);
    const other = await kind.replica(limits);
    const doc = documentOf(1, 100);
    const registrant = jest.fn(() => Promise.resolve<string | null>(null));
    await one.set(hashOf(doc), doc, registrant);
    expect(registrant).toHaveBeenCalledTimes(kind.shared ? 1 : 0);
    await expect(one.get(hashOf(doc))).resolves.toBe(doc);
    await expect(other.get(hashOf(doc))).resolves.toBeNull();
  });
});
