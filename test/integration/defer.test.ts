/**
 * @defer over every door, against the sandbox: the first part arrives while the slow call is still
 * held (a fault rule holds it; the sandbox has not answered it when the part is read), the parts
 * merged equal the plain answer, a JSON-only client and MCP get the whole result in one answer, an
 * expensive deferred query is refused before any call exactly as the plain one, a deferred
 * fragment's errors come in its part with their path, and a client that leaves after the first
 * part causes no further upstream call.
 */
import { request, type IncomingMessage } from 'node:http';
import { meros } from 'meros/node';
import { sha256 } from '../../src/persisted/trusted-documents';
import { CYCLE_QUERY } from '../helpers/abusive-queries';
import { connectMcp, structured } from '../helpers/mcp';
import { startStack, type Stack } from '../helpers/stack';
import { Clients, type EventLog, type Result } from '../helpers/subscriptions';
import { pause, waitUntil } from '../helpers/wait';

let stack: Stack;
const clients = new Clients(() => stack);

beforeAll(async () => {
  // No upstream cache: every run of the query calls the held route again.
  stack = await startStack({ config: { cache: { maxBytes: 0 } } });
});

afterEach(async () => {
  stack.sandbox.control.clearFaults();
  await clients.disposeAll();
});

afterAll(async () => {
  await stack.close();
});

/** The slow part: a list of networks (held by a fault rule), then a call per network for its AppWANs. */
const SLOW_ROUTE = '/rest/v1/networks';
const FAST = 'geoRegions(first: 2) { nodes { id name } }';
const SLOW = 'networks(first: 2) { nodes { id name appWans(first: 1) { nodes { id name } } } }';
const PLAIN = `query Page { ${FAST} ${SLOW} }`;
const DEFERRED = `query Page { ${FAST} ... @defer(label: "networks") { ${SLOW} } }`;
/** Long enough that the first part is read while the list is held, whatever the machine's load. */
const HOLD_MS = 2500;

type Payload = Result & { hasNext?: boolean; incremental?: Array<{ data?: Record<string, unknown> | null; items?: unknown[]; path: Array<string | number>; label?: string; errors?: Result['errors'] }> };

/** Whether the sandbox has received the held list call and not answered it yet. */
function slowCallHeld(): boolean {
  const calls = stack.sandbox.control.timings().filter((t) => t.path.startsWith(SLOW_ROUTE) && !t.path.includes('appWans'));
  return calls.length > 0 && calls.every((t) => t.answeredMs === null);
}

/** Holds the list of networks from now on (the call log starts afresh). */
function holdSlowCall(): void {
  stack.sandbox.control.resetCalls();
  stack.sandbox.control.setFaults([{ method: 'GET', route: SLOW_ROUTE, latencyMs: HOLD_MS }]);
}

/** The parts merged the way a client merges them (2022 format). */
function merge(parts: readonly Payload[]): Result {
  const [first, ...rest] = parts;
  const data = structuredClone(first?.data ?? {}) as Record<string, unknown>;
  const errors = [...(first?.errors ?? [])];
  for (const part of rest) {
    for (const item of part.incremental ?? []) {
      errors.push(...(item.errors ?? []));
      if (item.data) {
        let at: unknown = data;
        for (const key of item.path) at = (at as Record<string | number, unknown>)[key];
        Object.assign(at as Record<string, unknown>, item.data);
      }
    }
  }
  return errors.length > 0 ? { data, errors } : { data };
}

/** One POST to /graphql read part by part (meros): the parts so far, the response, and how to leave. */
async function multipart(query: string | Record<string, unknown>, accept = 'multipart/mixed;deferSpec=20220824, application/json') {
  const url = new URL(stack.gatewayUrl);
  const body = JSON.stringify(typeof query === 'string' ? { query } : query);
  const response = await new Promise<IncomingMessage>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { 'content-type': 'application/json', accept, authorization: `Bearer ${stack.tokens.admin}` } }, resolve);
    req.once('error', reject);
    req.end(body);
  });
  const parts: Payload[] = [];
  let ended = false;
  const reading = async (): Promise<void> => {
    if (!/^multipart\/mixed/.test(response.headers['content-type'] ?? '')) {
      let text = '';
      for await (const chunk of response) text += String(chunk);
      parts.push(JSON.parse(text) as Payload);
      return;
    }
    const result = await meros<Payload>(response);
    if (!(Symbol.asyncIterator in result)) throw new Error('meros read no parts');
    for await (const part of result) if (part.json) parts.push(part.body);
  };
  // A client that leaves stops reading: its read ends then.
  const read = reading().catch((error: unknown) => {
    if (!response.destroyed) throw error;
  }).finally(() => {
    ended = true;
  });
  return { response, parts, read, ended: () => ended, leave: () => response.destroy() };
}

describe('HTTP multipart/mixed', () => {
  it('sends the first part while the slow call is held, then the rest; merged, the parts are the plain answer', async () => {
    const plain = await stack.gql(PLAIN);
    expect(plain.body.errors).toBeUndefined();
    holdSlowCall();
    const answer = await multipart(DEFERRED);
    expect(answer.response.headers['content-type']).toBe('multipart/mixed; boundary="-"; deferSpec=20220824');
    await waitUntil(() => answer.parts.length >= 1, 'the first part');
    expect(slowCallHeld()).toBe(true);
    expect(answer.parts[0]).toEqual({ data: { geoRegions: plain.body.data?.['geoRegions'] }, hasNext: true });
    await answer.read;
    expect(answer.parts.at(-1)?.hasNext).toBe(false);
    expect(answer.parts[1]?.incremental?.[0]).toMatchObject({ path: [], label: 'networks' });
    expect(merge(answer.parts)).toEqual(plain.body);
  });

  it('answers a client that accepts only JSON with the whole result in one body', async () => {
    const plain = await stack.gql(PLAIN);
    const res = await stack.gql(DEFERRED, undefined, { headers: { accept: 'application/json' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(plain.body);
  });

  it('answers a query that defers nothing as JSON to a client accepting multipart', async () => {
    const answer = await multipart(PLAIN);
    await answer.read;
    expect(answer.response.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.parts).toHaveLength(1);
    expect(answer.parts[0]?.data).toBeDefined();
  });
});

describe('rules before any call', () => {
  it('refuses an expensive deferred query before any call, exactly as the plain one', async () => {
    const deferredCycle = `{ gatewayInfo { sandbox } ... @defer ${CYCLE_QUERY} }`;
    stack.sandbox.control.resetCalls();
    const plain = await stack.gql(CYCLE_QUERY);
    const answer = await multipart(deferredCycle, 'multipart/mixed;deferSpec=20220824, application/graphql-response+json');
    await answer.read;
    expect(answer.response.statusCode).toBe(plain.status);
    expect(answer.parts).toEqual([plain.body]);
    expect(plain.body.errors?.[0]?.extensions?.['code']).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
    const ws = clients.follow(clients.ws(), deferredCycle);
    await ws.ended();
    expect(ws.results).toEqual([plain.body]);
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('runs a deferred persisted query by its hash alone, in parts (APQ)', async () => {
    const plain = await stack.gql(PLAIN);
    const extensions = { persistedQuery: { version: 1, sha256Hash: sha256(DEFERRED) } };
    const unknown = await multipart({ extensions });
    await unknown.read;
    expect(unknown.parts[0]?.errors?.[0]?.extensions?.['code']).toBe('PERSISTED_QUERY_NOT_FOUND');
    for (const body of [{ query: DEFERRED, extensions }, { extensions }]) {
      const answer = await multipart(body);
      await answer.read;
      expect(answer.response.headers['content-type']).toMatch(/^multipart\/mixed/);
      expect(merge(answer.parts)).toEqual(plain.body);
    }
  });

  it('refuses a negative @stream initialCount (literal or variable) as bad input, before any call', async () => {
    stack.sandbox.control.resetCalls();
    const literal = await multipart('{ networks(first: 2) { nodes @stream(initialCount: -1) { id } } }');
    const variable = await multipart({ query: 'query($n: Int!) { networks(first: 2) { nodes @stream(initialCount: $n) { id } } }', variables: { n: -3 } });
    for (const answer of [literal, variable]) {
      await answer.read;
      expect(answer.parts).toHaveLength(1);
      expect(answer.parts[0]?.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(answer.parts[0]?.errors?.[0]?.message).toMatch(/initialCount .*at least 0/);
    }
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('refuses a deferred mutation before anything runs, with or without an idempotency key', async () => {
    stack.sandbox.control.resetCalls();
    const mutation = 'mutation { ... @defer { deleteNetwork(id: "3c3ed9c0-50a0-4a30-8d1a-8e2cc4b1fb0a") { id } } }';
    const keys: Array<Record<string, string>> = [{}, { 'idempotency-key': 'defer-1' }];
    for (const headers of keys) {
      const res = await stack.gql(mutation, undefined, { headers });
      expect(res.body.errors?.[0]?.extensions?.['code']).toBe('BAD_REQUEST');
      expect(res.body.errors?.[0]?.message).toMatch(/@defer and @stream run in queries only/);
    }
    expect(stack.sandbox.control.calls().total).toBe(0);
  });
});

describe('errors in a deferred fragment', () => {
  it('come in that part with their path, and the first part stands', async () => {
    stack.sandbox.control.setFaults([{ method: 'GET', route: SLOW_ROUTE, errorRate: 1, status: 404 }]);
    const answer = await multipart(DEFERRED);
    await answer.read;
    expect(answer.parts[0]).toMatchObject({ data: { geoRegions: { nodes: expect.any(Array) } }, hasNext: true });
    const deferred = answer.parts[1]?.incremental?.[0];
    expect(deferred?.data).toEqual({ networks: null });
    expect(deferred?.errors?.[0]?.path).toEqual(['networks']);
    expect(answer.parts[1]?.hasNext).toBe(false);
  });
});

/** One door's run of the deferred query: its parts as they come, and how to leave. */
interface DoorRun {
  parts(): readonly Payload[];
  done(): Promise<void>;
  leave(): void;
}

const DOORS: Record<string, () => Promise<DoorRun>> = {
  http: async () => {
    const answer = await multipart(DEFERRED);
    return { parts: () => answer.parts, done: () => answer.read, leave: answer.leave };
  },
  ws: async () => logRun(clients.follow(clients.ws(), DEFERRED)),
  sse: async () => logRun(clients.follow(clients.sse(), DEFERRED)),
};

function logRun(log: EventLog): DoorRun {
  return { parts: () => log.results as Payload[], done: () => log.ended(), leave: () => log.unsubscribe() };
}

interface LogLine {
  transport?: string;
  operationName?: string | null;
  status?: number;
  upstreamCalls?: number;
}

/** The log lines of the deferred query's runs on `door`. */
function pageLines(door: string): LogLine[] {
  return stack.logs.map((line) => JSON.parse(line) as LogLine).filter((l) => l.transport === door && l.operationName === 'Page');
}

describe.each(Object.keys(DOORS))('over %s', (door) => {
  const start = DOORS[door] as () => Promise<DoorRun>;

  it('the first part arrives while the slow call is held; merged, the parts equal the plain answer', async () => {
    const plain = await stack.gql(PLAIN);
    const logged = pageLines(door).length;
    holdSlowCall();
    const run = await start();
    await waitUntil(() => run.parts().length >= 1, 'the first part');
    expect(slowCallHeld()).toBe(true);
    expect(run.parts()[0]?.hasNext).toBe(true);
    // Logged once, when its last part is sent: not yet.
    expect(pageLines(door)).toHaveLength(logged);
    await run.done();
    expect(run.parts().at(-1)?.hasNext).toBe(false);
    expect(merge(run.parts())).toEqual(plain.body);
    await waitUntil(() => pageLines(door).length > logged, 'the log line');
    expect(pageLines(door)).toHaveLength(logged + 1);
    expect(pageLines(door).at(-1)?.upstreamCalls).toBe(stack.sandbox.control.calls().total);
  });

  it('a client that leaves after the first part causes no further upstream call', async () => {
    holdSlowCall();
    const logged = pageLines(door).length;
    const run = await start();
    await waitUntil(() => run.parts().length >= 1, 'the first part');
    expect(slowCallHeld()).toBe(true);
    const before = stack.sandbox.control.calls().total;
    run.leave();
    // The held call's time passes: had the gateway still waited for it, its AppWAN calls would follow.
    await pause(HOLD_MS + 300);
    expect(stack.sandbox.control.calls().total).toBe(before);
    // Logged once, when it left, with the calls made until then.
    expect(pageLines(door)).toHaveLength(logged + 1);
    expect(pageLines(door).at(-1)?.upstreamCalls).toBe(before);
    expect(Object.keys(stack.sandbox.control.calls().byRoute).filter((route) => route.includes('appWans'))).toEqual([]);
  });
});

describe('MCP', () => {
  it('answers a deferred query with the whole result', async () => {
    const plain = await stack.gql(PLAIN);
    const mcp = await connectMcp(stack.origin, stack.tokens.admin);
    try {
      const result = await mcp.callTool({ name: 'execute', arguments: { query: DEFERRED } });
      expect(structured(result as never)).toEqual(plain.body.data);
    } finally {
      await mcp.close();
    }
  });
});
