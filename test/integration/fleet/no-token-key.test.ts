/**
 * Without FLEET_TOKEN_KEY no token is kept in Redis, so a run whose replica died cannot be
 * resumed: the replica that finds it ends it FAILED, saying why and which step may have sent its
 * change. The run's leftovers are laid in Redis as a replica killed mid-step leaves them.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { planProvisioning } from '../../../src/resolvers/provisioning/plan';
import type { RunningSandbox } from '../../../src/sandbox';
import type { RunningGateway } from '../../../src/server';
import { redisTestsEnabled } from '../../helpers/redis-server';
import { startInProcessFleet, type InProcessFleet } from '../../helpers/in-process-fleet';
import { postGraphQL } from '../../helpers/stack';
import { waitUntil } from '../../helpers/wait';
import { isObject } from '../../../src/core/parse';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

describeFleet('a lapsed run without FLEET_TOKEN_KEY', () => {
  let fleet: InProcessFleet;
  let sandbox: RunningSandbox;
  let gateway: RunningGateway;
  let client: Redis;

  beforeAll(async () => {
    fleet = await startInProcessFleet(1, { tokenKey: null });
    ({ sandbox, client } = fleet);
    gateway = fleet.gateways[0] as RunningGateway;
  });
  afterAll(() => fleet?.close());

  it('ends FAILED on the replica that finds it, with no upstream call and the reason on the record', async () => {
    const owner = (await gateway.verifier.verify(`Bearer ${sandbox.tokens.admin}`)).key;
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
