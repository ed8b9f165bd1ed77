/**
 * Two gateway processes on one real Redis, the sandbox as their upstream: a 429 with Retry-After
 * heard by one replica closes that API to that credential on the other too (one replica learns,
 * all stop sending its calls), with no call of it from the second inside the window, while another
 * identity's calls go on.
 */
import { randomBytes } from 'node:crypto';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { removeGatewayBundle, startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { postGraphQL, type GqlResult } from '../../helpers/stack';
import { waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

describeFleet("a 429's Retry-After window shared by the fleet, for the credential that heard it", () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  const replicas: GatewayProcess[] = [];

  beforeAll(async () => {
    [redis, sandbox] = await Promise.all([startRedis(), startSandbox({ port: 0, seed: 'tiny' })]);
    const env = {
      UPSTREAM_BASE_URL: sandbox.baseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      REDIS_URL: redis.url,
      FLEET_TOKEN_KEY: randomBytes(32).toString('hex'),
      UPSTREAM_RETRY_AFTER_MAX_MS: '60000',
    };
    for (const name of ['a', 'b']) replicas.push(await startGatewayProcess(env, `replica ${name}`));
    for (const r of replicas) await waitUntil(async () => (await fetch(`${r.origin}/readyz`)).status === 200, () => `${r.name} ready`, 30_000);
  }, 90_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await sandbox?.close();
    await redis?.close();
    await removeGatewayBundle();
  });

  const restCalls = (): number =>
    Object.entries(sandbox.control.calls().byRoute)
      .filter(([route]) => route.includes('/rest/v1/'))
      .reduce((sum, [, n]) => sum + n, 0);
  const code = (res: GqlResult): unknown => res.body.errors?.[0]?.extensions?.['code'];
  const retryAfter = (res: GqlResult): number => Number(res.body.errors?.[0]?.extensions?.['retryAfter']);

  it('one replica hears the 429, the other stops calling too', async () => {
    const [a, b] = replicas;
    if (!a || !b) throw new Error('two replicas expected');
    const network = sandbox.restFacts().networks[0];
    if (!network) throw new Error('the seed has no network');
    const query = `{ network(id: "${network.id}") { id } }`;
    const token = sandbox.tokens.admin;
    sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/networks/*', errorRate: 1, status: 429, retryAfterS: 30, times: 1 }]);
    sandbox.control.resetCalls();
    const heard = await postGraphQL(a.url, query, undefined, { token });
    expect([code(heard), retryAfter(heard)]).toEqual(['RATE_LIMITED', 30]);
    // Replica b learns the credential's window (its gauge), not an opening of the API.
    await waitUntil(
      async () => /netgraph_upstream_rate_limited_credentials 1\b/.test(await (await fetch(`${b.origin}/metrics`)).text()),
      () => "replica b to learn the credential's window",
      10_000,
    );
    const answers = await Promise.all(Array.from({ length: 10 }, () => postGraphQL(b.url, query, undefined, { token })));
    for (const res of answers) {
      expect(code(res)).toBe('RATE_LIMITED');
      expect(retryAfter(res)).toBeGreaterThan(0);
      expect(retryAfter(res)).toBeLessThanOrEqual(30);
    }
    expect(restCalls()).toBe(1);
    // Another identity is served on both replicas: the API itself is not closed.
    for (const r of [a, b]) {
      const other = await postGraphQL(r.url, query, undefined, { token: sandbox.tokens.reader });
      expect(other.body.errors).toBeUndefined();
    }
    expect(restCalls()).toBe(3);
  }, 60_000);
});
