/**
 * What only the fleet's store does (src/state/redis/idempotency.ts), in a real redis-server:
 * nothing readable about a caller in Redis (results sealed, identity and key as keyed hashes),
 * results kept in the replica that ran them when there is no fleet key, this replica's memory
 * while Redis is away.
 */
import { randomBytes } from 'node:crypto';
import type { FormattedExecutionResult } from 'graphql';
import { createIdempotency, type IdempotencyOutcome, type IdempotentRun } from '../../../src/idempotency/idempotency';
import type { IdempotencyLimits, IdempotencyStore } from '../../../src/idempotency/store';
import { RedisIdempotencyStore } from '../../../src/state/redis/idempotency';
import type { RedisLink } from '../../../src/state/redis/link';
import { redisLinks } from '../../helpers/redis-links';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

let redis: TestRedis | undefined;
const links = redisLinks(() => redis);

/** The credential (a keyed hash of the token) every request here is sent with, but where a test says otherwise. */
const CREDENTIAL = 'cred:first-token';
const LIMITS: IdempotencyLimits = { maxKeysPerIdentity: 100, maxKeys: 1000, maxBytesPerIdentity: 1024 * 1024, maxBytes: 8 * 1024 * 1024, maxResultBytes: 64 * 1024 };
const SECRET = 'eyJhbGciOiJSUzI1NiJ9.enrollment-secret-claims.signature';
const KEY = 'retry-key-7f3a9c';
const IDENTITY = 'id:3c1f0e9a77b2';
const created: FormattedExecutionResult = { data: { createEndpoint: { id: 'e-1', name: 'web-1', jwt: SECRET } } };

const idempotency = (store: IdempotencyStore) => createIdempotency({ store, leaseMs: 5000, waitMs: 1000, ttlMs: 60_000, limits: LIMITS });

function asRun(outcome: IdempotencyOutcome): IdempotentRun {
  if (outcome.kind !== 'run') throw new Error(`expected run, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** Every key and value Redis holds, as text. */
async function everything(link: RedisLink): Promise<string> {
  const keys = await link.client.keys('*');
  const parts: string[] = [...keys];
  for (const key of keys) {
    const type = await link.client.type(key);
    if (type === 'string') parts.push((await link.client.get(key)) ?? '');
    if (type === 'hash') parts.push(JSON.stringify(await link.client.hgetall(key)));
    if (type === 'zset') parts.push((await link.client.zrange(key, '0', '-1')).join(' '));
  }
  return parts.join('\n');
}

beforeAll(async () => {
  if (redisTestsEnabled()) redis = await startRedis();
});
afterAll(async () => {
  await links.closeAll();
  await redis?.close();
});

describeFleet('idempotency keys in Redis', () => {
  it('keeps results sealed and names hashed: no secret, key or identity readable in Redis, and the result opens on another replica', async () => {
    const one = await links.up();
    await one.client.flushdb();
    const fleetKey = randomBytes(32);
    await asRun(await idempotency(new RedisIdempotencyStore({ link: one, tokenKey: fleetKey })).begin(IDENTITY, KEY, 'fp-a', CREDENTIAL)).finish(created);
    const stored = await everything(one);
    expect(stored).toContain('netgraph:idem:');
    for (const clear of [SECRET, 'enrollment-secret', 'web-1', KEY, IDENTITY, '3c1f0e9a77b2']) expect(stored).not.toContain(clear);
    const other = new RedisIdempotencyStore({ link: await links.up(), tokenKey: fleetKey });
    await expect(idempotency(other).begin(IDENTITY, KEY, 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'replay', result: created });
    // A sealed result changed in Redis does not open: no replay of it, and no second run.
    const [record] = (await one.client.keys('netgraph:idem:*')).filter((key) => /^netgraph:idem:[0-9a-f]+:[0-9a-f]+$/.test(key));
    const sealed = (await one.client.hget(record ?? '', 'result')) ?? '';
    await one.client.hset(record ?? '', 'result', `${sealed.slice(0, -4)}AAA=`);
    await expect(idempotency(other).begin(IDENTITY, KEY, 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'outcome-unknown', reason: 'result-not-kept' });
  });

  it('without a fleet key, keeps the state in Redis and the result in the replica that ran it: a replay there, outcome-unknown elsewhere, never a second run', async () => {
    const one = await links.up();
    await one.client.flushdb();
    const here = idempotency(new RedisIdempotencyStore({ link: one, tokenKey: null }));
    await asRun(await here.begin(IDENTITY, KEY, 'fp-a', CREDENTIAL)).finish(created);
    const stored = await everything(one);
    for (const clear of [SECRET, 'web-1', KEY, IDENTITY]) expect(stored).not.toContain(clear);
    await expect(here.begin(IDENTITY, KEY, 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'replay', result: created });
    const elsewhere = idempotency(new RedisIdempotencyStore({ link: await links.up(), tokenKey: null }));
    await expect(elsewhere.begin(IDENTITY, KEY, 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'outcome-unknown', reason: 'result-not-kept' });
    await expect(elsewhere.begin(IDENTITY, KEY, 'fp-b', CREDENTIAL)).resolves.toEqual({ kind: 'reused' });
  });

  it('counts each key once in the bounds, and gives its bytes back when a key is released or expires', async () => {
    const one = await links.up();
    await one.client.flushdb();
    const store = new RedisIdempotencyStore({ link: one, tokenKey: randomBytes(32) });
    const small = createIdempotency({ store, leaseMs: 5000, waitMs: 0, ttlMs: 60_000, limits: { ...LIMITS, maxKeysPerIdentity: 1 } });
    await asRun(await small.begin(IDENTITY, 'a', 'fp-a', CREDENTIAL)).abandon();
    await asRun(await small.begin(IDENTITY, 'b', 'fp-a', CREDENTIAL)).abandon();
    const run = asRun(await small.begin(IDENTITY, 'c', 'fp-a', CREDENTIAL));
    await expect(small.begin(IDENTITY, 'd', 'fp-a', CREDENTIAL)).resolves.toMatchObject({ kind: 'full', bound: 'keysPerIdentity' });
    await run.finish(created);
    await expect(small.begin(IDENTITY, 'c', 'fp-a', CREDENTIAL)).resolves.toMatchObject({ kind: 'replay' });
  });

  it('keeps keys in this replica while Redis is away', async () => {
    const link = await links.up();
    const store = new RedisIdempotencyStore({ link, tokenKey: randomBytes(32) });
    await link.close();
    const alone = idempotency(store);
    await asRun(await alone.begin(IDENTITY, 'away', 'fp-a', CREDENTIAL)).finish(created);
    await expect(alone.begin(IDENTITY, 'away', 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'replay', result: created });
  });
});
