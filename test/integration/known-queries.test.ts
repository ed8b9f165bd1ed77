/**
 * Known queries (src/server/known-queries.ts) answer exactly what Apollo's pipeline answers: each
 * request is sent twice to one gateway, the first answered by Apollo (the query becomes known), the
 * second without Apollo's pipeline, and the two responses are compared whole: status, content type,
 * body, and the upstream calls each made. Requests outside the plain form, or that Apollo must
 * word (variables that do not coerce, a refused cost, an Accept it cannot serve), are handed to
 * Apollo both times. Runs on both executors (jest projects).
 */
import { readFacts, type UpstreamFacts } from '../../bench/facts';
import { BENCH_QUERIES } from '../../bench/queries';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startGateway, type RunningGateway } from '../../src/server';
import { testConfig } from '../helpers/stack';

let sandbox: RunningSandbox;
let gateway: RunningGateway;
let facts: UpstreamFacts;

/** The network list takes it: the endpoints after it cross the budget. */
const BUDGET_CALLS = 1;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'tiny', stepMs: 20 });
  gateway = await startGateway(testConfig({ upstreamBaseUrl: null, retryAttempts: 1 }), { log: () => undefined, sandbox });
  facts = await readFacts(sandbox.baseUrl, sandbox.tokens.admin, { url: sandbox.searchUrl, ...sandbox.searchCredentials });
}, 60_000);

afterAll(async () => {
  await gateway?.close();
  await sandbox?.close();
});

interface Sent {
  status: number;
  contentType: string | null;
  /** Header names, sorted, without those that differ per response (date, request id). */
  headerNames: string[];
  body: string;
  upstreamCalls: number;
}

interface RequestSpec {
  query?: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  extensions?: Record<string, unknown>;
  token?: string | null;
  /** Extra headers; null removes a default one. */
  headers?: Record<string, string | null>;
  /** A raw body instead of the JSON of the fields above. */
  rawBody?: string;
}

const PER_RESPONSE = new Set(['date', 'x-request-id', 'keep-alive', 'connection']);

async function send(spec: RequestSpec, url = gateway.url): Promise<Sent> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json' };
  for (const [name, value] of Object.entries(spec.headers ?? {})) {
    if (value === null) delete headers[name];
    else headers[name] = value;
  }
  const token = spec.token === undefined ? sandbox.tokens.admin : spec.token;
  if (token !== null) headers['authorization'] = `Bearer ${token}`;
  const { rawBody, token: _token, headers: _headers, ...fields } = spec;
  const before = sandbox.control.calls().total;
  const res = await fetch(url, { method: 'POST', headers, body: rawBody ?? JSON.stringify(fields) });
  const body = await res.text();
  const names: string[] = [];
  res.headers.forEach((_value, name) => names.push(name));
  const headerNames = names.filter((name) => !PER_RESPONSE.has(name)).sort();
  return { status: res.status, contentType: res.headers.get('content-type'), headerNames, body, upstreamCalls: sandbox.control.calls().total - before };
}

/**
 * Sends `spec` twice and expects the same response both times; `known` says whether the second
 * was answered without Apollo's pipeline. Returns the second response.
 */
async function twice(spec: RequestSpec, known: boolean): Promise<Sent> {
  const first = await send(spec);
  const served = gateway.knownQueryStats().served;
  const second = await send(spec);
  expect({ spec, second }).toEqual({ spec, second: first });
  expect({ spec, knownServed: gateway.knownQueryStats().served - served }).toEqual({ spec, knownServed: known ? 1 : 0 });
  return second;
}

function errorCodesOf(sent: Sent): unknown[] {
  const parsed: unknown = JSON.parse(sent.body);
  if (typeof parsed !== 'object' || parsed === null || !('errors' in parsed) || !Array.isArray(parsed.errors)) return [];
  return parsed.errors.map((e: unknown) => (typeof e === 'object' && e !== null && 'extensions' in e && typeof e.extensions === 'object' && e.extensions !== null && 'code' in e.extensions ? e.extensions.code : null));
}

function firstNetworkId(): string {
  const network = facts.networks[0];
  if (!network) throw new Error('the tiny seed has no network');
  return network.id;
}

it('answers every bench query the same, without Apollo the second time', async () => {
  let ran = 0;
  for (const q of BENCH_QUERIES) {
    if (q.unavailable(facts) !== null) continue;
    const sent = await twice({ query: q.document, variables: q.variables(facts) }, true);
    expect({ name: q.name, status: sent.status, errors: errorCodesOf(sent) }).toEqual({ name: q.name, status: 200, errors: [] });
    expect(sent.upstreamCalls).toBeGreaterThan(0);
    ran += 1;
  }
  expect(ran).toBeGreaterThan(3);
});

it('answers errors beside data the same: not found, forbidden, failing upstream, a crossed budget', async () => {
  const missing = await twice({ query: 'query M($id: UUID!) { network(id: $id) { id name } }', variables: { id: '00000000-0000-4000-8000-000000000000' } }, true);
  expect(missing.body).toContain('"data"');
  const forbidden = await twice({ query: '{ networks(first: 2) { nodes { id } } superUsers { totalCount } }', token: sandbox.tokens.reader }, true);
  expect({ status: forbidden.status, codes: errorCodesOf(forbidden) }).toEqual({ status: 200, codes: ['FORBIDDEN'] });
  sandbox.control.setFaults([{ method: 'GET', route: '**', errorRate: 1, status: 500 }]);
  try {
    const failing = await twice({ query: '{ networks(first: 2) { totalCount nodes { id } } networkGroups { totalCount } }' }, true);
    expect(errorCodesOf(failing).length).toBeGreaterThan(0);
    expect(errorCodesOf(failing).every((code) => typeof code === 'string' && code.startsWith('UPSTREAM_'))).toBe(true);
  } finally {
    sandbox.control.clearFaults();
  }
  const small = await startGateway(testConfig({ upstreamBaseUrl: null, limits: { ...testConfig().limits, budget: { ...testConfig().limits.budget, upstreamCalls: BUDGET_CALLS } } }), {
    log: () => undefined,
    sandbox,
  });
  try {
    const spec = { query: '{ networks(first: 10) { nodes { id endpoints(first: 5) { nodes { id } } } } }' };
    const first = await send(spec, small.url);
    const second = await send(spec, small.url);
    expect(second).toEqual(first);
    expect(small.knownQueryStats().served).toBe(1);
    expect(errorCodesOf(second)).toContain('OPERATION_BUDGET_EXCEEDED');
    expect(second.upstreamCalls).toBe(BUDGET_CALLS);
  } finally {
    await small.close();
  }
});

it('adds the same cost report, asked by header or by extension', async () => {
  const query = 'query C($id: UUID!) { network(id: $id) { id endpoints(first: 3) { nodes { id } } } }';
  const byHeader = await twice({ query, variables: { id: firstNetworkId() }, headers: { 'netgraph-cost': 'true' } }, true);
  const report = (JSON.parse(byHeader.body) as { extensions?: { cost?: { actual?: { upstreamCalls?: unknown } } } }).extensions?.cost;
  expect(report?.actual?.upstreamCalls).toBe(byHeader.upstreamCalls);
  const byExtension = await twice({ query, variables: { id: firstNetworkId() }, extensions: { cost: true } }, true);
  expect(byExtension.body).toBe(byHeader.body);
  const notAsked = await twice({ query, variables: { id: firstNetworkId() } }, true);
  expect(notAsked.body).not.toContain('"extensions"');
});

it('negotiates the content type as Apollo does, and hands over an Accept it cannot serve', async () => {
  const query = '{ networkGroups { totalCount } }';
  const types: Array<[string | null, string]> = [
    ['application/json', 'application/json; charset=utf-8'],
    ['application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
    ['application/json;q=0.5, application/graphql-response+json', 'application/graphql-response+json; charset=utf-8'],
    ['*/*', 'application/json; charset=utf-8'],
    [null, 'application/json; charset=utf-8'],
  ];
  for (const [accept, expected] of types) {
    // Without an Accept header, undici's fetch sends `*/*`: answered alike.
    const sent = await twice({ query, headers: { accept } }, true);
    expect({ accept, contentType: sent.contentType }).toEqual({ accept, contentType: expected });
  }
  const refused = await twice({ query, headers: { accept: 'text/html' } }, false);
  expect(refused.status).toBe(406);
});

it('hands Apollo what it must word: variables that do not coerce, a refused cost, an unknown operation name; serves a resolver\'s refusal', async () => {
  const byId = 'query N($id: UUID!) { network(id: $id) { id } }';
  await twice({ query: byId, variables: { id: firstNetworkId() } }, true);
  const badUuid = await twice({ query: byId, variables: { id: 'nope' } }, false);
  expect({ status: badUuid.status, codes: errorCodesOf(badUuid) }).toEqual({ status: 400, codes: ['BAD_USER_INPUT'] });
  const missing = await twice({ query: byId, variables: {} }, false);
  expect(errorCodesOf(missing)).toEqual(['BAD_USER_INPUT']);

  const page = 'query P($first: Int) { networks(first: $first) { nodes { id } } }';
  await twice({ query: page, variables: { first: 2 } }, true);
  // Refused by the resolver, before any call: an error beside data, served like any other.
  const tooMany = await twice({ query: page, variables: { first: 5000 } }, true);
  expect({ codes: errorCodesOf(tooMany), calls: tooMany.upstreamCalls }).toEqual({ codes: ['BAD_USER_INPUT'], calls: 0 });

  const deep = 'query D($first: Int!) { networks(first: $first) { nodes { endpoints(first: $first) { nodes { appWans { nodes { endpoints(first: $first) { nodes { appWans { nodes { endpoints(first: $first) { nodes { id } } } } } } } } } } } } }';
  await twice({ query: deep, variables: { first: 2 } }, true);
  const expensive = await twice({ query: deep, variables: { first: 1000 } }, false);
  expect({ codes: errorCodesOf(expensive), calls: expensive.upstreamCalls }).toEqual({ codes: ['COST_ESTIMATED_TOO_EXPENSIVE'], calls: 0 });

  const two = 'query A { networks(first: 1) { nodes { id } } } query B { networkGroups { totalCount } }';
  await twice({ query: two, operationName: 'B' }, true);
  await twice({ query: two, operationName: 'A' }, true);
  const unknown = await twice({ query: two, operationName: 'C' }, false);
  expect(errorCodesOf(unknown)).toEqual(['OPERATION_RESOLUTION_FAILURE']);
  const none = await twice({ query: two }, false);
  expect(errorCodesOf(none)).toEqual(['OPERATION_RESOLUTION_FAILURE']);
});

it('leaves to Apollo what is not a plain query: mutations, other extensions, odd fields, GET', async () => {
  const network = firstNetworkId();
  const mutation = await twice({ query: `mutation { updateNetwork(id: "${network}", input: { name: "" }) { accepted } }` }, false);
  expect(errorCodesOf(mutation)).toEqual(['BAD_USER_INPUT']);
  const query = '{ networkGroups { totalCount } }';
  await twice({ query }, true);
  await twice({ query, extensions: { tracing: true } }, false);
  await twice({ query, rawBody: JSON.stringify({ query, variables: 'not an object' }) }, false);
  await twice({ query, rawBody: JSON.stringify({ query, operationName: 7 }) }, false);
  await twice({ query, rawBody: JSON.stringify([{ query }]) }, false);
  const served = gateway.knownQueryStats().served;
  const res = await fetch(`${gateway.url}?query=${encodeURIComponent(query)}`, {
    headers: { authorization: `Bearer ${sandbox.tokens.admin}`, accept: 'application/json', 'apollo-require-preflight': 'true' },
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toEqual({ data: { networkGroups: { totalCount: expect.any(Number) } } });
  expect(gateway.knownQueryStats().served).toBe(served);
});

it('keeps callers apart: a known query runs with each caller\'s own token', async () => {
  const query = '{ superUsers { totalCount } }';
  const admin = await twice({ query }, true);
  const reader = await twice({ query, token: sandbox.tokens.reader }, true);
  expect(errorCodesOf(admin)).toEqual([]);
  expect(errorCodesOf(reader)).toEqual(['FORBIDDEN']);
});
