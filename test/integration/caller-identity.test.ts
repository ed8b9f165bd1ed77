/**
 * The caller is the identity the platform names, verified before anything is reserved for it:
 * made-up bearers reserve nothing (no SSE reservation, no provisioning, no POST to the platform);
 * verdicts are cached per token (identity calls counted); concurrent verifications of one token
 * share one call; one identity's tokens share one share; slots are taken before the first await
 * (bursts in one tick); anonymous streams are capped; per-address caps read the trusted proxies'
 * X-Forwarded-For and group IPv6 by /64; event search answers FORBIDDEN to other organizations
 * before any search request.
 */
import { randomBytes } from 'node:crypto';
import WebSocket from 'ws';
import { ADMIN_IDENTITY_ID, startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startGateway, type RunningGateway } from '../../src/server';
import type { Config } from '../../src/config';
import { Clients } from '../helpers/subscriptions';
import { waitUntil } from '../helpers/wait';
import { expectErrorCode, postGraphQL, testConfig, withOverrides, type ConfigOverrides } from '../helpers/stack';
import { openBurstSocket } from '../helpers/ws-burst';
import { connectMcp, toolErrors } from '../helpers/mcp';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

const IDENTITY_ROUTE = 'GET /identity/v1/organization';
const junk = (): string => `Bearer ${randomBytes(24).toString('base64url')}`;

let sandbox: RunningSandbox;
let gateway: RunningGateway;

async function start(overrides: (base: Config) => ConfigOverrides, log: ((line: string) => void) | null = null): Promise<void> {
  sandbox = await startSandbox({ port: 0, seed: 'tiny', stepMs: 50 });
  // Bursts of hundreds of identity checks on a loaded machine: no upstream timeout (and no breaker
  // opened by one) may stand in for the platform's answer these tests count.
  const base = testConfig({ upstream: { baseUrl: null, headersTimeoutMs: 120_000, bodyTimeoutMs: 120_000 } });
  gateway = await startGateway(withOverrides(base, overrides(base)), { log, sandbox });
}
async function stop(): Promise<void> {
  await gateway?.close();
  await sandbox?.close();
}

const identityCalls = (): number => sandbox.control.calls().byRoute[IDENTITY_ROUTE] ?? 0;
const postCalls = (): number => Object.entries(sandbox.control.calls().byRoute).reduce((n, [route, count]) => n + (route.startsWith('POST /rest') || route.startsWith('POST /core') ? count : 0), 0);
const reserve = (authorization: string | null, headers: Record<string, string> = {}): Promise<Response> =>
  fetch(gateway.streamUrl, { method: 'PUT', headers: { ...(authorization ? { authorization } : {}), ...headers } });

const PROVISION = `mutation($input: ProvisionAppWanInput!) { provisionAppWan(input: $input) { id state } }`;
const provisionInput = (n: number) => ({
  network: { name: `burst-${n}` },
  hostedGateway: { name: 'gw' },
  service: { name: 's', serviceClass: 'CS', networkIp: '10.0.0.1', networkFirstPort: 443, networkLastPort: 443, interceptIp: '100.64.1.5' },
  bridgeGateway: { name: 'br' },
  clients: [],
  appWanName: 'a',
});

describe('made-up bearers, cached verdicts and shares per identity', () => {
  beforeAll(() =>
    start((base) => ({
      // Refusals remembered for the whole test: the second round must not depend on timing.
      callers: { ...base.callers, refusedTtlMs: 600_000 },
      provisioning: { maxProvisioningsPerCaller: 2 },
    })),
  );
  afterAll(stop);

  it('answers 300 made-up bearers UNAUTHENTICATED (401) and reserves no SSE stream; each is verified once', async () => {
    sandbox.control.resetCalls();
    const tokens = Array.from({ length: 300 }, junk);
    const first = await Promise.all(tokens.map((token) => reserve(token)));
    expect(first.map((r) => r.status)).toEqual(tokens.map(() => 401));
    const body = (await first[0]?.json()) as { errors: Array<{ extensions: { code: string } }> };
    expect(body.errors[0]?.extensions.code).toBe('UNAUTHENTICATED');
    expect(gateway.sseStats().reservations).toBe(0);
    expect(identityCalls()).toBe(300);
    // Asked again: the refusals are cached, the platform is not asked again.
    const again = await Promise.all(tokens.map((token) => reserve(token)));
    expect(again.every((r) => r.status === 401)).toBe(true);
    expect(identityCalls()).toBe(300);
    expect(gateway.sseStats().reservations).toBe(0);
  });

  it('starts no provisioning for 300 made-up bearers: UNAUTHENTICATED, and not one POST to the platform', async () => {
    sandbox.control.resetCalls();
    const results = await Promise.all(Array.from({ length: 300 }, (_, n) => postGraphQL(gateway.url, PROVISION, { input: provisionInput(n) }, { headers: { authorization: junk() }, token: null })));
    for (const result of results) expectErrorCode(result, 'UNAUTHENTICATED');
    expect(postCalls()).toBe(0);
  });

  it('shares one verification among 50 reservations of one fresh token arriving together, and grants exactly its share', async () => {
    sandbox.control.resetCalls();
    const token = `Bearer ${sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, burst: 'sse' })}`;
    const answers = await Promise.all(Array.from({ length: 50 }, () => reserve(token)));
    const statuses = answers.map((r) => r.status);
    // SSE_RESERVATIONS_PER_CALLER (10): exactly ten, the rest RATE_LIMITED.
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(40);
    expect(identityCalls()).toBe(1);
  });

  it('gives six tokens of one person one share: the admin holds its ten reservations already', async () => {
    const tokens = Array.from({ length: 6 }, (_, n) => `Bearer ${sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, n })}`);
    const answers = await Promise.all(tokens.map((token) => reserve(token)));
    expect(answers.map((r) => r.status)).toEqual([429, 429, 429, 429, 429, 429]);
    // Another person still has a share of its own.
    expect((await reserve(`Bearer ${sandbox.tokens.reader}`)).status).toBe(201);
  });

  it('starts exactly its share of provisionings from a burst of one identity (MAX_PROVISIONINGS_PER_CALLER = 2)', async () => {
    const token = sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, burst: 'provisioning' });
    const results = await Promise.all(Array.from({ length: 12 }, (_, n) => postGraphQL(gateway.url, PROVISION, { input: provisionInput(n) }, { token })));
    const started = results.filter((r) => !r.body.errors);
    const refused = results.filter((r) => r.body.errors?.[0]?.extensions?.['code'] === 'RATE_LIMITED');
    expect(started).toHaveLength(2);
    expect(refused).toHaveLength(10);
  });
});

describe('one-tick bursts and anonymous streams', () => {
  beforeAll(() => start((base) => ({ subscriptions: { maxSubscriptionsPerConnection: 20 }, callers: { ...base.callers, maxAnonymousSubscriptions: 8 } })));
  afterAll(stop);
  const clients = new Clients(() => ({ wsUrl: gateway.wsUrl, streamUrl: gateway.streamUrl, tokens: sandbox.tokens }));
  afterEach(() => clients.disposeAll());

  it('runs exactly 20 of 300 subscribe messages written in one socket write, and refuses the rest RATE_LIMITED', async () => {
    const socket = await openBurstSocket(gateway.wsUrl, `Bearer ${sandbox.tokens.admin}`);
    try {
      socket.burst(Array.from({ length: 300 }, (_, n) => ({ id: `s${n}`, type: 'subscribe', payload: { query: 'subscription { heartbeat(intervalSeconds: 3600) { sequence } }' } })));
      const refusals = (): typeof socket.messages => socket.messages.filter((m) => JSON.stringify(m.payload ?? '').includes('subscriptionsPerConnection'));
      await waitUntil(() => refusals().length >= 280, () => `280 refusals, got ${refusals().length}`, 15_000);
      expect(refusals()).toHaveLength(280);
      expect(JSON.stringify(refusals()[0])).toContain('RATE_LIMITED');
      const metrics = await (await fetch(`${new URL(gateway.url).origin}/metrics`)).text();
      expect(metrics).toMatch(/netgraph_subscriptions_active\{transport="ws"\} 20\b/);
    } finally {
      socket.close();
    }
  });

  it('caps anonymous SSE heartbeat streams: a quarter of MAX_ANONYMOUS_SUBSCRIPTIONS per address', async () => {
    const sse = clients.sse(null);
    const logs = [0, 1, 2].map(() => clients.follow(sse, 'subscription { heartbeat(intervalSeconds: 1) { sequence } }'));
    await waitUntil(() => logs.filter((l) => l.results.some((r) => JSON.stringify(r).includes('anonymousSubscriptions'))).length === 1, () => logs.map((l) => l.describe()).join('\n'), 10_000);
    await waitUntil(() => logs.filter((l) => l.results.some((r) => r.data)).length === 2, () => logs.map((l) => l.describe()).join('\n'), 10_000);
  });
});

describe('client addresses behind a trusted proxy', () => {
  beforeAll(() => start((base) => ({ callers: { ...base.callers, trustProxyHops: 1 }, transports: { wsConnectionsPerClient: 1 } })));
  afterAll(stop);
  const sockets: WebSocket[] = [];
  afterAll(() => sockets.forEach((s) => s.terminate()));

  /** The upgrade's status: 101 when the socket opened. */
  function upgrade(forwardedFor: string): Promise<number> {
    const ws = new WebSocket(gateway.wsUrl, 'graphql-transport-ws', { headers: { 'x-forwarded-for': forwardedFor } });
    sockets.push(ws);
    return new Promise((resolve, reject) => {
      ws.once('open', () => resolve(101));
      ws.once('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.once('error', reject);
    });
  }

  it('counts WebSocket connections per client address read from X-Forwarded-For, IPv6 by /64', async () => {
    // One hop trusted: the rightmost entry is the client; what it wrote further left is ignored.
    expect(await upgrade('6.6.6.6, 203.0.113.7')).toBe(101);
    expect(await upgrade('7.7.7.7, 203.0.113.7')).toBe(429);
    expect(await upgrade('203.0.113.8')).toBe(101);
    // One /64: one client.
    expect(await upgrade('2001:db8:1:2::1')).toBe(101);
    expect(await upgrade('2001:db8:1:2:ffff::9')).toBe(429);
    expect(await upgrade('2001:db8:1:3::1')).toBe(101);
    // The door's own refusals are counted like the pipeline's.
    const metrics = await (await fetch(`${new URL(gateway.url).origin}/metrics`)).text();
    expect(metrics).toMatch(/netgraph_graphql_operations_total\{transport="ws",operation="-",outcome="errors"\} 2\b/);
  });
});

describe('event search for the operator\'s organizations only', () => {
  beforeAll(() => start(() => ({})));
  afterAll(stop);

  const searchCalls = (): number => Object.entries(sandbox.control.calls().byRoute).reduce((n, [route, count]) => n + (route.includes('/search/') ? count : 0), 0);

  it('answers FORBIDDEN to a token of another organization before any search request', async () => {
    sandbox.control.resetCalls();
    const visitor = sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, organizationId: 'another-organization' });
    const result = await postGraphQL(gateway.url, '{ topTalkers { sources { sourceId } } alerts { totalCount } }', undefined, { token: visitor });
    expectErrorCode(result, 'FORBIDDEN');
    expect(result.body.errors?.map((e) => e.extensions?.['code'])).toEqual(['FORBIDDEN', 'FORBIDDEN']);
    expect(searchCalls()).toBe(0);
    // The demo organization's caller (sandbox mode allows it) reads them.
    const allowed = await postGraphQL(gateway.url, '{ alerts { totalCount } }', undefined, { token: sandbox.tokens.admin });
    expect(allowed.body.errors).toBeUndefined();
    expect(searchCalls()).toBeGreaterThan(0);
  });
});

describe('MCP follow calls per identity', () => {
  beforeAll(() => start((base) => ({ subscriptions: { pollNotFoundGraceMs: 600_000 }, callers: { ...base.callers, maxSubscriptionsPerCaller: 3 } })));
  afterAll(stop);

  it('runs exactly MAX_SUBSCRIPTIONS_PER_CALLER follow calls of one identity at once, and refuses the rest RATE_LIMITED', async () => {
    const mcp = await connectMcp(new URL(gateway.url).origin, sandbox.tokens.admin);
    const refusals: CallToolResult[] = [];
    // Business keys the platform does not know yet: each follow keeps polling for its grace period.
    const calls = Array.from({ length: 8 }, (_, n) =>
      mcp.callTool({ name: 'follow_workflow', arguments: { businessKey: `not-yet-${n}` } }).then(
        (result) => void refusals.push(result as CallToolResult),
        () => undefined,
      ),
    );
    try {
      await waitUntil(() => refusals.length === 5 && gateway.pollerStats().pollers === 3, () => `5 refusals and 3 pollers, got ${refusals.length} and ${gateway.pollerStats().pollers}`, 15_000);
      for (const refusal of refusals) expect(toolErrors(refusal)[0]).toMatchObject({ code: 'RATE_LIMITED', extensions: expect.objectContaining({ limit: 'subscriptionsPerCaller' }) });
    } finally {
      await mcp.close();
      await Promise.all(calls);
    }
    await waitUntil(() => gateway.pollerStats().pollers === 0, () => 'the followed pollers stopped');
  });

  it("labels MCP operations by name in metrics, and counts the door's own policy refusals", async () => {
    const doorRefusals = async (): Promise<number> => {
      const text = await (await fetch(`${new URL(gateway.url).origin}/metrics`)).text();
      return Number(/netgraph_graphql_operations_total\{transport="mcp",operation="-",outcome="errors"\} (\d+)/.exec(text)?.[1] ?? 0);
    };
    const before = await doorRefusals();
    const mcp = await connectMcp(new URL(gateway.url).origin, sandbox.tokens.admin);
    try {
      const refused = (await mcp.callTool({ name: 'execute', arguments: { query: 'mutation { deleteNetwork(id: "00000000-0000-4000-8000-000000000000") { accepted } }' } })) as CallToolResult;
      expect(toolErrors(refused)[0]?.code).toBe('FORBIDDEN');
    } finally {
      await mcp.close();
    }
    const metrics = await (await fetch(`${new URL(gateway.url).origin}/metrics`)).text();
    // The follow calls above, by their operation's name; the refusal, by the door.
    expect(metrics).toMatch(/netgraph_graphql_operations_total\{transport="mcp",operation="FollowWorkflow",outcome="errors"\} 5\b/);
    expect(await doorRefusals()).toBe(before + 1);
  });
});

describe('an SSE client that leaves', () => {
  const lines: string[] = [];
  beforeAll(() => start(() => ({}), (line) => lines.push(line)));
  afterAll(stop);
  // Three rounds of upstream calls, one after the other.
  const QUERY = '{ networks(first: 10) { nodes { endpoints(first: 10) { nodes { appWans(first: 10) { nodes { id } } } } } } }';

  it('stops calling upstream for its operation once the client is gone', async () => {
    const whole = await postGraphQL(gateway.url, QUERY, undefined, { token: sandbox.tokens.admin });
    expect(whole.body.errors).toBeUndefined();
    const wholeCalls = (JSON.parse(lines.at(-1) ?? '{}') as { upstreamCalls?: number }).upstreamCalls ?? 0;
    expect(wholeCalls).toBeGreaterThan(2);
    sandbox.control.setLatency(300);
    sandbox.control.resetCalls();
    const leave = new AbortController();
    const streaming = fetch(gateway.streamUrl, {
      method: 'POST',
      headers: { accept: 'text/event-stream', 'content-type': 'application/json', authorization: `Bearer ${sandbox.tokens.admin}` },
      body: JSON.stringify({ query: QUERY }),
      signal: leave.signal,
    }).then((res) => res.body?.cancel(), () => undefined);
    try {
      await waitUntil(() => sandbox.control.calls().total >= 1, () => 'the first upstream call');
      leave.abort();
      await streaming;
      const sse = (): { upstreamCalls: number } | undefined => lines.map((l) => JSON.parse(l) as { transport?: string; upstreamCalls: number }).find((l) => l.transport === 'sse');
      await waitUntil(() => sse() !== undefined, () => 'the SSE operation to end', 10_000);
      expect(sse()?.upstreamCalls).toBeLessThan(wholeCalls);
    } finally {
      sandbox.control.setLatency(0);
    }
  });
});
