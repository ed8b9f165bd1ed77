/**
 * The fleet's poller registry with two "replicas" in one process (two registries, each with its
 * own Redis connections) over a real redis-server and a scripted kind: one poller for both, the
 * values and failures on both, a handover when the holder's last subscriber leaves, and a kind
 * without `wire` polled by each replica on its own.
 */
import { Registry } from 'prom-client';
import { ErrorCode, UpstreamError } from '../../../src/errors/codes';
import { NO_POLLER_METRICS, type PollerRegistry, type PollKind, type PollOwner, type PollStream } from '../../../src/pollers';
import { createFleetPollers } from '../../../src/state/fleet-pollers';
import { createFleetMetrics } from '../../../src/state/metrics';
import { RedisLink } from '../../../src/state/redis';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';

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

const owner: PollOwner<string> = { fingerprint: 'alice', session: () => 'session' };
const INTERVAL = 100;
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

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

  async function replica(): Promise<PollerRegistry<string>> {
    const link = new RedisLink(redis.url, () => undefined);
    links.push(link);
    while (!link.isUp) await sleep(10);
    const registry = createFleetPollers<string>(link, { intervalMs: INTERVAL, maxIntervalMs: INTERVAL, maxErrors: 3, maxPollers: 100 }, NO_POLLER_METRICS, createFleetMetrics(new Registry()));
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
    await sleep(150);
    const seenB = collect(b.acquire(kind, target, owner));
    await sleep(50);
    // B heard the current value at once, from Redis.
    expect(seenB.values).toEqual([1]);
    const before = target.polls;
    await sleep(1000);
    const polls = target.polls - before;
    expect(polls).toBeGreaterThanOrEqual(7);
    expect(polls).toBeLessThanOrEqual(11);
    target.value = 2;
    await sleep(300);
    expect(seenA.values).toEqual([1, 2]);
    expect(seenB.values).toEqual([1, 2]);

    // A's last subscriber leaves: B polls from now on, without waiting for the lease to lapse.
    onA.release();
    await sleep(150);
    const afterHandover = target.polls;
    await sleep(500);
    expect(target.polls - afterHandover).toBeGreaterThanOrEqual(3);
    target.value = 100;
    await sleep(300);
    expect(seenB).toEqual({ values: [1, 2, 100], end: 'done' });
  });

  it('ends every replica\'s subscribers with the holder\'s failure, code and upstream included', async () => {
    const [a, b] = [registries[0], registries[1]];
    if (!a || !b) throw new Error('replicas');
    const target: Target = { name: 'failing', value: 1, polls: 0 };
    const kind = scripted(true);
    const seenA = collect(a.acquire(kind, target, owner));
    await sleep(150);
    const onB = b.acquire(kind, target, owner);
    const failure = onB.next().then(() => onB.next());
    await sleep(50);
    target.value = new UpstreamError(ErrorCode.FORBIDDEN, 'rest-v1 answered 403', { service: 'rest-v1', method: 'GET', path: '/networks/x', status: 403 });
    await expect(failure).rejects.toMatchObject({ code: ErrorCode.FORBIDDEN, upstream: { service: 'rest-v1', status: 403 } });
    await sleep(50);
    expect(seenA.end).toBe(ErrorCode.FORBIDDEN);
  });

  it('polls a kind without wire on each replica', async () => {
    const [a, b] = [registries[0], registries[1]];
    if (!a || !b) throw new Error('replicas');
    const target: Target = { name: 'alone', value: 1, polls: 0 };
    const kind = scripted(false);
    const streams = [a.acquire(kind, target, owner), b.acquire(kind, target, owner)];
    await sleep(50);
    const before = target.polls;
    await sleep(1000);
    expect(target.polls - before).toBeGreaterThanOrEqual(16);
    for (const s of streams) s.release();
  });
});
