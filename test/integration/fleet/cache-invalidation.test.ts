/**
 * Two gateway processes on one Redis, the sandbox sending `Cache-Control: private, max-age=300`:
 * a rename sent through one replica makes the other forget its cached copy (a message over
 * Redis), so its next read shows the new name well within the copy's max-age. The time it took
 * goes to .tmp/cache-figures.json (docs/performance.md), not into an assertion.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../../bench/package-root';
import { ADMIN_IDENTITY_ID, startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { metric, removeGatewayBundle, startGatewayProcess, type GatewayProcess } from '../../helpers/gateway-process';
import { waitUntil } from '../../helpers/wait';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { dataAt, expectNoErrors, postGraphQL } from '../../helpers/stack';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

describeFleet('a rename on one replica, seen on another', () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  const replicas: GatewayProcess[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    sandbox = await startSandbox({ port: 0, seed: 'tiny', caching: [{ route: '/rest/v1/networks/{networkId}', maxAgeS: 300 }] });
    const env = { UPSTREAM_BASE_URL: sandbox.baseUrl, HOST: '127.0.0.1', PORT: '0', REDIS_URL: redis.url, FLEET_TOKEN_KEY: randomBytes(32).toString('hex') };
    for (const name of ['a', 'b']) {
      const replica = await startGatewayProcess(env, `replica ${name}`);
      replicas.push(replica);
      await waitUntil(async () => (await fetch(`${replica.origin}/readyz`)).status === 200, `replica ${name} reached Redis`);
    }
  }, 90_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.close()));
    await sandbox?.close();
    await redis?.close();
    await removeGatewayBundle();
  }, 60_000);

  it('the other replica answers the new name after the change is heard, though its copy was fresh', async () => {
    const [a, b] = replicas;
    if (a === undefined || b === undefined) throw new Error('no replicas');
    const token = sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, jti: randomBytes(8).toString('hex') });
    const id = sandbox.restFacts().networks[0]?.id ?? '';
    const read = (r: GatewayProcess): Promise<unknown> =>
      postGraphQL(r.url, 'query($id: UUID!) { network(id: $id) { name } }', { id }, { token }).then((res) => dataAt(res, ['network', 'name']));
    const networkReads = (): number => sandbox.control.calls().byRoute['GET /rest/v1/networks/{networkId}'] ?? 0;

    const before = await read(b);
    await read(b);
    expect(networkReads()).toBe(1); // b's copy answers
    expect(await metric(b, 'netgraph_upstream_read_outcomes_total{service="rest-v1",outcome="hit"}')).toBeGreaterThan(0);

    const name = `${String(before)}-renamed-on-a`;
    const sent = performance.now();
    expectNoErrors(await postGraphQL(a.url, 'mutation($id: UUID!, $name: String!) { updateNetwork(id: $id, input: { name: $name }) { accepted } }', { id, name }, { token }));
    const renamed = performance.now();
    // Wait for the change to arrive at b: until then b answers from its copy (fresh for 300 s).
    const deadline = Date.now() + 10_000;
    let seen = await read(b);
    while (seen !== name && Date.now() < deadline) seen = await read(b);
    const arrived = performance.now();
    expect(seen).toBe(name);

    const dir = join(packageRoot(), '.tmp');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'cache-figures.json'), `${JSON.stringify({ renameSeenOnOtherReplicaMs: Math.round(arrived - renamed), renameRoundTripMs: Math.round(renamed - sent) }, null, 2)}\n`);
  });
});
