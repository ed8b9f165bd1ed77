/**
 * Once per identity and key (src/idempotency/idempotency.ts), written once and run over both
 * stores: this process's (src/state/memory/idempotency.ts) and the fleet's in a real redis-server
 * (src/state/redis/idempotency.ts). In memory the clock is injected and moved by the scenario; in
 * Redis, Redis keeps the time (PX) and the scenario waits for the state to arrive.
 */
import { randomBytes } from 'node:crypto';
import type { FormattedExecutionResult } from 'graphql';
import { createIdempotency, systemClock, type IdempotencyClock, type IdempotencyOptions, type IdempotencyOutcome, type IdempotentRun } from '../../../src/idempotency/idempotency';
import type { IdempotencyLimits, IdempotencyStore } from '../../../src/idempotency/store';
import { MemoryIdempotencyStore } from '../../../src/state/memory/idempotency';
import { RedisIdempotencyStore } from '../../../src/state/redis/idempotency';
import { redisLinks } from '../../helpers/redis-links';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { waitUntil } from '../../helpers/wait';

let redis: TestRedis | undefined;
const links = redisLinks(() => redis);

/** The credential (a keyed hash of the token) every request here is sent with, but where a test says otherwise. */
const CREDENTIAL = 'cred:first-token';
const LIMITS: IdempotencyLimits = { maxKeysPerIdentity: 100, maxKeys: 1000, maxBytesPerIdentity: 1024 * 1024, maxBytes: 8 * 1024 * 1024, maxResultBytes: 64 * 1024 };

type TestClock = IdempotencyClock & { advance(ms: number): void };

/**
 * A clock the scenario moves (memory): heartbeats fire as it passes their time; sleeping lets a
 * moment of real time pass so that waiters look again.
 */
function manualClock(): TestClock {
  let now = 1_000_000;
  const timers = new Set<{ next: number; ms: number; fn: () => void }>();
  return {
    now: () => now,
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.min(ms, 5))),
    every: (ms, fn) => {
      const timer = { next: now + ms, ms, fn };
      timers.add(timer);
      return () => timers.delete(timer);
    },
    advance: (ms) => {
      const until = now + ms;
      for (;;) {
        const due = [...timers].filter((t) => t.next <= until).sort((a, b) => a.next - b.next)[0];
        if (due === undefined) break;
        now = due.next;
        due.next += due.ms;
        due.fn();
      }
      now = until;
    },
  };
}

/** The real clock (Redis keeps the time there): advancing it is waiting for Redis. */
function realClock(): TestClock {
  return { ...systemClock, advance: () => undefined };
}

interface Kind {
  /** Two replicas' stores over the same state (in memory: one store, one process). */
  stores(): Promise<[IdempotencyStore, IdempotencyStore]>;
  clock(): TestClock;
  /** Times: short in Redis, where they really pass. */
  times: { leaseMs: number; ttlMs: number; waitMs: number };
}

const kinds: Array<[string, Kind]> = [
  [
    'in this process',
    {
      stores: () => {
        const store = new MemoryIdempotencyStore();
        return Promise.resolve([store, store]);
      },
      clock: manualClock,
      times: { leaseMs: 30_000, ttlMs: 3_600_000, waitMs: 10_000 },
    },
  ],
  ...(redisTestsEnabled() ? [inRedis()] : []),
];

const fleetKey = randomBytes(32);

function inRedis(): [string, Kind] {
  return [
    'in Redis',
    {
      stores: async () => {
        const one = await links.up();
        await one.client.flushdb();
        const other = await links.up();
        return [new RedisIdempotencyStore({ link: one, tokenKey: fleetKey }), new RedisIdempotencyStore({ link: other, tokenKey: fleetKey })];
      },
      // Redis keeps the time; a real clock bounds the waits, and advancing it is waiting for Redis.
      clock: realClock,
      times: { leaseMs: 400, ttlMs: 3000, waitMs: 10_000 },
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

const created = (name: string): FormattedExecutionResult => ({ data: { createEndpoint: { id: `id-${name}`, name, jwt: 'eyJ.enrollment-secret.sig' } } });

function asRun(outcome: IdempotencyOutcome): IdempotentRun {
  if (outcome.kind !== 'run') throw new Error(`expected run, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** A store whose holder stopped renewing: a replica that died mid-run. */
function dying(store: IdempotencyStore): IdempotencyStore {
  return {
    claim: (request) => store.claim(request),
    renew: () => Promise.resolve(true),
    complete: (...args) => store.complete(...args),
    release: (lease) => store.release(lease),
  };
}

describe.each(kinds)('idempotency %s', (_name, kind) => {
  const make = (store: IdempotencyStore, clock: IdempotencyClock, overrides: Partial<IdempotencyOptions> = {}) =>
    createIdempotency({ store, clock, ...kind.times, limits: LIMITS, ...overrides });

  it('runs the first request and replays its result to a repeat, on any replica', async () => {
    const [one, other] = await kind.stores();
    const clock = kind.clock();
    const replica = make(one, clock);
    const first = asRun(await replica.begin('alice', 'k1', 'fp-a', CREDENTIAL));
    expect(replica.running()).toBe(1);
    await expect(first.finish(created('web'))).resolves.toBe(true);
    expect(replica.running()).toBe(0);
    await expect(make(other, clock).begin('alice', 'k1', 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'replay', result: created('web') });
    await expect(make(one, clock).begin('alice', 'k1', 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'replay', result: created('web') });
  });

  it('lets five concurrent repeats start exactly one run; the others replay its result once it finishes', async () => {
    const [one, other] = await kind.stores();
    const clock = kind.clock();
    const replicas = [make(one, clock), make(other, clock)];
    const settled: IdempotencyOutcome[] = [];
    const begins = [0, 1, 2, 3, 4].map((i) => replicas[i % 2]!.begin('alice', 'k5', 'fp-a', CREDENTIAL).then((outcome) => (settled.push(outcome), outcome)));
    const run = await waitUntil(() => settled.find((o): o is IdempotentRun => o.kind === 'run'), 'one run');
    // The others wait for it: nothing else has answered.
    expect(settled).toHaveLength(1);
    await run.finish(created('five'));
    const outcomes = await Promise.all(begins);
    expect(outcomes.filter((o) => o.kind === 'run')).toHaveLength(1);
    expect(outcomes.filter((o) => o.kind === 'replay').map((o) => (o.kind === 'replay' ? o.result : null))).toEqual([1, 2, 3, 4].map(() => created('five')));
  });

  it('tells a repeat that waited its bound that the first still runs, with a retry hint', async () => {
    const [one] = await kind.stores();
    const clock = kind.clock();
    const first = asRun(await make(one, clock).begin('alice', 'k2', 'fp-a', CREDENTIAL));
    const repeat = make(one, clock, { waitMs: 50 }).begin('alice', 'k2', 'fp-a', CREDENTIAL);
    clock.advance(51);
    await expect(repeat).resolves.toEqual({ kind: 'in-progress', retryAfterSeconds: 1 });
    await first.finish(created('slow'));
  });

  it('refuses the key with another operation or other variables, running or done', async () => {
    const [one, other] = await kind.stores();
    const clock = kind.clock();
    const first = asRun(await make(one, clock).begin('alice', 'k3', 'fp-a', CREDENTIAL));
    await expect(make(other, clock).begin('alice', 'k3', 'fp-b', CREDENTIAL)).resolves.toEqual({ kind: 'reused' });
    await first.finish(created('x'));
    await expect(make(other, clock).begin('alice', 'k3', 'fp-b', CREDENTIAL)).resolves.toEqual({ kind: 'reused' });
  });

  it("keeps another identity's key its own", async () => {
    const [one, other] = await kind.stores();
    const clock = kind.clock();
    const alice = asRun(await make(one, clock).begin('alice', 'shared', 'fp-a', CREDENTIAL));
    const bob = asRun(await make(other, clock).begin('bob', 'shared', 'fp-b', CREDENTIAL));
    await alice.finish(created('alice'));
    await bob.finish(created('bob'));
    await expect(make(one, clock).begin('bob', 'shared', 'fp-b', CREDENTIAL)).resolves.toEqual({ kind: 'replay', result: created('bob') });
  });

  it('frees a key whose first run was abandoned (nothing sent): the repeat runs', async () => {
    const [one, other] = await kind.stores();
    const clock = kind.clock();
    await asRun(await make(one, clock).begin('alice', 'k4', 'fp-a', CREDENTIAL)).abandon();
    asRun(await make(other, clock).begin('alice', 'k4', 'fp-a', CREDENTIAL));
  });

  it('answers outcome-unknown, never a second run, once a first run stopped renewing its lease; a late result is still kept', async () => {
    const [one, other] = await kind.stores();
    const clock = kind.clock();
    const first = asRun(await make(dying(one), clock).begin('alice', 'k6', 'fp-a', CREDENTIAL));
    clock.advance(kind.times.leaseMs + 1);
    const repeat = make(other, clock, { waitMs: 20 });
    await waitUntil(async () => (await repeat.begin('alice', 'k6', 'fp-a', CREDENTIAL)).kind === 'outcome-unknown', 'outcome-unknown after the lease');
    await expect(repeat.begin('alice', 'k6', 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'outcome-unknown', reason: 'lease-lapsed' });
    await first.finish(created('late'));
    await expect(repeat.begin('alice', 'k6', 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'replay', result: created('late') });
  });

  it('keeps a live run renewed past its lease: repeats wait, they are not told outcome-unknown', async () => {
    const [one, other] = await kind.stores();
    const clock = kind.clock();
    let renewals = 0;
    const counted: IdempotencyStore = {
      claim: (request) => one.claim(request),
      renew: async (...args) => {
        const renewed = await one.renew(...args);
        if (renewed) renewals += 1;
        return renewed;
      },
      complete: (...args) => one.complete(...args),
      release: (lease) => one.release(lease),
    };
    const first = asRun(await make(counted, clock).begin('alice', 'k7', 'fp-a', CREDENTIAL));
    // Four renewals, a third of a lease apart: more than a lease has passed since the claim.
    await waitUntil(() => {
      clock.advance(kind.times.leaseMs / 6);
      return renewals >= 4;
    }, 'four renewals');
    await expect(make(other, clock, { waitMs: 0 }).begin('alice', 'k7', 'fp-a', CREDENTIAL)).resolves.toMatchObject({ kind: 'in-progress' });
    await first.finish(created('renewed'));
  });

  it('frees a key once its TTL passed: the same request runs again', async () => {
    const [one] = await kind.stores();
    const clock = kind.clock();
    await asRun(await make(one, clock).begin('alice', 'k8', 'fp-a', CREDENTIAL)).finish(created('old'));
    clock.advance(kind.times.ttlMs + 1);
    const runs = await waitUntil(async () => {
      const outcome = await make(one, clock).begin('alice', 'k8', 'fp-a', CREDENTIAL);
      return outcome.kind === 'run' ? outcome : null;
    }, 'the key free again');
    await runs.abandon();
  });

  it('refuses a new key past the per-identity count, while another identity still gets one', async () => {
    const [one] = await kind.stores();
    const clock = kind.clock();
    const small = make(one, clock, { limits: { ...LIMITS, maxKeysPerIdentity: 2 } });
    await asRun(await small.begin('alice', 'a', 'fp-a', CREDENTIAL)).finish(created('a'));
    asRun(await small.begin('alice', 'b', 'fp-a', CREDENTIAL));
    const refused = await small.begin('alice', 'c', 'fp-a', CREDENTIAL);
    expect(refused).toMatchObject({ kind: 'full', bound: 'keysPerIdentity', max: 2 });
    expect(refused.kind === 'full' && refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Keys already held still answer.
    await expect(small.begin('alice', 'a', 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'replay', result: created('a') });
    asRun(await small.begin('bob', 'c', 'fp-a', CREDENTIAL));
  });

  it('refuses a new key past the count in all', async () => {
    const [one] = await kind.stores();
    const clock = kind.clock();
    const small = make(one, clock, { limits: { ...LIMITS, maxKeys: 2 } });
    asRun(await small.begin('alice', 'a', 'fp-a', CREDENTIAL));
    asRun(await small.begin('bob', 'a', 'fp-a', CREDENTIAL));
    await expect(small.begin('carol', 'a', 'fp-a', CREDENTIAL)).resolves.toMatchObject({ kind: 'full', bound: 'keys', max: 2 });
  });

  it('does not keep a result over the size bound or past the bytes bound: repeats get outcome-unknown, never a second run', async () => {
    const [one, other] = await kind.stores();
    const clock = kind.clock();
    const small = make(one, clock, { limits: { ...LIMITS, maxResultBytes: 200 } });
    const big: FormattedExecutionResult = { data: { blob: 'x'.repeat(500) } };
    await expect(asRun(await small.begin('alice', 'big', 'fp-a', CREDENTIAL)).finish(big)).resolves.toBe(false);
    await expect(make(other, clock).begin('alice', 'big', 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'outcome-unknown', reason: 'result-not-kept' });

    const tight = make(one, clock, { limits: { ...LIMITS, maxBytesPerIdentity: 4000 } });
    const medium: FormattedExecutionResult = { data: { blob: 'y'.repeat(2000) } };
    await expect(asRun(await tight.begin('bob', 'm1', 'fp-a', CREDENTIAL)).finish(medium)).resolves.toBe(true);
    await expect(asRun(await tight.begin('bob', 'm2', 'fp-a', CREDENTIAL)).finish(medium)).resolves.toBe(false);
    await expect(tight.begin('bob', 'm1', 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'replay', result: medium });
    await expect(tight.begin('bob', 'm2', 'fp-a', CREDENTIAL)).resolves.toEqual({ kind: 'outcome-unknown', reason: 'result-not-kept' });
  });

  it('ends a wait when the client goes away', async () => {
    const [one] = await kind.stores();
    const clock = kind.clock();
    const first = asRun(await make(one, clock).begin('alice', 'k9', 'fp-a', CREDENTIAL));
    const gone = new AbortController();
    const repeat = make(one, clock).begin('alice', 'k9', 'fp-a', CREDENTIAL, gone.signal);
    gone.abort();
    await expect(repeat).resolves.toMatchObject({ kind: 'in-progress' });
    await first.finish(created('x'));
  });
});
