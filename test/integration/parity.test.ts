/**
 * One pipeline behind every door: each case runs over HTTP (a plain POST, a GET, and the automatic
 * persisted-query protocol through Apollo Server), WebSocket, Server-Sent Events and MCP (the
 * `execute` tool) and must get the same answer or refusal (data, error codes and
 * `extensions`), the same number of upstream calls (zero for a refusal) and the same facts in its
 * log line. MCP shows an assistant only some extensions (never `upstream`): those are compared.
 * Requests refused for how they came (a mutation by GET, a POST a page could forge, a persisted
 * query's hash misspelt) get the same refusal and status on every door that can carry them.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_LIMITS } from '../../src/limits/limits';
import { sha256 as sha256Hex } from '../../src/persisted/trusted-documents';
import { CYCLE_QUERY } from '../helpers/abusive-queries';
import { postGraphQL, startStack, type Stack } from '../helpers/stack';
import { Clients, firstAnswerErrors, type Result } from '../helpers/subscriptions';
import { connectMcp } from '../helpers/mcp';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

type Door = 'http' | 'ws' | 'sse' | 'mcp';
/** Each door, and HTTP twice more: by GET (queries), and by automatic persisted query (hash, then the document with it). */
type Leg = Door | 'http-get' | 'http-apq';
const LEGS: readonly Leg[] = ['http', 'http-get', 'http-apq', 'ws', 'sse', 'mcp'];
const doorOf = (leg: Leg): Door => (leg === 'http-get' || leg === 'http-apq' ? 'http' : leg);
/** What the MCP door shows of an error's extensions. */
const SHOWN_TO_ASSISTANTS = ['code', 'field', 'cost', 'limit', 'max', 'scope', 'retryAfter', 'outcomeUnknown'];

/** What a client sees of one operation, whatever the door. */
interface Seen {
  data: unknown;
  errors: Array<{ code: unknown; extensions: Record<string, unknown> }>;
  calls: number;
  log: { errorCodes: unknown; upstreamCalls: unknown; operationName: unknown } | null;
}

interface Case {
  name: string;
  query: string | ((leg: Leg) => string);
  variables?: Record<string, unknown>;
  /** The bearer token (default: the sandbox admin's); null sends none. */
  token?: (stack: Stack) => string | null;
  /** Which stack runs it. @default 'plain' */
  stack?: 'plain' | 'budget' | 'trusted';
  /** What every door must show (checked on HTTP's answer; the other doors must equal it). */
  expect: { codes: string[]; data: 'some' | 'none'; calls: 'none' | 'some' };
  /** Calls the gateway sends on its own, not the operation's (the identity check of a token): not in the log line's count. @default 0 */
  ownCalls?: number;
  /** Keep only what does not depend on the door (e.g. created names). */
  normalize?: (data: unknown) => unknown;
  /** Not sent by GET: a mutation (GET refuses it, its own case), or a document too long for a URL. */
  noGet?: boolean;
}

const ALIASES = `{ ${Array.from({ length: 500 }, (_, i) => `a${i}: gatewayInfo { sandbox }`).join(' ')} }`;
const MEGABYTE = `{ gatewayInfo { sandbox } }\n#${'x'.repeat(1_000_000)}`;
const LISTED = '{ gatewayInfo { sandbox } }';

const CASES: Case[] = [
  { name: 'a legitimate query', query: '{ networks(first: 2) { totalCount nodes { id name } } }', expect: { codes: [], data: 'some', calls: 'some' } },
  {
    name: 'a mutation',
    query: (door) => `mutation { createNetwork(input: { name: "parity-${door}" }) { accepted network { name } } }`,
    expect: { codes: [], data: 'some', calls: 'some' },
    normalize: (data) => JSON.parse(JSON.stringify(data).replace(/parity-(http-apq|http-get|http|ws|sse|mcp)/g, 'parity')) as unknown,
    noGet: true,
  },
  { name: 'the deep re-entrant query', query: CYCLE_QUERY, expect: { codes: ['COST_ESTIMATED_TOO_EXPENSIVE'], data: 'none', calls: 'none' } },
  { name: '500 aliases', query: ALIASES, expect: { codes: ['COST_ESTIMATED_TOO_EXPENSIVE'], data: 'none', calls: 'none' }, noGet: true },
  { name: 'a 1 MB document', query: MEGABYTE, expect: { codes: ['COST_ESTIMATED_TOO_EXPENSIVE'], data: 'none', calls: 'none' }, noGet: true },
  { name: 'a syntax error', query: '{ networks(first: 2) { nodes { id }', expect: { codes: ['GRAPHQL_PARSE_FAILED'], data: 'none', calls: 'none' } },
  { name: 'an unknown field', query: '{ networks { nope } }', expect: { codes: ['GRAPHQL_VALIDATION_FAILED'], data: 'none', calls: 'none' } },
  { name: 'an unlisted document under trusted-documents-only', stack: 'trusted', query: '{ networks(first: 1) { nodes { id } } }', expect: { codes: ['PERSISTED_QUERY_NOT_IN_LIST'], data: 'none', calls: 'none' } },
  { name: 'an unlisted mutation under trusted-documents-only', stack: 'trusted', query: 'mutation { createNetwork(input: { name: "never" }) { accepted } }', expect: { codes: ['PERSISTED_QUERY_NOT_IN_LIST'], data: 'none', calls: 'none' }, noGet: true },
  { name: 'a listed document under trusted-documents-only', stack: 'trusted', query: LISTED, expect: { codes: [], data: 'some', calls: 'none' } },
  {
    name: 'a budget hit mid-run',
    stack: 'budget',
    query: '{ gatewayInfo { sandbox } networks(first: 3) { nodes { id } } }',
    expect: { codes: ['OPERATION_BUDGET_EXCEEDED'], data: 'some', calls: 'some' },
  },
  {
    name: 'an expired token',
    query: '{ networks(first: 1) { nodes { id } } }',
    token: (stack) => stack.sandbox.tokenService.sign({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 60 }),
    expect: { codes: ['UNAUTHENTICATED'], data: 'some', calls: 'some' },
  },
  {
    // A heavy operation's turn is the verified identity's: a made-up bearer (a new one per door)
    // costs one identity check and runs nothing.
    name: 'a heavy query with a made-up bearer',
    query: '{ networks(first: 100) { nodes { endpoints(first: 100) { nodes { appWans(first: 100) { nodes { id } } } } } } }',
    token: () => randomBytes(24).toString('base64url'),
    ownCalls: 1,
    expect: { codes: ['UNAUTHENTICATED'], data: 'none', calls: 'some' },
  },
];

const stacks: Record<'plain' | 'budget' | 'trusted', Stack | null> = { plain: null, budget: null, trusted: null };
const clients: Record<string, Clients> = {};

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'netgraph-parity-'));
  const manifest = join(dir, 'manifest.json');
  writeFileSync(manifest, JSON.stringify({ [sha256Hex(LISTED)]: LISTED }));
  const [plain, budget, trusted] = await Promise.all([
    startStack({ config: { mcp: { mutations: 'all' } } }),
    // A budget of one node: the network list crosses it as it runs; gatewayInfo's data stays.
    startStack({ config: { limits: { ...DEFAULT_LIMITS, budget: { ...DEFAULT_LIMITS.budget, nodes: 1 } }, mcp: { mutations: 'all' } } }),
    startStack({ config: { documents: { trustedDocuments: manifest, trustedDocumentsOnly: true } } }),
  ]);
  Object.assign(stacks, { plain, budget, trusted });
  for (const [name, stack] of Object.entries(stacks)) if (stack) clients[name] = new Clients(() => stack);
});
afterEach(async () => {
  for (const c of Object.values(clients)) await c.disposeAll();
});
afterAll(async () => {
  await Promise.all(Object.values(stacks).map((s) => s?.close()));
});

function lastLog(stack: Stack, door: Door): Seen['log'] {
  for (let i = stack.logs.length - 1; i >= 0; i -= 1) {
    const line = JSON.parse(stack.logs[i] ?? '{}') as Record<string, unknown>;
    if (line['msg'] === 'graphql' && line['transport'] === door) return { errorCodes: line['errorCodes'], upstreamCalls: line['upstreamCalls'], operationName: line['operationName'] };
  }
  return null;
}

function seen(results: Result[], clientError: unknown): Pick<Seen, 'data' | 'errors'> {
  const errors = [...results.flatMap((r) => r.errors ?? []), ...(Array.isArray(clientError) ? (clientError as Result['errors'] & object) : [])];
  return {
    data: results[0]?.data ?? null,
    errors: errors.map((e) => ({ code: e.extensions?.['code'], extensions: e.extensions ?? {} })),
  };
}

/**
 * A refusal the SSE door answered as HTTP (a status and a JSON body, as /graphql answers it):
 * graphql-sse's client hands the response over unread, in a NetworkError.
 */
async function refusalErrors(clientError: unknown): Promise<unknown> {
  if (typeof clientError !== 'object' || clientError === null || !('response' in clientError)) return clientError;
  const { response } = clientError as { response?: Response };
  if (response === undefined) return clientError;
  const body = (await response.json()) as { errors?: unknown };
  return body.errors ?? clientError;
}

/** A tool result as a GraphQL answer: its structured data, or the errors (and partial data) of a tool error. */
function fromTool(result: CallToolResult): Pick<Seen, 'data' | 'errors'> {
  if (!result.isError) return { data: result.structuredContent ?? null, errors: [] };
  const json = result.content.find((c) => c.type === 'text' && c.text.startsWith('{'));
  const parsed = json && json.type === 'text' ? (JSON.parse(json.text) as { errors: Array<{ extensions: Record<string, unknown> }>; data?: unknown }) : { errors: [] };
  return { data: parsed.data ?? null, errors: parsed.errors.map((e) => ({ code: e.extensions['code'], extensions: e.extensions })) };
}

/** Only what an assistant is shown of each error's extensions. */
function shown(errors: Seen['errors'] | undefined): Seen['errors'] | undefined {
  return errors?.map((e) => ({ code: e.code, extensions: Object.fromEntries(Object.entries(e.extensions).filter(([k]) => SHOWN_TO_ASSISTANTS.includes(k))) }));
}

/** A GraphQL request over HTTP as a client library sends it by GET or with APQ: the parsed answer. */
async function overHttpAs(leg: 'http-get' | 'http-apq', stack: Stack, query: string, variables: Record<string, unknown> | undefined, token: string | null): Promise<Result> {
  const headers: Record<string, string> = { accept: 'application/graphql-response+json, application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const extensions = { persistedQuery: { version: 1, sha256Hash: sha256Hex(query) } };
  let res: Response;
  if (leg === 'http-get') {
    const search = new URLSearchParams({ query, ...(variables ? { variables: JSON.stringify(variables) } : {}) });
    res = await fetch(`${stack.gatewayUrl}?${search.toString()}`, { headers: { ...headers, 'apollo-require-preflight': 'true' } });
  } else {
    const post = (body: Record<string, unknown>): Promise<Response> => fetch(stack.gatewayUrl, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    // The APQ protocol: the hash alone first (unknown unless registered before), then the document with it.
    const byHash = await post({ extensions, ...(variables ? { variables } : {}) });
    const first = (await byHash.json()) as Result;
    const code = first.errors?.[0]?.extensions?.['code'];
    res = code === 'PERSISTED_QUERY_NOT_FOUND' ? await post({ query, extensions, ...(variables ? { variables } : {}) }) : new Response(JSON.stringify(first));
  }
  return (await res.json()) as Result;
}

async function send(leg: Leg, stack: Stack, c: Case): Promise<Seen> {
  const door = doorOf(leg);
  const query = typeof c.query === 'function' ? c.query(leg) : c.query;
  const token = c.token ? c.token(stack) : stack.tokens.admin;
  const before = stack.sandbox.control.calls().total;
  let answer: Pick<Seen, 'data' | 'errors'>;
  if (leg === 'http-get' || leg === 'http-apq') {
    answer = seen([await overHttpAs(leg, stack, query, c.variables, token)], null);
  } else if (door === 'http') {
    const res = await postGraphQL(stack.gatewayUrl, query, c.variables, { token });
    answer = seen([res.body as Result], null);
  } else if (door === 'mcp') {
    const client = await connectMcp(stack.origin, token);
    try {
      answer = fromTool((await client.callTool({ name: 'execute', arguments: { query, ...(c.variables ? { variables: c.variables } : {}) } })) as CallToolResult);
    } finally {
      await client.close();
    }
  } else {
    const pool = clients[c.stack ?? 'plain'];
    if (!pool) throw new Error('no clients');
    const client = door === 'ws' ? pool.ws(token) : pool.sse(token);
    const log = pool.follow(client, query, c.variables);
    await log.ended();
    answer = seen(log.results, await refusalErrors(log.error));
  }
  return { ...answer, calls: stack.sandbox.control.calls().total - before, log: lastLog(stack, door) };
}

describe.each(CASES)('$name', (c) => {
  it('gets the same answer, upstream calls and log facts over HTTP (POST, GET, APQ), WebSocket, SSE and MCP', async () => {
    const stack = stacks[c.stack ?? 'plain'];
    if (!stack) throw new Error('stack not started');
    const byDoor: Partial<Record<Leg, Seen>> = {};
    // `execute` is not offered under trusted documents only: there, the listed tools are the MCP door.
    const doors = LEGS.filter((leg) => (leg !== 'mcp' || c.stack !== 'trusted') && (leg !== 'http-get' || !c.noGet));
    for (const door of doors) byDoor[door] = await send(door, stack, c);
    const http = byDoor.http;
    if (!http) throw new Error('no HTTP answer');
    const normalize = c.normalize ?? ((d: unknown) => d);
    // What the case says, on HTTP.
    expect(http.errors.map((e) => e.code)).toEqual(c.expect.codes);
    expect(http.data === null || http.data === undefined ? 'none' : 'some').toBe(c.expect.data);
    expect(http.calls > 0 ? 'some' : 'none').toBe(c.expect.calls);
    expect(http.log).toMatchObject({ errorCodes: c.expect.codes, upstreamCalls: http.calls - (c.ownCalls ?? 0) });
    // The same on every other door.
    for (const door of doors) {
      const other = byDoor[door];
      const errors = door === 'mcp' ? shown(http.errors) : http.errors;
      expect({ door, data: normalize(other?.data ?? null), errors: door === 'mcp' ? shown(other?.errors) : other?.errors, calls: other?.calls, log: other?.log }).toEqual({
        door,
        data: normalize(http.data ?? null),
        errors,
        calls: http.calls,
        log: http.log,
      });
    }
  });
});

/** What a door answered to a request refused for how it came: its HTTP status (none on a WebSocket), errors, and the log line's facts. */
interface WireSeen {
  status: number | null;
  errors: Seen['errors'];
  calls: number;
  log: Seen['log'];
}

const WIRE_MUTATION = 'mutation { createNetwork(input: { name: "never-by-wire" }) { accepted } }';
const MISSPELT = { persistedQuery: { version: 1, sha256Hash: sha256Hex(WIRE_MUTATION).toUpperCase() } };

/** One request sent as raw HTTP: its status and errors (whatever the body's framing). */
async function overHttp(stack: Stack, path: string, init: RequestInit & { search?: Record<string, unknown> }): Promise<Pick<WireSeen, 'status' | 'errors'>> {
  const search = init.search ? `?${new URLSearchParams(Object.entries(init.search).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString()}` : '';
  const res = await fetch(`${stack.origin}${path}${search}`, { ...init, headers: { authorization: `Bearer ${stack.tokens.admin}`, accept: 'application/graphql-response+json', ...(init.headers as Record<string, string>) } });
  const text = await res.text();
  const body = (text.startsWith('{') ? JSON.parse(text) : {}) as { errors?: Array<{ extensions?: Record<string, unknown> }> };
  return { status: res.status, errors: (body.errors ?? []).map((e) => ({ code: e.extensions?.['code'], extensions: e.extensions ?? {} })) };
}

/** One subscribe message over graphql-transport-ws: the codes of its answer (a socket has no status). */
async function overWs(stack: Stack, payload: Record<string, unknown>): Promise<Pick<WireSeen, 'status' | 'errors'>> {
  const errors = await firstAnswerErrors(stack.wsUrl, stack.tokens.admin, payload);
  return { status: null, errors: errors.map((extensions) => ({ code: extensions['code'], extensions })) };
}

interface WireCase {
  name: string;
  expect: { codes: string[]; status: number };
  /** How each door that can carry the request sends it. */
  doors: Partial<Record<Door, (stack: Stack) => Promise<Pick<WireSeen, 'status' | 'errors'>>>>;
}

const SSE_ACCEPT = { accept: 'text/event-stream' };
const WIRE_CASES: WireCase[] = [
  {
    name: 'a mutation sent by GET',
    expect: { codes: ['BAD_REQUEST'], status: 405 },
    doors: {
      http: (stack) => overHttp(stack, '/graphql', { search: { query: WIRE_MUTATION }, headers: { 'apollo-require-preflight': 'true' } }),
      sse: (stack) => overHttp(stack, '/graphql/stream', { search: { query: WIRE_MUTATION }, headers: SSE_ACCEPT }),
    },
  },
  {
    name: 'a POST a page could forge (text/plain; x=application/json)',
    expect: { codes: ['BAD_REQUEST'], status: 400 },
    doors: Object.fromEntries(
      (['http', 'sse'] as const).map((door) => [door, (stack: Stack) => overHttp(stack, door === 'http' ? '/graphql' : '/graphql/stream', { method: 'POST', headers: { 'content-type': 'text/plain; x=application/json', ...(door === 'sse' ? SSE_ACCEPT : {}) }, body: JSON.stringify({ query: WIRE_MUTATION }) })]),
    ),
  },
  {
    name: 'a persisted-query hash in upper case, with its document',
    expect: { codes: ['BAD_REQUEST'], status: 400 },
    doors: {
      http: (stack) => overHttp(stack, '/graphql', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: WIRE_MUTATION, extensions: MISSPELT }) }),
      sse: (stack) => overHttp(stack, '/graphql/stream', { method: 'POST', headers: { 'content-type': 'application/json', ...SSE_ACCEPT }, body: JSON.stringify({ query: WIRE_MUTATION, extensions: MISSPELT }) }),
      ws: (stack) => overWs(stack, { query: WIRE_MUTATION, extensions: MISSPELT }),
    },
  },
];

describe.each(WIRE_CASES)('$name', (c) => {
  it('gets the same refusal, status, no upstream call and the same log facts on every door that can carry it', async () => {
    const stack = stacks.plain;
    if (!stack) throw new Error('stack not started');
    const byDoor: Partial<Record<Door, WireSeen>> = {};
    for (const [door, send] of Object.entries(c.doors) as Array<[Door, (s: Stack) => Promise<Pick<WireSeen, 'status' | 'errors'>>]>) {
      const before = stack.sandbox.control.calls().total;
      const answer = await send(stack);
      byDoor[door] = { ...answer, calls: stack.sandbox.control.calls().total - before, log: lastLog(stack, door) };
    }
    const http = byDoor.http;
    if (!http) throw new Error('no HTTP answer');
    expect(http).toMatchObject({ status: c.expect.status, calls: 0, log: { errorCodes: c.expect.codes, upstreamCalls: 0 } });
    expect(http.errors.map((e) => e.code)).toEqual(c.expect.codes);
    for (const [door, other] of Object.entries(byDoor)) {
      expect({ door, ...other, status: other.status ?? http.status }).toEqual({ door, ...http });
    }
  });
});
