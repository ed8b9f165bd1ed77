/**
 * With REDIS_URL set, a gateway is not ready until Redis answers: /readyz says 503 (state
 * `starting`) while it cannot reach it, then 200 once it does, with no restart.
 */
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import type { RunningGateway } from '../../../src/server';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { startTestGateway } from '../../helpers/stack';
import { waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

describeFleet('readiness with Redis', () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  let gateway: RunningGateway;

  beforeAll(async () => {
    redis = await startRedis();
    await redis.stop();
    sandbox = await startSandbox({ port: 0, seed: 'tiny' });
    gateway = await startTestGateway({ upstream: { baseUrl: null }, fleet: { redisUrl: redis.url } }, { sandbox });
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
    await waitUntil(async () => (await fetch(readyz)).status === 200, 'readyz 200 once Redis is up', { intervalMs: 100 });
    expect(await (await fetch(readyz)).json()).toMatchObject({ status: 'ready', state: { status: 'ready' } });
  });
});
