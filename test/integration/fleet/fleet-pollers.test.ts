/**
 * The fleet's poller registry with two "replicas" in one process (two registries, each with its
 * own Redis connections) over a real redis-server and a scripted kind: one poller for both, the
 * values and failures on both, a handover when the holder's last subscriber leaves, and a kind
 * without `wire` polled by each replica on its own.
 */
import { randomBytes } from 'node:crypto';
import { Registry } from 'prom-client';
import { ErrorCode, UpstreamError } from '../../../src/errors/codes';
import { NO_POLLER_METRICS, type PollerRegistry, type PollKind, type PollOwner, type PollStream } from '../../../src/pollers';
import { createFleetPollers } from '../../../src/state/redis/pollers';
import { createFleetMetrics } from '../../../src/state/redis/metrics';
import { RedisLink } from '../../../src/state/redis/link';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { countOver, onePer, waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

/** A target whose value the test sets; every poll is counted. */
interface Target {
  name: string;
  value: number | Error;
  polls: number;
}

const scripted = (wire: boolean): PollKind<Target, number, string> => ({
  name: wire ? 'scripted' : 'local-only',
  key: (t) => t.name,
  async poll(target) {
    target.polls += 1;
    if (target.value instanceof Error) throw target.value;
    return target.value;
  },
  fingerprint: (n) => String(n),
  isTerminal: (n) => n >= 100,
  ...(wire ? { wire: { encode: (n: number) => n, decode: (json: unknown) => (typeof json === 'number' ? json : Number.NaN) } } : {}),
});

const owner: PollOwner<string> = { fingerprint: 'alice', credential: 'alice-token', session: () => 'session' };
const INTERVAL = 100;

/** The same kind as another process would have it: its own object, counting its own polls. */
function counted(kind: PollKind<Target, number, string>): { kind: PollKind<Target, number, string>; polls: () => number } {
  let polls = 0;
  return {
    kind: { ...kind, poll: (target, session, signal) => ((polls += 1), kind.poll(target, session, signal)) },
    polls: () => polls,
  };
}

function collect(stream: PollStream<number>): { values: number[]; end: string } {
  const seen = { values: [] as number[], end: 'open' };
  void (async () => {
    try {
      for await (const v of stream) seen.values.push(v);
      seen.end = 'done';
    } catch (error) {
      seen.end = String((error as { code?: string }).code ?? error);
    }
  })();
  return seen;
}

describeFleet('fleet pollers', () => {
  let redis: TestRedis;
  const links: RedisLink[] = [];
  const registries: Array<PollerRegistry<string>> = [];

  async function replica(fleetKey: Buffer | null = null): Promise<PollerRegistry<string>> {
    const link = new RedisLink(redis.url, () => undefined);
    links.push(link);
    await waitUntil(() => link.isUp, 'the Redis link up');
    const registry = createFleetPollers<string>(link, { intervalMs: INTERVAL, maxIntervalMs: INTERVAL, maxErrors: 3, maxPollers: 100 }, NO_POLLER_METRICS, createFleetMetrics(new Registry()), fleetKey);
    registries.push(registry);
    return registry;
  }

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(registries.map((r) => r.close()));
    await Promise.all(links.map((l) => l.close()));
    await redis.close();
  });

  it('polls once for both replicas, hands over when the holder leaves, and ends both with the value that ends it', async () => {
    const [a, b] = [await replica(), await replica()];
    const target: Target = { name: 'shared', value: 1, polls: 0 };
    const kind = scripted(true);
    const onA = a.acquire(kind, target, owner);
    const seenA = collect(onA);
    await waitUntil(() => seenA.values.length > 0, 'the first value on A');
    const seenB = collect(b.acquire(kind, target, owner));
    // B hears the current value from Redis.
    await waitUntil(() => seenB.values.length > 0, 'the first value on B');
    expect(seenB.values).toEqual([1]);
    // One poller for both: at most one poll per interval of the time that passed (two would make twice that).
    const window = await countOver(() => target.polls, 1000, 3);
    expect(window.added).toBeLessThanOrEqual(onePer(INTERVAL, window));
    target.value = 2;
    await waitUntil(() => seenA.values.length > 1 && seenB.values.length > 1, () => `the change on both: ${JSON.stringify([seenA, seenB])}`);
    expect(seenA.values).toEqual([1, 2]);
    expect(seenB.values).toEqual([1, 2]);

    // A's last subscriber leaves: B polls from now on.
    onA.release();
    const afterHandover = target.polls;
    await waitUntil(() => target.polls - afterHandover >= 3, 'polls after the handover');
    target.value = 100;
    await waitUntil(() => seenB.end !== 'open', 'B ended');
    expect(seenB).toEqual({ values: [1, 2, 100], end: 'done' });
  });

  it('ends every replica\'s subscribers with the failure each hears itself, code and upstream included', async () => {
    const [a, b] = [registries[0], registries[1]];
    if (!a || !b) throw new Error('replicas');
    const target: Target = { name: 'failing', value: 1, polls: 0 };
    const kind = scripted(true);
    const seenA = collect(a.acquire(kind, target, owner));
    await waitUntil(() => seenA.values.length > 0, 'the first value on A');
    const onB = b.acquire(kind, target, owner);
    expect(await onB.next()).toEqual({ value: 1, done: false });
    target.value = new UpstreamError(ErrorCode.FORBIDDEN, 'rest-v1 answered 403', { service: 'rest-v1', method: 'GET', path: '/networks/x', status: 403 });
    await expect(onB.next()).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN, upstream: { service: 'rest-v1', status: 403 } });
    await waitUntil(() => seenA.end !== 'open', 'A ended');
    expect(seenA.end).toBe(ErrorCode.FORBIDDEN);
  });

  it("serves a listener's credential nothing before its own read: a token the platform refuses gets the refusal, not the holder's values", async () => {
    const [a, b] = [registries[0], registries[1]];
    if (!a || !b) throw new Error('replicas');
    const target: Target = { name: 'scoped', value: 1, polls: 0 };
    const kind: PollKind<Target, number, string> = {
      ...scripted(true),
      poll: (t, session, signal) =>
        session === 'narrow session'
          ? Promise.reject(new UpstreamError(ErrorCode.FORBIDDEN, 'rest-v1 answered 403', { service: 'rest-v1', method: 'GET', path: '/networks/scoped', status: 403 }))
          : scripted(true).poll(t, session, signal),
    };
    const seenA = collect(a.acquire(kind, target, owner));
    await waitUntil(() => seenA.values.length > 0, 'the first value on A');
    const narrow: PollOwner<string> = { fingerprint: 'alice', credential: 'alice-narrow-token', session: () => 'narrow session' };
    const onB = b.acquire(kind, target, narrow);
    await expect(onB.next()).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN });
    expect(seenA.end).toBe('open');
    // The same person's accepted token on B is served, after its own read.
    const seenB = collect(b.acquire(kind, target, { ...owner, credential: 'alice-other-token' }));
    await waitUntil(() => seenB.values.length > 0, 'the first value on B');
    expect(seenB.values).toEqual([1]);
    target.value = 100;
    await waitUntil(() => seenA.end !== 'open' && seenB.end !== 'open', 'both ended');
  });

  it('with the fleet key, ignores a value or a failure someone wrote to Redis, and an older value replayed', async () => {
    const key = randomBytes(32);
    const [a, b] = [await replica(key), await replica(key)];
    const writer = links.at(-1)?.client;
    if (!writer) throw new Error('no Redis client');
    const target: Target = { name: 'guarded', value: 1, polls: 0 };
    const kind = scripted(true);
    const seenA = collect(a.acquire(kind, target, owner));
    await waitUntil(() => seenA.values.length > 0, 'the first value on A');
    const seenB = collect(b.acquire(kind, target, owner));
    await waitUntil(() => seenB.values.length > 0, 'the first value on B');
    const base = 'netgraph:poll:scripted:guarded#alice';
    const old = await writer.get(`${base}:latest`);
    expect(old).not.toBeNull();
    target.value = 2;
    await waitUntil(() => seenB.values.length > 1, 'the change on B');

    for (const forged of [
      JSON.stringify({ seq: 9e15, type: 'value', value: 42 }),
      JSON.stringify({ seq: 9e15, type: 'fail', error: { code: 'UNAUTHENTICATED', message: 'forged' } }),
      old ?? '',
    ]) {
      await writer.publish(`${base}:events`, forged);
    }
    await writer.set(`${base}:latest`, JSON.stringify({ seq: 9e15, type: 'value', value: 42 }));
    // A real change after them: B hears it, and nothing of what was written.
    target.value = 3;
    await waitUntil(() => seenB.values.length > 2, () => `the next change on B: ${JSON.stringify(seenB)}`);
    expect(seenB).toEqual({ values: [1, 2, 3], end: 'open' });
    expect(seenA).toEqual({ values: [1, 2, 3], end: 'open' });
    target.value = 100;
    await waitUntil(() => seenA.end !== 'open' && seenB.end !== 'open', 'both ended');
  });

  it('without the fleet key, puts no value in Redis, and a forged one only makes a listener read for itself', async () => {
    const [a, b] = [registries[0], registries[1]];
    if (!a || !b) throw new Error('replicas');
    const writer = links[0]?.client;
    if (!writer) throw new Error('no Redis client');
    const target: Target = { name: 'plain', value: 7, polls: 0 };
    const [onA, onB] = [counted(scripted(true)), counted(scripted(true))];
    const seenA = collect(a.acquire(onA.kind, target, owner));
    await waitUntil(() => seenA.values.length > 0, 'the first value on A');
    const seenB = collect(b.acquire(onB.kind, target, owner));
    await waitUntil(() => seenB.values.length > 0, 'the first value on B');
    const base = 'netgraph:poll:scripted:plain#alice';
    expect(JSON.parse((await writer.get(`${base}:latest`)) ?? 'null')).toEqual({ seq: expect.any(Number), type: 'value' });
    const readsBefore = onB.polls();
    await writer.publish(`${base}:events`, JSON.stringify({ seq: 9e15, type: 'value', value: 42 }));
    await waitUntil(() => onB.polls() > readsBefore, 'B reading the target itself');
    expect(seenB).toEqual({ values: [7], end: 'open' });
    target.value = 100;
    await waitUntil(() => seenA.end !== 'open' && seenB.end !== 'open', 'both ended');
  });

  it('polls a kind without wire on each replica', async () => {
    const [a, b] = [registries[0], registries[1]];
    if (!a || !b) throw new Error('replicas');
    const target: Target = { name: 'alone', value: 1, polls: 0 };
    const [onA, onB] = [counted(scripted(false)), counted(scripted(false))];
    const streams = [a.acquire(onA.kind, target, owner), b.acquire(onB.kind, target, owner)];
    // Both replicas poll it, again and again.
    await waitUntil(() => onA.polls() >= 3 && onB.polls() >= 3, () => `3 polls on each replica (A ${onA.polls()}, B ${onB.polls()})`);
    for (const s of streams) s.release();
  });
});
