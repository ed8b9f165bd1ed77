/**
 * A run that ends while Redis is away: its last record is written when Redis is back (even a
 * Redis restarted empty), so every replica reads it finished, and none resumes a run that is over.
 */
import { Registry } from 'prom-client';
import type { ProvisioningJobs } from '../../../src/provisioning/jobs';
import { createFleetMetrics } from '../../../src/state/redis/metrics';
import { createFleetProvisionings } from '../../../src/state/redis/provisionings';
import { RedisLink } from '../../../src/state/redis/link';
import { controlledRuns, fields, owner } from '../../helpers/provisioning-runs';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;
const limits = { maxRunning: 10, maxRunningPerOwner: 10, maxRetained: 100, retainMs: 60_000 };

describeFleet('a provisioning that ends while Redis is away', () => {
  let redis: TestRedis;
  const links: RedisLink[] = [];
  const stores: ProvisioningJobs[] = [];

  function replica(run: ReturnType<typeof controlledRuns>['run']): { link: RedisLink; jobs: ProvisioningJobs } {
    const link = new RedisLink(redis.url, () => undefined);
    links.push(link);
    const jobs = createFleetProvisionings({ link, limits, run, ownerFor: () => owner('alice'), tokenKey: null, metrics: createFleetMetrics(new Registry()), warn: () => undefined });
    stores.push(jobs);
    return { link, jobs };
  }

  beforeAll(async () => {
    redis = await startRedis();
  });
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.close()));
    await Promise.all(links.map((l) => l.close()));
    await redis?.close();
  });

  it('is written finished once Redis is back, and read so from another replica', async () => {
    const runs = controlledRuns();
    const one = replica(runs.run);
    await waitUntil(() => one.link.isUp, () => 'the link up');
    const started = await one.jobs.start(owner('alice'), fields, []);

    await redis.stop();
    await waitUntil(() => !one.link.isUp, () => 'the link down');
    await runs.finishAll();
    await waitUntil(() => one.jobs.running() === 0, () => 'the run over');
    // Still readable here meanwhile, finished.
    await expect(one.jobs.get(started.id, 'alice')).resolves.toMatchObject({ state: 'SUCCEEDED' });

    await redis.start();
    const other = replica(controlledRuns().run);
    await waitUntil(() => one.link.isUp && other.link.isUp, () => 'both links up', 10_000);
    // Read on the other replica until the record there says it finished.
    let seen: string | null = null;
    await waitUntil(
      async () => (seen = (await other.jobs.get(started.id, 'alice').catch(() => null))?.state ?? null) === 'SUCCEEDED',
      () => `the run to be SUCCEEDED on the other replica (last seen: ${String(seen)})`,
      { timeoutMs: 10_000, intervalMs: 50 },
    );
  }, 30_000);
});
