/**
 * Without FLEET_TOKEN_KEY no token is kept in Redis, so a run whose replica died cannot be
 * resumed: the replica that finds it ends it FAILED, saying why and which step may have sent its
 * change. The run's leftovers are laid in Redis as a replica killed mid-step leaves them.
 */
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { credentialFingerprint } from '../../../src/pollers';
import { planProvisioning } from '../../../src/resolvers/provisioning/plan';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import type { RunningGateway } from '../../../src/server';
import { isObject } from '../../../src/upstream/parse';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { postGraphQL, startTestGateway, testConfig } from '../../helpers/stack';
import { waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

describeFleet('a lapsed run without FLEET_TOKEN_KEY', () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  let gateway: RunningGateway;
  let client: Redis;

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
    sandbox = await startSandbox({ port: 0, seed: 'tiny' });
    gateway = await startTestGateway({ upstreamBaseUrl: null, fleet: { ...testConfig().fleet, redisUrl: redis.url, tokenKey: null } }, { sandbox });
  });
  afterAll(async () => {
    await gateway?.close();
    client?.disconnect();
    await sandbox?.close();
    await redis?.close();
  });

  it('ends FAILED on the replica that finds it, with no upstream call and the reason on the record', async () => {
    const owner = credentialFingerprint(`Bearer ${sandbox.tokens.admin}`);
    const planned = planProvisioning({
      network: { name: 'orphan' },
      hostedGateway: { name: 'gw' },
      service: { name: 's', serviceClass: 'CS', networkIp: '10.0.0.1' },
      bridgeGateway: { name: 'br' },
      clients: [],
      appWanName: 'a',
    });
    const id = randomUUID();
    const steps = planned.map((p) => p.record);
    Object.assign(steps[0] ?? {}, { state: 'RUNNING', changeSent: true, startedAt: new Date().toISOString() });
    const record = { id, state: 'RUNNING', steps, networkId: null, appWanId: null, error: null, rollbackOnFailure: false, startedAt: new Date().toISOString(), finishedAt: null };
    // As a replica killed while its network create was in flight leaves it: no lease, no token.
    await client.set(`netgraph:prov:${id}`, JSON.stringify({ owner, version: 3, record, actions: planned.map((p) => p.action) }));
    await client.sadd('netgraph:prov:running', id);
    sandbox.control.resetCalls();

    const query = `query($id: ID!) { provisioning(id: $id) { state error { code message outcomeUnknown } steps { state error { outcomeUnknown } } } }`;
    const body = await waitUntil(
      async () => {
        const provisioning = (await postGraphQL(gateway.url, query, { id }, { token: sandbox.tokens.admin })).body.data?.['provisioning'];
        return isObject(provisioning) && provisioning['state'] !== 'RUNNING' ? provisioning : null;
      },
      'the provisioning finished',
      { intervalMs: 100 },
    );
    expect(body).toMatchObject({
      state: 'FAILED',
      error: { code: 'INTERNAL_SERVER_ERROR', message: expect.stringMatching(/FLEET_TOKEN_KEY/), outcomeUnknown: true },
      steps: [{ state: 'FAILED', error: { outcomeUnknown: true } }, { state: 'PENDING' }, { state: 'PENDING' }, { state: 'PENDING' }, { state: 'PENDING' }, { state: 'PENDING' }, { state: 'PENDING' }],
    });
    // Nothing was sent on the owner's behalf.
    expect(sandbox.control.calls().total).toBe(0);
    expect(await client.sismember('netgraph:prov:running', id)).toBe(0);
  });
});
