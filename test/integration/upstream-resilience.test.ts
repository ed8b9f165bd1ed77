/**
 * A good citizen of a struggling platform, against the sandbox's fault injection over real
 * sockets: the retry budget bounds the extra load, a Retry-After window and an open breaker answer
 * at once without calling, one probe at a time, and recovery when the fault ends. The breakers run
 * on a manual clock (no test sleeps); what is asserted is counts and codes.
 */
import { startStack, testConfig, type GqlResult, type Stack } from '../helpers/stack';
import { TestClock } from '../helpers/upstream-call';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(clock?: TestClock): Promise<Stack> {
  stack = await startStack({
    seed: 'tiny',
    // Windows up to a minute; a manual clock when given. Every query its own calls (no sharing, no
    // cache): these tests count what retries and probes send, not what sharing saves.
    config: { retryAfterMaxMs: 60_000, upstreamCache: { ...testConfig().upstreamCache, sharing: false, maxBytes: 0 } },
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

it('one 429 with Retry-After: 5 closes rest/v1 for the window: fast RATE_LIMITED with retryAfter, no call inside, auth/v1 unaffected, one probe after', async () => {
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
  // Another API is not held by rest/v1's window.
  const auth = await s.gql('{ domains(first: 1) { totalCount } }');
  expect(auth.body.errors).toBeUndefined();
  const ready = (await (await fetch(`${s.origin}/readyz`)).json()) as { status: string; upstreamApis: Record<string, { state: string }> };
  expect([ready.status, ready.upstreamApis['rest/v1']?.state, ready.upstreamApis['auth/v1']?.state]).toEqual(['degraded', 'open', 'closed']);
  clock.advance(3000);
  // The window is over: one probe goes, the calls beside it still fail fast; once it succeeded all go.
  const after = await Promise.all(Array.from({ length: 10 }, () => s.gql(query)));
  expect(after.filter((res) => res.body.errors === undefined)).toHaveLength(1);
  expect(restCalls(s)).toBe(2);
  const open = await Promise.all(Array.from({ length: 10 }, () => s.gql(query)));
  for (const res of open) expect(res.body.errors).toBeUndefined();
}, 60_000);

it('a slow failing API: the breaker opens, answers fail fast, one probe per interval, recovery when the fault ends', async () => {
  const clock = new TestClock();
  const s = await start(clock);
  const query = networkQuery(s);
  s.sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/**', latencyMs: 100, errorRate: 1, status: 500 }]);
  s.sandbox.control.resetCalls();
  // Failures in a row open the breaker (UPSTREAM_BREAKER_FAILURES, 10 by default).
  for (let i = 0; i < 10; i += 1) expect(codeOf(await s.gql(query)).code).toBe('UPSTREAM_ERROR');
  const sent = restCalls(s);
  const fast = await Promise.all(Array.from({ length: 30 }, () => s.gql(query)));
  for (const res of fast) expect(codeOf(res)).toEqual({ code: 'UPSTREAM_UNAVAILABLE', retryAfter: 1 });
  expect(restCalls(s)).toBe(sent);
  const metrics = await (await fetch(`${s.origin}/metrics`)).text();
  expect(metrics).toContain('netgraph_upstream_breaker_state{api="rest/v1",state="open"} 1');
  expect(metrics).toMatch(/netgraph_upstream_fast_failures_total\{api="rest\/v1",reason="failures"\} 30/);
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
