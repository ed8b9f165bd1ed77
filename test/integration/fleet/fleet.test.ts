/**
 * A fleet of three gateway processes (test/helpers/gateway-process.ts) on one Redis, with the
 * sandbox as their shared upstream, over real sockets: one poll per interval for a target followed
 * on every replica (and a new holder when the one polling is killed), one poll per interval for a whole
 * network followed with `networkChanges` on every replica, a provisioning started on one
 * replica read and followed on another, the replica running a provisioning killed (SIGKILL) and
 * the run finished by another with each create sent once, a persisted query registered on one
 * replica served by another, a quota counted across replicas, and Redis lost and restarted mid-run
 * with no failed query and the fleet whole again after. Figures go to .tmp/fleet-figures.json.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import { Redis } from 'ioredis';
import WebSocket from 'ws';
import { packageRoot } from '../../../bench/package-root';
import { sha256 } from '../../../src/persisted/trusted-documents';
import { ADMIN_IDENTITY_ID, ManualClock, startSandbox, type RunningSandbox } from '../../../src/sandbox';
import { metric, removeGatewayBundle, startGatewayProcess, type GatewayProcess as Replica } from '../../helpers/gateway-process';
import { redisTestsEnabled, startRedis, type TestRedis } from '../../helpers/redis-server';
import { postGraphQL, type GqlResult } from '../../helpers/stack';
import { countOver, onePer, pause, waitUntil, type Counted } from '../../helpers/wait';

const describeFleet = redisTestsEnabled() ? describe : describe.skip;

const INTERVAL_MS = 400;
// Above what the networkChanges scenario costs its token even if each replica polled on its own
// (~25 polls of 5 calls, ~60 more unshared), so a refused poll cannot hide a second poller.
const QUOTA = 300;
const figures: Record<string, unknown> = {};

let redis: TestRedis;
let sandbox: RunningSandbox;
let clock: ManualClock;
let env: Record<string, string>;
const replicas: Replica[] = [];
const clients: Client[] = [];
let ticker: NodeJS.Timeout | null = null;

/** A token of its own for each scenario (the same identity): quotas and pollers are per credential. */
/**
 * A caller the fleet has not seen: another identity (shares and quotas are per identity), with the
 * admin's permissions. The sandbox places a token with an `organizationId` claim in that
 * organization, so the same subject there is another identity.
 */
const freshToken = (): string => sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, organizationId: `fleet-${randomBytes(8).toString('hex')}` });

/** Starts replica i and waits until it is ready (it has reached Redis), as a Service would. */
async function replica(i: number): Promise<Replica> {
  const started = await startGatewayProcess(env, `replica-${i}`);
  replicas[i] = started;
  await waitUntil(async () => (await fetch(`${started.origin}/readyz`)).status === 200, `replica ${i} ready`, { intervalMs: 50 });
  return started;
}

const at = (i: number): Replica => {
  const r = replicas[i];
  if (r === undefined) throw new Error(`no replica ${i}`);
  return r;
};

/** Moves the sandbox's provisioning on (one step every 100 ms) while asked to. */
function progress(on: boolean): void {
  if (ticker) clearInterval(ticker);
  ticker = on ? setInterval(() => clock.advance(), 100) : null;
}

function ws(r: Replica, token: string): Client {
  const client = createClient({ url: r.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, lazy: true, connectionParams: { authorization: `Bearer ${token}` } });
  clients.push(client);
  return client;
}

async function gql(r: Replica, token: string, query: string, variables?: Record<string, unknown>, extensions?: Record<string, unknown>): Promise<GqlResult> {
  if (!extensions) return postGraphQL(r.url, query, variables, { token });
  const res = await fetch(r.url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ ...(query === '' ? {} : { query }), variables, extensions }),
  });
  return { status: res.status, body: (await res.json()) as GqlResult['body'], request: { query, variables } };
}

async function createNetwork(name: string): Promise<string> {
  const res = await fetch(`${sandbox.baseUrl}/rest/v1/networks`, {
    method: 'POST',
    headers: { authorization: `Bearer ${sandbox.tokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  const body = (await res.json()) as { id?: unknown };
  if (typeof body.id !== 'string') throw new Error(`no id in ${JSON.stringify(body)}`);
  return body.id;
}

/** Sandbox receipts (ms, in this process) of the GETs of one path since `sinceSeq`. */
function pollsOf(path: string, sinceSeq = 0): number[] {
  return sandbox.control
    .timings()
    .filter((t) => t.seq > sinceSeq && t.method === 'GET' && t.path === path)
    .map((t) => t.receivedMs);
}
const lastSeq = (): number => sandbox.control.calls().total;

/**
 * The polls of `path` while one replica follows it, then while all three do, each counted over
 * 4 s at least (3 polls at least) once every subscriber has its first event; and checks each is
 * one poller's (at most one poll per interval of the time that really passed), not one a replica.
 */
async function pollsOfOneAndThree(path: string, follow: (i: number) => void, seen: () => unknown[][]): Promise<{ one: Counted; three: Counted }> {
  const WINDOW_MS = 4000;
  const subscribed = (count: number): Promise<true> => waitUntil(() => seen().slice(0, count).every((events) => events.length >= 1), () => `a first event on ${count} replica(s): ${JSON.stringify(seen())}`);
  follow(0);
  await subscribed(1);
  const from1 = lastSeq();
  const one = await countOver(() => pollsOf(path, from1).length, WINDOW_MS, 3);
  follow(1);
  follow(2);
  await subscribed(3);
  const from3 = lastSeq();
  const three = await countOver(() => pollsOf(path, from3).length, WINDOW_MS, 3);
  expect(one.added).toBeLessThanOrEqual(onePer(INTERVAL_MS, one));
  // Three replicas following: still one poller for the fleet (one a replica would make three times as many).
  expect(three.added).toBeLessThanOrEqual(onePer(INTERVAL_MS, three));
  return { one, three };
}

/** Which replica holds a lease of `kind` now (by its /metrics). */
async function holderOf(kind: string): Promise<number | null> {
  for (const [i, r] of replicas.entries()) if ((await metric(r, `netgraph_fleet_leases_held{kind="${kind}"}`)) > 0) return i;
  return null;
}

describeFleet('a fleet of three gateways on Redis', () => {
  beforeAll(async () => {
    redis = await startRedis();
    clock = new ManualClock(1000);
    sandbox = await startSandbox({ port: 0, seed: 'tiny', clock });
    env = {
      UPSTREAM_BASE_URL: sandbox.baseUrl,
      HOST: '127.0.0.1',
      PORT: '0',
      REDIS_URL: redis.url,
      FLEET_TOKEN_KEY: randomBytes(32).toString('hex'),
      POLL_INTERVAL_MS: String(INTERVAL_MS),
      POLL_MAX_INTERVAL_MS: String(INTERVAL_MS),
      NETWORK_POLL_INTERVAL_MS: String(INTERVAL_MS),
      NETWORK_POLL_MAX_INTERVAL_MS: String(INTERVAL_MS),
      CALLER_UPSTREAM_CALLS_PER_MINUTE: String(QUOTA),
      UPSTREAM_RETRY_BASE_MS: '5',
      UPSTREAM_RETRY_MAX_DELAY_MS: '20',
    };
    await Promise.all([0, 1, 2].map((i) => replica(i)));
  }, 90_000);

  afterEach(async () => {
    progress(false);
    await Promise.all(clients.splice(0).map((c) => c.dispose()));
  });

  afterAll(async () => {
    progress(false);
    await Promise.all(replicas.map((r) => r.close()));
    await sandbox?.close();
    await redis?.close();
    await removeGatewayBundle();
    const dir = join(packageRoot(), '.tmp');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'fleet-figures.json'), `${JSON.stringify(figures, null, 2)}\n`);
  }, 60_000);

  it('is ready once every replica reaches Redis', async () => {
    for (const r of replicas) {
      const res = await fetch(`${r.origin}/readyz`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ status: 'ready', state: { status: 'ready' } });
    }
  });

  it('polls a target followed on three replicas once per interval, and another replica takes the poll over when the holder dies', async () => {
    const token = freshToken();
    const id = await createNetwork('followed-everywhere');
    const path = `/rest/v1/networks/${id}`;
    const query = `subscription($id: UUID!) { resourceStatus(kind: NETWORK, id: $id) { statusName resource { ... on Network { name } } } }`;
    const seen: string[][] = [[], [], []];
    const follow = (i: number): void => {
      ws(at(i), token).subscribe({ query, variables: { id } }, { next: (v) => seen[i]?.push(JSON.stringify(v.data)), error: () => seen[i]?.push('error'), complete: () => undefined });
    };
    const { one, three } = await pollsOfOneAndThree(path, follow, () => seen);
    figures['pollsPer4s'] = { oneReplica: one.added, threeReplicas: three.added, intervalMs: INTERVAL_MS };
    // Every subscriber got the current state at once.
    for (const events of seen) expect(events[0]).toBe(JSON.stringify({ resourceStatus: { statusName: 'NEW', resource: { name: 'followed-everywhere' } } }));
    // A change reaches the subscribers of every replica.
    clock.advance();
    await waitUntil(() => seen.every((events) => events.length >= 2), () => `the change on every replica: ${JSON.stringify(seen)}`);
    for (const events of seen) {
      expect(events).toHaveLength(2);
      expect(events[1]).not.toBe(events[0]);
    }

    // The holder dies: one of the others takes the poll over (how soon is a figure, not a test).
    const holder = await waitUntil(() => holderOf('poll'), 'a poll lease holder', { intervalMs: 50 });
    const before = lastSeq();
    await at(holder).kill();
    const killedAt = performance.now();
    const lastBefore = Math.max(...pollsOf(path, before - 50));
    const firstAfter = await waitUntil(() => pollsOf(path, before).find((t) => t > killedAt), 'a poll after the holder died');
    figures['pollTakeoverMs'] = Math.round(firstAfter - Math.min(lastBefore, killedAt));
    const survivors = [0, 1, 2].filter((i) => i !== holder);
    expect(await Promise.all(survivors.map((i) => metric(at(i), 'netgraph_fleet_takeovers_total{kind="resourceStatus"}')))).toContain(1);
    await replica(holder);
  });

  it('polls a network followed with networkChanges on three replicas once per interval, and a change reaches the subscribers of every replica', async () => {
    const token = freshToken();
    const id = await createNetwork('whole-network-everywhere');
    // One of the four lists a poll reads: one GET per poll.
    const path = `/rest/v1/networks/${id}/endpoints`;
    const query = `subscription($id: UUID!) { networkChanges(networkId: $id) { snapshot added { kind name } } }`;
    interface Change {
      snapshot: boolean;
      added: Array<{ kind: string; name: string | null }>;
    }
    const seen: Array<Array<Change | 'error' | 'done'>> = [[], [], []];
    const follow = (i: number): void => {
      ws(at(i), token).subscribe<{ networkChanges: Change }>(
        { query, variables: { id } },
        { next: (v) => v.data && seen[i]?.push(v.data.networkChanges), error: () => seen[i]?.push('error'), complete: () => seen[i]?.push('done') },
      );
    };
    const { one, three } = await pollsOfOneAndThree(path, follow, () => seen);
    figures['networkChangesPollsPer4s'] = { oneReplica: one.added, threeReplicas: three.added, intervalMs: INTERVAL_MS };
    // Every subscriber got the whole network at once: empty, as created.
    for (const events of seen) expect(events).toEqual([{ snapshot: true, added: [] }]);

    // A change through the gateway on one replica reaches the subscribers of all three.
    const created = await gql(at(1), token, `mutation($id: UUID!) { createEndpoint(networkId: $id, input: { name: "laptop", endpointType: "ZTCL" }) { accepted } }`, { id });
    expect(created.body).toEqual({ data: { createEndpoint: { accepted: true } } });
    await waitUntil(() => seen.every((events) => events.length >= 2), () => `the new endpoint on every replica: ${JSON.stringify(seen)}`);
    for (const events of seen) expect(events).toEqual([{ snapshot: true, added: [] }, { snapshot: false, added: [{ kind: 'ENDPOINT', name: 'laptop' }] }]);
  });

  const START = `mutation($input: ProvisionAppWanInput!) { provisionAppWan(input: $input) { id state } }`;
  const FIELDS = 'id state networkId error { code message } steps { task state created resourceId }';
  const input = (name: string) => ({
    network: { name },
    hostedGateway: { name: `${name}-gw` },
    service: { name: `${name}-svc`, serviceClass: 'CS', networkIp: '10.20.0.5', networkFirstPort: 443, networkLastPort: 443, interceptIp: '100.64.1.5' },
    bridgeGateway: { name: `${name}-bridge` },
    clients: [{ name: `${name}-laptop-1` }, { name: `${name}-laptop-2` }],
    appWanName: `${name}-everyone`,
  });
  interface Provisioning {
    id: string;
    state: string;
    networkId: string | null;
    steps: Array<{ task: string; state: string; created: boolean; resourceId: string | null }>;
  }

  async function follow(r: Replica, token: string, id: string, onEvent?: (p: Provisioning) => void): Promise<Provisioning[]> {
    const events: Provisioning[] = [];
    const iterable = ws(r, token).iterate({ query: `subscription($id: ID!) { provisioning(id: $id) { ${FIELDS} } }`, variables: { id } }) as AsyncIterable<FormattedExecutionResult<{ provisioning: Provisioning }>>;
    for await (const result of iterable) {
      if (result.errors) throw new Error(JSON.stringify(result.errors));
      if (result.data) {
        events.push(result.data.provisioning);
        onEvent?.(result.data.provisioning);
      }
    }
    return events;
  }

  const changes = (sinceSeq: number): string[] =>
    sandbox.control
      .requests()
      .filter((r) => r.seq > sinceSeq && r.method !== 'GET')
      .map((r) => `${r.method} ${r.route}`);

  const EXPECTED_CHANGES = [
    'POST /rest/v1/networks',
    'POST /rest/v1/networks/{networkId}/endpoints',
    'POST /rest/v1/networks/{networkId}/services',
    'POST /rest/v1/networks/{networkId}/endpoints',
    'POST /rest/v1/networks/{networkId}/endpoints',
    'POST /rest/v1/networks/{networkId}/endpoints',
    'POST /rest/v1/networks/{networkId}/appWans',
    'POST /rest/v1/networks/{networkId}/appWans/{appWanId}/endpoints',
    'POST /rest/v1/networks/{networkId}/appWans/{appWanId}/services',
  ];

  it('reads and follows on one replica a provisioning started on another', async () => {
    const token = freshToken();
    const started = await gql(at(0), token, START, { input: input('fleet-read') });
    const id = (started.body.data?.['provisionAppWan'] as { id: string } | undefined)?.id ?? '';
    expect(id).not.toBe('');
    const read = await gql(at(1), token, `query($id: ID!) { provisioning(id: $id) { id state } }`, { id });
    expect(read.body).toEqual({ data: { provisioning: { id, state: 'RUNNING' } } });
    // While it runs, nothing in Redis holds the token in clear (it is sealed, for a replica that resumes the run).
    const inspector = new Redis(redis.url);
    try {
      const keys = await inspector.keys('*');
      expect(keys.some((k) => k.endsWith(`${id}:token`))).toBe(true);
      for (const key of keys) {
        const type = await inspector.type(key);
        const values = type === 'string' ? [await inspector.get(key)] : type === 'set' ? await inspector.smembers(key) : type === 'zset' ? await inspector.zrange(key, '0', '-1') : [];
        for (const value of [key, ...values]) expect(value ?? '').not.toContain(token.split('.')[2] ?? token);
      }
    } finally {
      inspector.disconnect();
    }
    // Another person is not its owner, on any replica (another token of the same person is: one identity).
    const stranger = await gql(at(2), sandbox.tokens.reader, `query($id: ID!) { provisioning(id: $id) { id } }`, { id });
    expect(stranger.body.errors?.[0]?.extensions?.['code']).toBe('NOT_FOUND');
    progress(true);
    const events = await follow(at(2), token, id);
    expect(events[0]?.state).toBe('RUNNING');
    expect(events.at(-1)).toMatchObject({ state: 'SUCCEEDED' });
    expect(events.at(-1)?.steps.every((s) => s.state === 'DONE')).toBe(true);
  });

  it('finishes on another replica a run whose replica was killed, each create sent once', async () => {
    const token = freshToken();
    const from = lastSeq();
    const started = await gql(at(0), token, START, { input: input('fleet-kill') });
    const id = (started.body.data?.['provisionAppWan'] as { id: string } | undefined)?.id ?? '';
    const runner = await waitUntil(() => holderOf('provisioning'), 'the replica running it', { intervalMs: 50 });
    const watcher = (runner + 1) % 3;
    let killedAt = 0;
    let killing: Promise<void> | null = null;
    let stepsDoneAtKill = 0;
    progress(true);
    let resumedAt = 0;
    try {
      const events = await follow(at(watcher), token, id, (p) => {
        const done = p.steps.filter((s) => s.state === 'DONE').length;
        // A step finished after the kill was finished by the replica that resumed the run.
        if (killing !== null && resumedAt === 0 && done > stepsDoneAtKill) resumedAt = performance.now();
        // Mid-run: the service's step has its resource and is waiting for it.
        if (killing === null && done >= 2) {
          stepsDoneAtKill = done;
          killedAt = performance.now();
          killing = at(runner).kill();
        }
      });
      await killing;
      const last = events.at(-1);
      expect(last).toMatchObject({ state: 'SUCCEEDED' });
      expect(stepsDoneAtKill).toBeGreaterThanOrEqual(2);
      // Each change sent once, whoever ran which step.
      expect(changes(from)).toEqual(EXPECTED_CHANGES);
      // Another replica took it over: once, or again if a starved heartbeat let its lease lapse
      // (the lease is what keeps a change from being sent twice, checked just above).
      const takers = await Promise.all([0, 1, 2].filter((i) => i !== runner).map((i) => metric(at(i), 'netgraph_fleet_takeovers_total{kind="provisioning"}')));
      const takeovers = takers.reduce((a, b) => a + b, 0);
      expect(takeovers).toBeGreaterThanOrEqual(1);
      figures['provisioningTakeover'] = {
        changesSent: changes(from).length,
        expected: EXPECTED_CHANGES.length,
        takeovers,
        stepsDoneAtKill,
        killToNextStepDoneMs: Math.round(resumedAt - killedAt),
        killToSucceededMs: Math.round(performance.now() - killedAt),
      };
    } finally {
      // The next scenarios use all three replicas, whatever happened here.
      if (killedAt > 0) {
        await killing;
        await replica(runner);
      }
    }
  });

  it('serves on one replica a persisted query registered on another', async () => {
    const token = freshToken();
    const query = `{ gatewayInfo { version } }`;
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(query) } };
    const unknown = await gql(at(1), token, '', undefined, extensions);
    expect(unknown.body.errors?.[0]?.extensions?.['code']).toBe('PERSISTED_QUERY_NOT_FOUND');
    const registered = await gql(at(0), token, query, undefined, extensions);
    expect(registered.body.errors).toBeUndefined();
    // Visible on every replica once stored (Apollo stores a registration as it answers).
    for (const i of [1, 2]) {
      const served = await waitUntil(async () => {
        const result = await gql(at(i), token, '', undefined, extensions);
        return result.body.errors === undefined ? result : null;
      }, `the registration on replica ${i}`, { intervalMs: 50 });
      expect(served.body).toEqual(registered.body);
    }
  });

  it('counts a quota of upstream calls across every replica', async () => {
    const network = sandbox.restFacts().networkIds[0] ?? '';
    const query = `query($id: UUID!) { network(id: $id) { id } }`;
    const path = `/rest/v1/networks/${network}`;
    // Quota windows start on the wall clock's minute: a run that crossed one is run again with a
    // fresh token, and that one starts just after the turn, so it fits in one window.
    const minute = (): number => Math.floor(Date.now() / 60_000);
    let token = '';
    let from = 0;
    let refused: GqlResult | null = null;
    for (let attempt = 0; attempt < 2 && refused === null; attempt++) {
      token = freshToken();
      from = lastSeq();
      const startedIn = minute();
      for (let i = 0; i < QUOTA; i++) {
        const result = await gql(at(i % 3), token, query, { id: network });
        expect(result.body.errors).toBeUndefined();
      }
      const last = await gql(at(1), token, query, { id: network });
      if (minute() === startedIn) refused = last;
    }
    if (refused === null) throw new Error('two quota runs each crossed a minute');
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', limit: 'upstreamCallsPerMinute', scope: 'caller', retryAfter: expect.any(Number) });
    const counted = pollsOf(path, from).length;
    figures['quota'] = { quota: QUOTA, upstreamCalls: counted };
    expect(counted).toBe(QUOTA);
    // Another credential is not held back.
    expect((await gql(at(2), freshToken(), query, { id: network })).body.errors).toBeUndefined();
  });

  it('goes on without Redis, says so on /readyz, and is whole again once Redis is back', async () => {
    const token = freshToken();
    const network = sandbox.restFacts().networkIds[1] ?? '';
    const id = await createNetwork('followed-through-an-outage');
    const path = `/rest/v1/networks/${id}`;
    const query = `subscription($id: UUID!) { resourceStatus(kind: NETWORK, id: $id) { statusName } }`;
    const errors: string[] = [];
    for (const i of [0, 1, 2]) ws(at(i), token).subscribe({ query, variables: { id } }, { next: () => undefined, error: (e) => errors.push(JSON.stringify(e)), complete: () => errors.push('completed') });

    // Queries and mutations all along, on every replica.
    let running = true;
    let sent = 0;
    const failed: string[] = [];
    const load = (async () => {
      while (running) {
        const i = sent % 3;
        sent += 1;
        const result = await gql(at(i), freshToken(), `query($id: UUID!) { network(id: $id) { id name } }`, { id: network }).catch((e: unknown) => ({ status: 0, body: { errors: [{ message: String(e) }] } }) as GqlResult);
        if (result.status !== 200 || result.body.errors) failed.push(JSON.stringify(result.body));
        await pause(20);
      }
    })();
    const moreQueries = (count: number): Promise<true> => {
      const from = sent;
      return waitUntil(() => sent >= from + count, `${count} more queries`);
    };

    await moreQueries(10);
    await redis.stop();
    const down = await waitUntil(async () => {
      const bodies = await Promise.all(replicas.map(async (r) => ({ status: (await fetch(`${r.origin}/readyz`)).status, body: (await (await fetch(`${r.origin}/readyz`)).json()) as { status?: string } })));
      return bodies.every((b) => b.status === 200 && b.body.status === 'degraded') ? bodies : null;
    }, 'every replica degraded', { intervalMs: 50 });
    expect(down).toHaveLength(3);
    // Alone, each replica polls for its own subscribers; queries go on.
    const whileDown = lastSeq();
    await waitUntil(() => pollsOf(path, whileDown).length >= 3, 'polls while Redis is down');
    await moreQueries(10);
    await redis.start();
    await waitUntil(async () => {
      const bodies = await Promise.all(replicas.map(async (r) => (await (await fetch(`${r.origin}/readyz`)).json()) as { status?: string }));
      return bodies.every((b) => b.status === 'ready');
    }, 'every replica ready again', { intervalMs: 50 });
    // Settled: the replicas that polled alone have handed over to one holder (a poll may be under way).
    await pause(2 * INTERVAL_MS);
    const from = lastSeq();
    const afterRejoin = await countOver(() => pollsOf(path, from).length, 3000, 3);
    await moreQueries(10);
    running = false;
    await load;
    figures['redisOutage'] = { queries: sent, failed: failed.length, pollsPer3sAfterRejoin: afterRejoin.added };
    expect(failed).toEqual([]);
    expect(errors).toEqual([]);
    // One poller for the target again, not three.
    expect(afterRejoin.added).toBeLessThanOrEqual(onePer(INTERVAL_MS, afterRejoin));
    // And shared state works again: a registration on one replica is served by another.
    const doc = `{ gatewayInfo { searchConfigured } }`;
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(doc) } };
    const registered = await gql(at(2), token, doc, undefined, extensions);
    expect(registered.body.errors).toBeUndefined();
    const served = await waitUntil(async () => {
      const result = await gql(at(0), token, '', undefined, extensions);
      return result.body.errors === undefined ? result : null;
    }, 'the registration on another replica', { intervalMs: 50 });
    expect(served.body).toEqual(registered.body);
  });
});
