/**
 * A provisioning entry in Redis is authenticated with its plan (an HMAC under a key derived from
 * FLEET_TOKEN_KEY): a run handed over by a replica that stopped, whose plan was then changed in
 * Redis, is not resumed with its owner's token. The replica that finds it sends nothing for it,
 * ends it FAILED saying why, and drops its sealed token; an untouched run handed over at the same
 * time is resumed as usual.
 */
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { ManualClock, startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { startGateway, type RunningGateway } from '../../../src/server';
import { Fields } from '../../../src/core/parse';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { postGraphQL, testConfig } from '../../helpers/stack';
import { waitUntil } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

const PROVISION = `mutation($input: ProvisionAppWanInput!) { provisionAppWan(input: $input) { id state } }`;
const READ = `query($id: ID!) { provisioning(id: $id) { state error { code message outcomeUnknown } } }`;

const input = (name: string) => ({
  network: { name },
  hostedGateway: { name: 'gw-hosted' },
  service: { name: 'intranet', serviceClass: 'CS', networkIp: '10.20.0.5', networkFirstPort: 443, networkLastPort: 443, interceptIp: '100.64.1.5' },
  bridgeGateway: { name: 'gw-bridge' },
  clients: [],
  appWanName: 'everyone',
});

describeFleet('a provisioning entry changed in Redis', () => {
  let redis: TestRedis;
  let sandbox: RunningSandbox;
  let client: Redis;
  const gateways: RunningGateway[] = [];

  beforeAll(async () => {
    redis = await startRedis();
    client = new Redis(redis.url);
    // The sandbox does not move on: runs stay in their first step.
    sandbox = await startSandbox({ port: 0, seed: 'tiny', clock: new ManualClock(1000) });
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.close()));
    client?.disconnect();
    await sandbox?.close();
    await redis?.close();
  });

  it('is not resumed: nothing is sent, it ends FAILED saying why, and its token is dropped', async () => {
    const config = testConfig({ upstream: { baseUrl: null } });
    const fleet = { ...config.fleet, redisUrl: redis.url, tokenKey: randomBytes(32) };
    const first = await startGateway({ ...config, fleet }, { log: null, sandbox });
    const token = sandbox.tokens.admin;
    const ids: string[] = [];
    for (const name of ['victim', 'untouched']) {
      const started = await postGraphQL(first.url, PROVISION, { input: input(name) }, { token });
      const id = (started.body.data?.['provisionAppWan'] as { id?: string } | undefined)?.id;
      if (id === undefined) throw new Error(JSON.stringify(started.body));
      ids.push(id);
    }
    const [victim, untouched] = ids as [string, string];
    // Stopping with a key hands the runs over: leases released, records RUNNING, tokens sealed.
    await first.close();
    expect(await client.exists(`netgraph:prov:${victim}:token`)).toBe(1);

    // Someone with write access to Redis changes the victim's plan (the network it creates), keeping its MAC.
    const stored = await client.get(`netgraph:prov:${victim}`);
    const envelope = Fields.of(JSON.parse(stored ?? 'null'), 'Envelope');
    const entry = JSON.parse(envelope.str('entry') ?? 'null') as { actions: Array<{ task: string; body?: Record<string, unknown> }> };
    const network = entry.actions.find((a) => a.task === 'network');
    if (network?.body === undefined) throw new Error(`a network create in ${stored ?? ''}`);
    network.body['name'] = 'attacker-network';
    await client.set(`netgraph:prov:${victim}`, JSON.stringify({ entry: JSON.stringify(entry), mac: envelope.str('mac') }));
    sandbox.control.resetCalls();

    const second = await startGateway({ ...config, fleet }, { log: null, sandbox });
    gateways.push(second);
    interface Read {
      state?: string;
    }
    let record: Read | null = null as Read | null;
    // Read on the second replica until the run is over (it looks for lapsed runs every 2.5 s).
    for (let i = 0; i < 300 && record?.state !== 'FAILED'; i++) {
      const result = await postGraphQL(second.url, READ, { id: victim }, { token });
      record = (result.body.data?.['provisioning'] as Read | undefined) ?? null;
      if (record?.state !== 'FAILED') await new Promise((r) => setTimeout(r, 50));
    }
    expect(record).toMatchObject({ state: 'FAILED', error: { code: 'INTERNAL_SERVER_ERROR', message: expect.stringMatching(/changed/), outcomeUnknown: true } });
    expect(await client.exists(`netgraph:prov:${victim}:token`)).toBe(0);
    expect(await client.sismember('netgraph:prov:running', victim)).toBe(0);

    // The untouched run was resumed on the second replica (it holds its lease; it still runs).
    await waitUntil(async () => (await client.exists(`netgraph:prov:${untouched}:run`)) === 1, 'the untouched run to be resumed (its run lease held)', { timeoutMs: 10_000, intervalMs: 50 });
    const other = await postGraphQL(second.url, READ, { id: untouched }, { token });
    expect(other.body.data?.['provisioning']).toMatchObject({ state: 'RUNNING' });

    // Nothing was sent for the changed run: no request names its network, as planned or as changed
    // (the untouched one's requests are there: the sandbox saw the second replica at work).
    // (Wait for one: only the untouched run was resumed, and it may be following its network by id, a GET that names nothing.)
    await waitUntil(() => sandbox.control.requests().length > 0, () => 'a request of the resumed run', 15_000);
    const requests = JSON.stringify(sandbox.control.requests());
    expect(requests).not.toContain('attacker-network');
    expect(requests).not.toContain('victim');
  }, 40_000);
});
