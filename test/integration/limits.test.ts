/**
 * Limits over HTTP against the large sandbox (src/limits/README.md): operations priced before
 * they run (refused with zero upstream calls), bad requests answered as GraphQL errors, and
 * budgets enforced while running (partial data with OPERATION_BUDGET_EXCEEDED).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_LIMITS, type Limits } from '../../src/limits/limits';
import { startStack, type Stack } from '../helpers/stack';
import { CYCLE_QUERY } from '../helpers/abusive-queries';
import { waitUntil } from '../helpers/wait';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seed: 'large' });
  // A first request warms the gateway up (JIT, connection pools).
  await stack.gql('{ gatewayInfo { sandbox } }');
});
afterAll(async () => {
  await stack.close();
});

const networkGraph = readFileSync(join(__dirname, '..', '..', 'bench', 'queries', 'network-graph.graphql'), 'utf8');

async function post(body: string | Uint8Array<ArrayBuffer>, headers: Record<string, string> = {}): Promise<{ status: number; type: string; json: { data?: unknown; errors?: Array<{ message: string; extensions?: Record<string, unknown> }> } }> {
  const res = await fetch(stack.gatewayUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: `Bearer ${stack.tokens.admin}`, ...headers },
    body: typeof body === 'string' ? body : new Blob([body]),
  });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', json: JSON.parse(text) as never };
}

describe('priced before running', () => {
  it('refuses the re-entrant cycle query before running it, with zero upstream calls', async () => {
    stack.sandbox.control.resetCalls();
    const res = await stack.gql(CYCLE_QUERY);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost: { limit: 'nodes', max: 2_000_000 } });
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('a client accepting only application/json gets the refusal with 200, the GraphQL-over-HTTP way', async () => {
    const res = await post(JSON.stringify({ query: CYCLE_QUERY }), { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.json.errors?.[0]?.extensions?.['code']).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
    const strict = await post(JSON.stringify({ query: CYCLE_QUERY }));
    expect(strict.status).toBe(400);
  });

  it('admits the whole-network graph (first: 1000 on every level) and shows its cost when asked', async () => {
    const res = await post(JSON.stringify({ query: networkGraph, variables: { first: 1000 }, extensions: { cost: true } }));
    expect(res.json.errors).toBeUndefined();
    const cost = (res.json as { extensions?: { cost?: { estimated: { nodes: number }; actual: { upstreamCalls: number; nodes: number } } } }).extensions?.cost;
    expect(cost?.estimated.nodes).toBeGreaterThan(0);
    expect(cost?.actual.upstreamCalls).toBeGreaterThan(0);
    expect(cost?.actual.nodes).toBeGreaterThan(2400);
  });

  it('refuses a huge document by its size, and a long one by its tokens, before parsing', async () => {
    stack.sandbox.control.resetCalls();
    const aliases = Array.from({ length: 20_000 }, (_, i) => `a${i}: __typename`).join(' ');
    const huge = await post(JSON.stringify({ query: `{ ${aliases} }` }));
    expect(huge.status).toBe(400);
    expect(huge.json.errors?.[0]?.extensions).toMatchObject({ code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost: { limit: 'bytes' } });
    const tokens = Array.from({ length: 3000 }, () => 'a:b').join(' ');
    const long = await post(JSON.stringify({ query: `{${tokens}}` }));
    expect(long.json.errors?.[0]?.extensions).toMatchObject({ code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost: { limit: 'tokens', max: 5000 } });
    expect(stack.sandbox.control.calls().total).toBe(0);
  });
});

describe('logs and metrics', () => {
  it('logs one JSON line per request with its request id (echoed back), never the token', async () => {
    stack.logs.length = 0;
    await post(JSON.stringify({ query: CYCLE_QUERY }));
    const res = await fetch(stack.gatewayUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-request-id': 'trace-42', authorization: `Bearer ${stack.tokens.admin}` },
      body: JSON.stringify({ query: 'query Info { gatewayInfo { sandbox } }' }),
    });
    expect(res.headers.get('x-request-id')).toBe('trace-42');
    const lines = stack.logs.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'graphql', requestId: 'trace-42', operationName: 'Info', upstreamCalls: 0, errorCodes: [] }));
    expect(lines).toContainEqual(expect.objectContaining({ errorCodes: ['COST_ESTIMATED_TOO_EXPENSIVE'], upstreamCalls: 0 }));
    expect(stack.logs.join('\n')).not.toContain(stack.tokens.admin);
  });

  it('/metrics counts operations by name and outcome, and refusals by limit', async () => {
    await post(JSON.stringify({ query: CYCLE_QUERY }));
    await post(JSON.stringify({ query: `{${Array.from({ length: 3000 }, () => 'a:b').join(' ')}}` }));
    const metrics = await (await fetch(`${stack.origin}/metrics`)).text();
    expect(metrics).toMatch(/netgraph_operations_limited_total\{code="COST_ESTIMATED_TOO_EXPENSIVE",limit="nodes"\} [1-9]/);
    expect(metrics).toMatch(/netgraph_operations_limited_total\{code="COST_ESTIMATED_TOO_EXPENSIVE",limit="tokens"\} [1-9]/);
    expect(metrics).toMatch(/netgraph_graphql_operations_total\{transport="http",operation="other",outcome="ok"\} [1-9]/);
  });
});

describe('bad requests get GraphQL answers', () => {
  it.each([
    ['a document that does not parse', { query: '{ networks { ' }, 'GRAPHQL_PARSE_FAILED'],
    ['a document that does not validate', { query: '{ noSuchField }' }, 'GRAPHQL_VALIDATION_FAILED'],
    ['variables that do not coerce', { query: 'query q($n: Int) { networks(first: $n) { totalCount } }', variables: { n: 'many' } }, 'BAD_USER_INPUT'],
  ])('%s: 200 for a client accepting only application/json, 400 with application/graphql-response+json', async (_what, body, code) => {
    const json = await post(JSON.stringify(body), { accept: 'application/json' });
    expect(json.status).toBe(200);
    expect(json.json.errors?.[0]?.extensions?.['code']).toBe(code);
    const strict = await post(JSON.stringify(body));
    expect(strict.status).toBe(400);
  });

  it('malformed JSON: a GraphQL error response with a code, not text/plain', async () => {
    const res = await post('{"query": "{ networks { totalCount } }"');
    expect(res.status).toBe(400);
    expect(res.type).toMatch(/^application\/graphql-response\+json/);
    expect(res.json.errors?.[0]?.extensions?.['code']).toBe('BAD_REQUEST');
  });

  it('a body that is not valid UTF-8 is refused with 400 and never run', async () => {
    stack.sandbox.control.resetCalls();
    const body = Uint8Array.from(Buffer.concat([Buffer.from('{"query":"mutation { createNetwork(input: {name: \\"x'), Buffer.from([0xff, 0xfe]), Buffer.from('\\"}) { accepted } }"}')]));
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.json.errors?.[0]).toMatchObject({ message: expect.stringMatching(/UTF-8/), extensions: { code: 'BAD_REQUEST' } });
    expect(stack.sandbox.control.calls().total).toBe(0);
  });
});

describe('budgets while running', () => {
  let small: Stack;
  afterEach(async () => {
    await small?.close();
  });

  it('an upstream-call budget hit mid-operation keeps the data resolved so far, with the error on the rest', async () => {
    small = await startStack({ seed: 'large', config: { limits: { ...stackLimits(), budget: { ...stackLimits().budget, upstreamCalls: 10 } } } });
    const res = await small.gql(networkGraph, { first: 1000 });
    const codes = (res.body.errors ?? []).map((e) => e.extensions?.['code']);
    expect(codes).toContain('OPERATION_BUDGET_EXCEEDED');
    expect(res.body.errors?.find((e) => e.extensions?.['code'] === 'OPERATION_BUDGET_EXCEEDED')?.extensions?.['limit']).toBe('upstreamCalls');
    expect(res.body.data).toMatchObject({ networkGroups: { totalCount: 2 } });
    expect(small.sandbox.control.calls().total).toBeLessThanOrEqual(10);
  });

  it('a node cap hit mid-operation stops the work and keeps partial data', async () => {
    small = await startStack({ seed: 'large', config: { limits: { ...stackLimits(), budget: { ...stackLimits().budget, nodes: 1000 } } } });
    const res = await small.gql('{ a: networks(first: 2) { nodes { id name } } b: networks { nodes { endpoints(first: 1000) { nodes { id name } } } } }');
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'OPERATION_BUDGET_EXCEEDED', limit: 'nodes' });
    expect((res.body.data?.['a'] as { nodes: unknown[] }).nodes).toHaveLength(2);
  });

  it('the deadline aborts the upstream calls in flight and answers with partial data', async () => {
    small = await startStack({ seed: 'large', config: { limits: { ...stackLimits(), budget: { ...stackLimits().budget, deadlineMs: 300 } } } });
    small.sandbox.control.setFaults([{ route: '/rest/v1/networks/*/endpoints', latencyMs: 5000 }]);
    const res = await small.gql('{ gatewayInfo { sandbox } networks(first: 2) { nodes { id endpoints { totalCount } } } }');
    expect(res.body.data).toMatchObject({ gatewayInfo: { sandbox: true } });
    expect(res.body.errors?.[0]?.extensions).toMatchObject({ code: 'OPERATION_BUDGET_EXCEEDED', limit: 'deadline' });
    // Answered without waiting for the slow calls: not one of them has been answered yet (or ever: they were aborted).
    const timings = small.sandbox.control.timings();
    const slow = timings.filter((t) => /^\/rest\/v1\/networks\/[^/]+\/endpoints$/.test(t.path));
    expect({ slow: slow.length > 0, answered: slow.filter((t) => t.answeredMs !== null) }).toEqual({ slow: true, answered: [] });
    small.sandbox.control.clearFaults();
  });
});

function stackLimits(): Limits {
  return { price: { ...DEFAULT_LIMITS.price }, budget: { ...DEFAULT_LIMITS.budget }, admission: { ...DEFAULT_LIMITS.admission } };
}

describe('fairness and shutdown under load', () => {
  it("answers another caller's small query while heavy admitted operations are still running", async () => {
    // Upstream answers held back, so the heavy operations are surely still running when the small one is asked.
    stack.sandbox.control.resetCalls();
    stack.sandbox.control.setLatency(3000);
    let heavyDone = false;
    const heavy = Promise.all([stack.gql(networkGraph, { first: 1000 }), stack.gql(networkGraph, { first: 1000 })]).finally(() => {
      heavyDone = true;
    });
    await waitUntil(() => stack.sandbox.control.calls().total >= 2, 'both heavy operations calling upstream');
    const small = await stack.gql('{ gatewayInfo { sandbox } }', undefined, { token: stack.tokens.reader });
    expect(small.body).toEqual({ data: { gatewayInfo: { sandbox: true } } });
    expect(heavyDone).toBe(false);
    stack.sandbox.control.setLatency(0);
    // The heavy operations answer too (on a loaded machine the in-process sandbox, sharing the
    // loop, may be slow enough for some upstream timeouts: those are field errors, not failures).
    for (const res of await heavy) expect(res.body.data).toMatchObject({ networkGroups: { totalCount: 2 } });
  });

  it('closing (what SIGTERM does) finishes while heavy operations run', async () => {
    const loaded = await startStack({ seed: 'large', gatewayOptions: { drainTimeoutMs: 300 } });
    const heavy = Array.from({ length: 4 }, () => loaded.gql(networkGraph, { first: 1000 }).catch((error: unknown) => error));
    await waitUntil(() => loaded.sandbox.control.calls().total >= 4, 'the heavy operations calling upstream');
    // Before the limits this never finished at all (the test's timeout would fail it); how fast
    // it finishes is the benchmark's business.
    await loaded.close();
    await Promise.all(heavy);
  });
});
