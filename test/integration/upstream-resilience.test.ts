/**
 * A good citizen of a struggling platform, against the sandbox's fault injection over real
 * sockets: the retry budget bounds the extra load, a Retry-After window and an open breaker answer
 * at once without calling, one probe at a time, and recovery when the fault ends. The breakers run
 * on a manual clock (no test sleeps); what is asserted is counts and codes.
 */
import { startStack, type GqlResult, type Stack } from '../helpers/stack';
import { TestClock } from '../helpers/upstream-call';
import { waitUntil } from '../helpers/wait';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(clock?: TestClock, slowCallMs?: number): Promise<Stack> {
  stack = await startStack({
    seed: 'tiny',
    // Windows up to a minute; a manual clock when given. Every query its own calls (no sharing, no
    // cache): these tests count what retries and probes send, not what sharing saves.
    config: {
      upstream: { retryAfterMaxMs: 60_000 },
      cache: { sharing: false, maxBytes: 0 },
      ...(slowCallMs !== undefined ? { resilience: { slowCallMs } } : {}),
    },
    ...(clock ? { gatewayOptions: { upstreamClock: clock.now } } : {}),
  });
  return stack;
}

function restCalls(s: Stack): number {
  return Object.entries(s.sandbox.control.calls().byRoute)
    .filter(([route]) => route.includes('/rest/v1/'))
    .reduce((sum, [, n]) => sum + n, 0);
}

function networkQuery(s: Stack): string {
  const network = s.sandbox.restFacts().networks[0];
  if (!network) throw new Error('the seed has no network');
  return `{ network(id: "${network.id}") { id name } }`;
}

function codeOf(res: GqlResult): { code: unknown; retryAfter: unknown } {
  const error = res.body.errors?.[0];
  return { code: error?.extensions?.['code'], retryAfter: error?.extensions?.['retryAfter'] };
}

it('half the GETs failing: the retry budget keeps upstream calls within 1.3x the requests', async () => {
  const s = await start();
  const query = networkQuery(s);
  s.sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/networks/*', errorRate: 0.5, status: 503 }]);
  s.sandbox.control.resetCalls();
  const requests = 200;
  for (let i = 0; i < requests; i += 20) await Promise.all(Array.from({ length: 20 }, () => s.gql(query)));
  const calls = restCalls(s);
  expect(calls).toBeGreaterThanOrEqual(requests);
  expect(calls / requests).toBeLessThanOrEqual(1.3);
}, 60_000);

it("one caller's 429 with Retry-After: 5 closes rest/v1 to that caller for the window (fast RATE_LIMITED, no call inside); another identity is served", async () => {
  const clock = new TestClock();
  const s = await start(clock);
  const query = networkQuery(s);
  s.sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/networks/*', errorRate: 1, status: 429, retryAfterS: 5, times: 1 }]);
  s.sandbox.control.resetCalls();
  expect(codeOf(await s.gql(query))).toEqual({ code: 'RATE_LIMITED', retryAfter: 5 });
  clock.advance(2000);
  const inside = await Promise.all(Array.from({ length: 20 }, () => s.gql(query)));
  for (const res of inside) expect(codeOf(res)).toEqual({ code: 'RATE_LIMITED', retryAfter: 3 });
  expect(restCalls(s)).toBe(1);
  // Another identity's calls still go, and are answered.
  const others = await Promise.all(Array.from({ length: 5 }, () => s.gql(query, undefined, { token: s.tokens.reader })));
  for (const res of others) expect(res.body.errors).toBeUndefined();
  expect(restCalls(s)).toBe(6);
  // The API is not closed: /readyz says ready, rest/v1's breaker closed.
  const ready = (await (await fetch(`${s.origin}/readyz`)).json()) as { status: string; upstreamApis: Record<string, { state: string }> };
  expect([ready.status, ready.upstreamApis['rest/v1']?.state]).toEqual(['ready', 'closed']);
  clock.advance(3000);
  // The window is over: the caller's calls go again.
  const after = await Promise.all(Array.from({ length: 3 }, () => s.gql(query)));
  for (const res of after) expect(res.body.errors).toBeUndefined();
  expect(restCalls(s)).toBe(9);
}, 60_000);

it('a 503 with Retry-After closes rest/v1 for everyone; auth/v1 unaffected; /readyz 200 degraded naming it', async () => {
  const clock = new TestClock();
  const s = await start(clock);
  const query = networkQuery(s);
  s.sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/networks/*', errorRate: 1, status: 503, retryAfterS: 5, times: 1 }]);
  s.sandbox.control.resetCalls();
  expect(codeOf(await s.gql(query))).toEqual({ code: 'UPSTREAM_ERROR', retryAfter: 5 });
  const others = await Promise.all(Array.from({ length: 5 }, () => s.gql(query, undefined, { token: s.tokens.reader })));
  for (const res of others) expect(codeOf(res)).toEqual({ code: 'UPSTREAM_UNAVAILABLE', retryAfter: 5 });
  expect(restCalls(s)).toBe(1);
  const auth = await s.gql('{ domains(first: 1) { totalCount } }');
  expect(auth.body.errors).toBeUndefined();
  const res = await fetch(`${s.origin}/readyz`);
  const ready = (await res.json()) as { status: string; degraded?: string[]; upstreamApis: Record<string, { state: string }> };
  expect([res.status, ready.status, ready.degraded, ready.upstreamApis['rest/v1']?.state, ready.upstreamApis['auth/v1']?.state]).toEqual([200, 'degraded', ['rest/v1'], 'open', 'closed']);
}, 60_000);

it('a slow outage (every rest/v1 call a 503 after a delay): the breaker opens while the calls hang, then one call per probe interval reaches rest/v1; /readyz stays 200 naming rest/v1', async () => {
  const clock = new TestClock();
  // Attempts past 50 ms are slow (real timers); the breaker's own clock is the test's.
  const s = await start(clock, 50);
  const query = networkQuery(s);
  s.sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/**', latencyMs: 400, errorRate: 1, status: 503 }]);
  s.sandbox.control.resetCalls();
  // Ten queries at once: ten attempts in flight past the threshold open the breaker before any answers.
  const hanging = Array.from({ length: 10 }, () => s.gql(query));
  await waitUntil(async () => {
    const body = (await (await fetch(`${s.origin}/readyz`)).json()) as { upstreamApis: Record<string, { state: string }> };
    return body.upstreamApis['rest/v1']?.state === 'open';
  }, 'rest/v1 breaker open while its calls hang');
  const sentWhileHanging = restCalls(s);
  const fast = await Promise.all(Array.from({ length: 20 }, () => s.gql(query)));
  for (const res of fast) expect(codeOf(res)).toEqual({ code: 'UPSTREAM_UNAVAILABLE', retryAfter: 1 });
  await Promise.all(hanging);
  // The hanging attempts' failures do not add retries: the breaker was open when they ended.
  expect(restCalls(s)).toBe(sentWhileHanging);
  const ready = await fetch(`${s.origin}/readyz`);
  const body = (await ready.json()) as { status: string; degraded?: string[]; upstreamApis: Record<string, { state: string; reason?: string }> };
  expect([ready.status, body.status, body.upstreamApis['rest/v1']]).toEqual([200, 'degraded', { state: 'open', reason: 'failures', retryAfter: 1 }]);
  expect(body.degraded).toContain('rest/v1');
  // Each probe interval: ten queries, one call (the probe, slow again: the breaker opens again).
  for (let second = 1; second <= 5; second += 1) {
    clock.advance(1000);
    const before = restCalls(s);
    await Promise.all(Array.from({ length: 10 }, () => s.gql(query)));
    expect({ second, calls: restCalls(s) - before }).toEqual({ second, calls: 1 });
  }
}, 60_000);

it("one caller's burst does not queue another caller's query behind it at the connection pool", async () => {
  const s = await start();
  const query = networkQuery(s);
  // The burst's calls each take a while, so they pile up at the gateway's 64 connections.
  // Long enough that the queue is still there however slowly a loaded machine sends the burst.
  s.sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/networks/*', latencyMs: 3000 }]);
  s.sandbox.control.resetCalls();
  const burstSize = 300;
  const burst = Array.from({ length: burstSize }, () => s.gql(query));
  // Every connection busy with the burst, the rest of its calls queued at the gateway.
  await waitUntil(
    async () => Number(/^netgraph_upstream_pool_waiting (\d+)/m.exec(await (await fetch(`${s.origin}/metrics`)).text())?.[1] ?? 0) >= burstSize / 2,
    'the burst queued at the connection pool',
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  const single = await s.gql('{ geoRegions(first: 1) { totalCount } }', undefined, { token: s.tokens.reader });
  expect(single.body.errors).toBeUndefined();
  const answers = await Promise.all(burst);
  for (const res of answers) expect(res.body.errors).toBeUndefined();
  const requests = s.sandbox.control.requests();
  const singleSeq = requests.find((r) => r.route.includes('geoRegions'))?.seq;
  const burstAfter = requests.filter((r) => r.route.includes('/networks/') && r.seq > (singleSeq ?? Infinity)).length;
  // The single query went with one of the next connections freed, not after the burst's queue.
  expect(burstAfter).toBeGreaterThanOrEqual(burstSize / 3);
}, 150_000);

it('a slow failing API: the breaker opens, answers fail fast, one probe per interval, recovery when the fault ends', async () => {
  const clock = new TestClock();
  const s = await start(clock);
  const query = networkQuery(s);
  s.sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/**', latencyMs: 100, errorRate: 1, status: 500 }]);
  s.sandbox.control.resetCalls();
  // Failed attempts in a row open the breaker (UPSTREAM_BREAKER_FAILURES, 10 by default), each
  // counted as it ends: the tenth failed attempt opens it, whichever query's retry it was.
  let fastBefore = 0;
  for (let i = 0; i < 10 && fastBefore === 0; i += 1) {
    const code = codeOf(await s.gql(query)).code;
    if (code === 'UPSTREAM_UNAVAILABLE') fastBefore = 1;
    else expect(code).toBe('UPSTREAM_ERROR');
  }
  const sent = restCalls(s);
  expect(sent).toBe(10);
  const fast = await Promise.all(Array.from({ length: 30 }, () => s.gql(query)));
  for (const res of fast) expect(codeOf(res)).toEqual({ code: 'UPSTREAM_UNAVAILABLE', retryAfter: 1 });
  expect(restCalls(s)).toBe(sent);
  const metrics = await (await fetch(`${s.origin}/metrics`)).text();
  expect(metrics).toContain('netgraph_upstream_breaker_state{api="rest/v1",state="open"} 1');
  expect(metrics).toContain(`netgraph_upstream_fast_failures_total{api="rest/v1",reason="failures"} ${30 + fastBefore}`);
  // One probe interval later: one probe (it fails: the breaker opens again), however many ask.
  clock.advance(1000);
  await Promise.all(Array.from({ length: 10 }, () => s.gql(query)));
  expect(restCalls(s)).toBe(sent + 1);
  await Promise.all(Array.from({ length: 10 }, () => s.gql(query)));
  expect(restCalls(s)).toBe(sent + 1);
  // The fault ends: the next probe succeeds and the API is back for everyone.
  s.sandbox.control.clearFaults();
  clock.advance(1000);
  await s.gql(query);
  const back = await Promise.all(Array.from({ length: 10 }, () => s.gql(query)));
  for (const res of back) expect(res.body.errors).toBeUndefined();
}, 60_000);

it('an id that cannot be one path segment is BAD_USER_INPUT before any call, on every API', async () => {
  const s = await start();
  s.sandbox.control.resetCalls();
  for (const query of ['{ network(id: "a/b") { id } }', '{ network(id: "..") { id } }', '{ superUser(id: "x%2Fy") { id } }', '{ v2Endpoint(id: "a\\\\b") { id } }']) {
    const res = await s.gql(query);
    expect({ query, code: codeOf(res).code }).toEqual({ query, code: 'BAD_USER_INPUT' });
  }
  expect(s.sandbox.control.calls().total).toBe(0);
});
