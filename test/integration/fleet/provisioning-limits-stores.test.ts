/**
 * The provisioning limits (src/provisioning/limits.ts) are one algorithm, and every store applies
 * it the same way: the same scenarios run against the in-process store, the fleet's store over a
 * real redis-server (the START script), and the fleet's store while Redis is away (this replica's
 * ledger, which used to skip the retention limits). Runs in all and per owner, records kept per
 * owner and in all (the oldest finished go first, an owner's own before others'), refusals as
 * RATE_LIMITED with the limit's scope.
 */
import { Registry } from 'prom-client';
import { ErrorCode } from '../../../src/errors/codes';
import type { ProvisioningJobs } from '../../../src/provisioning/jobs';
import { createProvisioningJobs } from '../../../src/state/memory/provisionings';
import type { ProvisioningLimits } from '../../../src/provisioning/limits';
import { createFleetMetrics } from '../../../src/state/redis/metrics';
import { createFleetProvisionings } from '../../../src/state/redis/provisionings';
import { RedisLink } from '../../../src/state/redis/link';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { controlledRuns, fields, owner } from '../../helpers/provisioning-runs';
import { waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

type StoreFactory = (limits: ProvisioningLimits, run: ReturnType<typeof controlledRuns>['run']) => Promise<ProvisioningJobs>;

let redis: TestRedis;
const links: RedisLink[] = [];

async function fleetStore(up: boolean): Promise<StoreFactory> {
  return async (limits, run) => {
    // Away: nothing listens on port 1, the link never comes up.
    const link = new RedisLink(up ? redis.url : 'redis://127.0.0.1:1', () => undefined);
    links.push(link);
    if (up) {
      await waitUntil(() => link.isUp, () => 'the link up');
      await link.client.flushdb();
    }
    return createFleetProvisionings({ link, limits, run, ownerFor: () => owner('x'), tokenKey: null, metrics: createFleetMetrics(new Registry()), warn: () => undefined });
  };
}

const stores: Array<[string, () => Promise<StoreFactory>]> = [
  ['in this process', async () => async (limits, run) => createProvisioningJobs(limits, run)],
  ['in Redis', () => fleetStore(true)],
  ['in a replica while Redis is away', () => fleetStore(false)],
];

describeFleet.each(stores)('provisioning limits, store %s', (name, factory) => {
  let make: StoreFactory;
  let open: ProvisioningJobs[] = [];

  beforeAll(async () => {
    redis ??= await startRedis();
    make = await factory();
  });
  afterEach(async () => {
    await Promise.all(open.map((j) => j.close()));
    open = [];
  });
  afterAll(async () => {
    await Promise.all(links.splice(0).map((l) => l.close()));
    if (name === stores[stores.length - 1]?.[0]) await redis?.close();
  });

  async function store(limits: ProvisioningLimits) {
    const runs = controlledRuns();
    const jobs = await make(limits, runs.run);
    open.push(jobs);
    const finishAll = async (): Promise<void> => {
      for (const finish of runs.finishers.splice(0)) finish();
      // Each run is over once its record is written where the store keeps it.
      await waitUntil(() => jobs.running() === 0, () => `every run over (${jobs.running()} running)`);
    };
    return { jobs, finishAll };
  }

  it('caps runs per owner and in all, with RATE_LIMITED and its scope', async () => {
    const { jobs, finishAll } = await store({ maxRunning: 3, maxRunningPerOwner: 2, maxRetained: 100, retainMs: 60_000 });
    await jobs.start(owner('alice'), fields, []);
    await jobs.start(owner('alice'), fields, []);
    await expect(jobs.start(owner('alice'), fields, [])).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, limit: 'provisionings', scope: 'caller', retryAfter: 5 });
    await jobs.start(owner('bob'), fields, []);
    await expect(jobs.start(owner('carol'), fields, [])).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, scope: 'gateway' });
    expect(jobs.running()).toBe(3);
    await finishAll();
    await expect(jobs.start(owner('alice'), fields, [])).resolves.toMatchObject({ state: 'RUNNING' });
    await finishAll();
  });

  it("keeps records per owner and in all: its own oldest finished first, then anybody's, else refused", async () => {
    // 8 records in all, 2 per owner.
    const { jobs, finishAll } = await store({ maxRunning: 10, maxRunningPerOwner: 10, maxRetained: 8, retainMs: 60_000 });
    const bob = await jobs.start(owner('bob'), fields, []);
    const a1 = await jobs.start(owner('alice'), fields, []);
    await finishAll();
    const a2 = await jobs.start(owner('alice'), fields, []);
    // alice is at her share: her oldest finished record makes room, bob's stays.
    const a3 = await jobs.start(owner('alice'), fields, []);
    const known = async (id: string, who: string): Promise<boolean> => (await jobs.get(id, who).catch(() => null)) !== null;
    // (while Redis is away, only this replica's running records are readable: the refusals below say the rest)
    if (name !== 'in a replica while Redis is away') {
      expect(await known(a1.id, 'alice')).toBe(false);
      expect(await known(bob.id, 'bob')).toBe(true);
    }
    expect(await known(a2.id, 'alice')).toBe(true);
    expect(await known(a3.id, 'alice')).toBe(true);
    // Both of alice's records are running: a third cannot be kept.
    await expect(jobs.start(owner('alice'), fields, [])).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, scope: 'caller' });
    // The whole store: 8 records, none finished, and none can make room.
    for (const who of ['carol', 'dave', 'erin']) for (let i = 0; i < 2; i++) await jobs.start(owner(who), fields, []);
    await expect(jobs.start(owner('frank'), fields, [])).rejects.toMatchObject({ code: ErrorCode.RATE_LIMITED, scope: 'gateway' });
    await finishAll();
  });
});
