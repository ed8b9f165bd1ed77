/**
 * With REDIS_URL set, a gateway is not ready until Redis answers: /readyz says 503 (state
 * `starting`) while it cannot reach it, then 200 once it does, with no restart.
 */
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { startGateway, type RunningGateway } from '../../../src/server';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { testConfig } from '../../helpers/stack';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

describeFleet('readiness with Redis', () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  let gateway: RunningGateway;

  beforeAll(async () => {
    redis = await startRedis();
    await redis.stop();
    sandbox = await startSandbox({ port: 0, seed: 'tiny' });
    const config = testConfig({ upstreamBaseUrl: null });
    gateway = await startGateway({ ...config, fleet: { ...config.fleet, redisUrl: redis.url } }, { log: null, sandbox });
  });
  afterAll(async () => {
    await gateway?.close();
    await sandbox?.close();
    await redis?.close();
  });

  it('answers 503 until Redis is reachable, then 200', async () => {
    const readyz = `${new URL(gateway.url).origin}/readyz`;
    const before = await fetch(readyz);
    expect(before.status).toBe(503);
    expect(await before.json()).toMatchObject({ status: 'unavailable', state: { status: 'starting' } });
    // Queries do not wait for it.
    const query = await fetch(gateway.url, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${sandbox.tokens.admin}` }, body: JSON.stringify({ query: '{ gatewayInfo { version } }' }) });
    expect(query.status).toBe(200);
    await redis.start();
    const deadline = Date.now() + 10_000;
    let status = 0;
    while (Date.now() < deadline && status !== 200) {
      status = (await fetch(readyz)).status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
    expect(await (await fetch(readyz)).json()).toMatchObject({ status: 'ready', state: { status: 'ready' } });
  });
});
