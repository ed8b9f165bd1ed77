/**
 * The upstream-call quota's per-minute window (src/state/call-quota.ts), written once, run over
 * both of its counters: this process's (memory/call-quota.ts) and the fleet's in a real
 * redis-server (redis/call-quota.ts). The clock is injected: each scenario names the instant of
 * every call. A new kind of counter implements `MinuteCounter` and joins the table below.
 */
import { ErrorCode } from '../../../src/errors/codes';
import { createCallQuota, minuteOf, type MinuteCounter } from '../../../src/state/call-quota';
import { MemoryMinuteCounter } from '../../../src/state/memory/call-quota';
import { RedisMinuteCounter } from '../../../src/state/redis/call-quota';
import type { RedisLink } from '../../../src/state/redis/link';
import { redisLinks } from '../../helpers/redis-links';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

let redis: TestRedis | undefined;
const links = redisLinks(() => redis);
const upLink = (): Promise<RedisLink> => links.up();

/** Redis's leg runs where a redis-server is installed (test/helpers/redis-server.ts); memory's always. */
const counters: Array<[string, () => Promise<MinuteCounter>]> = [
  ['in this process', () => Promise.resolve(new MemoryMinuteCounter())],
  ...(redisTestsEnabled() ? [inRedis()] : []),
];

function inRedis(): [string, () => Promise<MinuteCounter>] {
  return [
    'in Redis',
    async () => {
      const link = await upLink();
      await link.client.flushdb();
      return new RedisMinuteCounter(link);
    },
  ];
}

/** 15 s into a minute. */
const START = 60_000 * 1000 + 15_000;

/** A quota over `counter` whose clock reads `clock.now`. */
function quotaAt(counter: MinuteCounter, max: number, clock: { now: number }) {
  return createCallQuota(counter, max, () => clock.now);
}

beforeAll(async () => {
  if (redisTestsEnabled()) redis = await startRedis();
});
afterAll(async () => {
  await links.closeAll();
  await redis?.close();
});

describe('the upstream-call quota over each counter', () => {
  it('starts windows on the minute', () => {
    expect(minuteOf(120_500)).toEqual({ index: 2, msLeft: 59_500 });
  });

  describe.each(counters)('%s', (_name, make) => {
    it('lets a caller make its quota of calls in a minute, then refuses with RATE_LIMITED and retryAfter; another caller has its own; the next minute starts afresh', async () => {
      const clock = { now: START };
      const quota = quotaAt(await make(), 3, clock);
      for (let i = 0; i < 3; i++) await expect(quota.spend('alice')).resolves.toBeUndefined();
      clock.now = START + 1;
      await expect(quota.spend('alice')).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, limit: 'upstreamCallsPerMinute', scope: 'caller', max: 3, retryAfter: 45 });
      await expect(quota.spend('bob')).resolves.toBeUndefined();
      clock.now = START + 45_000;
      await expect(quota.spend('alice')).resolves.toBeUndefined();
    });

    it('counts nothing for a refused call', async () => {
      const clock = { now: START };
      const counter = await make();
      const small = quotaAt(counter, 2, clock);
      await small.spend('alice');
      await small.spend('alice');
      await expect(small.spend('alice')).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED });
      await expect(small.spend('alice')).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED });
      // Over the same counts, a quota of 3 has one call left: the two refusals were not counted.
      const larger = quotaAt(counter, 3, clock);
      await expect(larger.spend('alice')).resolves.toBeUndefined();
      await expect(larger.spend('alice')).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, max: 3 });
    });

    it('gives retryAfter of at least one second at the end of a minute', async () => {
      const clock = { now: START + 44_900 };
      const quota = quotaAt(await make(), 1, clock);
      await quota.spend('alice');
      await expect(quota.spend('alice')).rejects.toMatchObject({ retryAfter: 1 });
    });
  });
});

describeFleet('the upstream-call quota in Redis', () => {
  it('holds across replicas: two replicas share one count', async () => {
    const clock = { now: START };
    const first = await upLink();
    await first.client.flushdb();
    const one = quotaAt(new RedisMinuteCounter(first), 2, clock);
    const other = quotaAt(new RedisMinuteCounter(await upLink()), 2, clock);
    await one.spend('alice');
    await other.spend('alice');
    await expect(one.spend('alice')).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED });
    await expect(other.spend('alice')).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED });
  });

  it('counts on this replica alone while Redis is not reachable', async () => {
    const clock = { now: START };
    const link = await upLink();
    await link.client.flushdb();
    const quota = quotaAt(new RedisMinuteCounter(link), 1, clock);
    await link.close();
    await expect(quota.spend('alice')).resolves.toBeUndefined();
    await expect(quota.spend('alice')).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED });
  });
});
