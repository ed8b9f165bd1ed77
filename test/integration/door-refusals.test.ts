/**
 * Every door is one object of one list: the gateway starts each (its stats appear, by name) and
 * stops each (open sockets and event streams end). Every refusal at a door's edge, including the
 * answers graphql-sse and the MCP SDK word themselves, is logged and counted like any answer:
 * a log line with its door, status and code, one more in `netgraph_graphql_operations_total`, one
 * more in the door's `refused` stat.
 */
import WebSocket from 'ws';
import { DOOR_NAMES, type Door } from '../../src/core/doors';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import type { RunningGateway } from '../../src/server';
import { startTestGateway } from '../helpers/stack';
import { waitUntil } from '../helpers/wait';

let sandbox: RunningSandbox;
let gateway: RunningGateway;
const logs: string[] = [];

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'tiny' });
  gateway = await startTestGateway({ upstream: { baseUrl: null } }, { sandbox, log: (line) => logs.push(line) });
});
afterAll(async () => {
  await gateway.close();
  await sandbox.close();
});

const origin = (): string => new URL(gateway.url).origin;
const auth = (): Record<string, string> => ({ authorization: `Bearer ${sandbox.tokens.admin}` });

/** `netgraph_graphql_operations_total` for a door's refusals (no operation name) with this outcome. */
async function counted(door: Door, outcome: string): Promise<number> {
  const text = await (await fetch(gateway.metricsUrl)).text();
  const line = new RegExp(`^netgraph_graphql_operations_total\\{transport="${door}",operation="-",outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text);
  return Number(line?.[1] ?? 0);
}

interface LogLine {
  transport?: string;
  status?: number;
  errorCodes?: string[];
}

const logLines = (): LogLine[] => logs.map((line) => JSON.parse(line) as LogLine & { msg?: string }).filter((line) => line.msg === 'graphql');

interface EdgeCase {
  door: Door;
  name: string;
  /** Sends the request; resolves with the status the client saw (a WebSocket: its close code). */
  send(): Promise<number>;
  /** `status`: what the client saw; `logged`: the log line's status (none when the wire answered 200 with an error inside). */
  expect: { status: number; logged: number | null; code: string; outcome: string };
}

/** Opens a graphql-transport-ws socket, sends `connection_init` with this payload, resolves with the close code. */
function wsInit(payload: unknown): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(gateway.wsUrl, 'graphql-transport-ws');
    socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload })));
    socket.once('close', (code) => resolve(code));
    socket.once('error', reject);
  });
}

const mcpPost = (body: unknown): Promise<Response> =>
  fetch(`${origin()}/mcp`, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: JSON.stringify(body) });

const CASES: EdgeCase[] = [
  {
    door: 'http',
    name: 'an Accept with no JSON',
    send: async () => (await fetch(gateway.url, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json', accept: 'text/plain' }, body: JSON.stringify({ query: '{ gatewayInfo { sandbox } }' }) })).status,
    expect: { status: 406, logged: 406, code: 'BAD_REQUEST', outcome: 'bad_request' },
  },
  {
    door: 'ws',
    name: 'a connection_init whose authorization is no bearer (graphql-ws closes 4403)',
    send: () => wsInit({ authorization: 'nonsense' }),
    expect: { status: 4403, logged: 403, code: 'FORBIDDEN', outcome: 'errors' },
  },
  {
    door: 'sse',
    name: 'an operation posted to a stream nobody reserved (graphql-sse: 404)',
    send: async () =>
      (await fetch(gateway.streamUrl, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json', accept: 'application/json', 'x-graphql-event-stream-token': 'never-reserved' }, body: JSON.stringify({ query: '{ gatewayInfo { sandbox } }', extensions: { operationId: '1' } }) })).status,
    expect: { status: 404, logged: 404, code: 'NOT_FOUND', outcome: 'errors' },
  },
  {
    door: 'sse',
    name: 'an event stream request with no query (graphql-sse: 400)',
    send: async () => (await fetch(gateway.streamUrl, { headers: { ...auth(), accept: 'text/event-stream' } })).status,
    expect: { status: 400, logged: 400, code: 'BAD_REQUEST', outcome: 'bad_request' },
  },
  {
    door: 'sse',
    name: 'a method graphql-sse does not take on a reserved stream (405)',
    send: async () => {
      const token = await (await fetch(gateway.streamUrl, { method: 'PUT', headers: auth() })).text();
      return (await fetch(gateway.streamUrl, { method: 'PATCH', headers: { ...auth(), 'x-graphql-event-stream-token': token } })).status;
    },
    expect: { status: 405, logged: 405, code: 'BAD_REQUEST', outcome: 'bad_request' },
  },
  {
    door: 'sse',
    name: 'a body over 1 MiB',
    send: async () =>
      (await fetch(gateway.streamUrl, { method: 'POST', headers: { ...auth(), 'content-type': 'application/json', accept: 'text/event-stream' }, body: JSON.stringify({ query: `{ gatewayInfo { sandbox } } #${'x'.repeat(1_100_000)}` }) })).status,
    expect: { status: 413, logged: 413, code: 'BAD_REQUEST', outcome: 'bad_request' },
  },
  {
    door: 'mcp',
    name: 'a JSON-RPC method the MCP server does not know (its own error, in a 200)',
    send: async () => {
      const res = await mcpPost({ jsonrpc: '2.0', id: 1, method: 'no/such-method' });
      expect(await res.text()).toMatch(/-32601/);
      return res.status;
    },
    expect: { status: 200, logged: null, code: 'BAD_REQUEST', outcome: 'bad_request' },
  },
  {
    door: 'mcp',
    name: 'a tool call naming no tool',
    send: async () => {
      const res = await mcpPost({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'no_such_tool', arguments: {} } });
      expect(await res.text()).toMatch(/-32602/);
      return res.status;
    },
    expect: { status: 200, logged: null, code: 'BAD_REQUEST', outcome: 'bad_request' },
  },
];

describe("every door's edge refusals", () => {
  it.each(CASES.map((c) => [`${c.door}: ${c.name}`, c] as const))('%s is logged, counted in /metrics and in the door stats', async (_name, c) => {
    const before = { counted: await counted(c.door, c.expect.outcome), refused: gateway.doorStats()[c.door]?.['refused'] ?? 0, logs: logLines().length };
    expect(await c.send()).toBe(c.expect.status);
    const line = await waitUntil(
      () => logLines().slice(before.logs).find((l) => l.transport === c.door && l.errorCodes?.includes(c.expect.code)) ?? undefined,
      () => `a ${c.door} log line with ${c.expect.code} (have ${JSON.stringify(logLines().slice(before.logs))})`,
    );
    expect(line.status).toBe(c.expect.logged ?? undefined);
    expect(await counted(c.door, c.expect.outcome)).toBe(before.counted + 1);
    expect(gateway.doorStats()[c.door]?.['refused']).toBe(before.refused + 1);
  });
});

describe('the door list', () => {
  it('starts every door (their stats appear by name) and stops each: open sockets and event streams end', async () => {
    const own = await startTestGateway({ upstream: { baseUrl: null } }, { sandbox });
    let closed = false;
    try {
      expect(Object.keys(own.doorStats()).sort()).toEqual([...DOOR_NAMES].sort());
      // An open WebSocket (acknowledged) and an open reserved event stream.
      const socket = new WebSocket(own.wsUrl, 'graphql-transport-ws');
      const closeCode = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
      await new Promise<void>((resolve, reject) => {
        socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: auth() })));
        socket.on('message', (data: Buffer) => {
          if ((JSON.parse(data.toString()) as { type?: string }).type === 'connection_ack') resolve();
        });
        socket.once('error', reject);
      });
      const streamUrl = own.streamUrl;
      const token = await (await fetch(streamUrl, { method: 'PUT', headers: auth() })).text();
      const stream = await fetch(streamUrl, { headers: { ...auth(), accept: 'text/event-stream', 'x-graphql-event-stream-token': token } });
      const reader = stream.body?.getReader();
      if (!reader) throw new Error('no event stream body');
      await reader.read();
      expect(own.doorStats()).toMatchObject({ ws: { sockets: 1 }, sse: { open: 1, reservations: 1 } });

      await own.close();
      closed = true;
      expect(await closeCode).toBe(1001);
      // The stream ends (or is cut) with the gateway.
      await reader.read().then(
        async function drainAll(step): Promise<void> {
          if (!step.done) return reader.read().then(drainAll);
        },
        () => undefined,
      );
      expect(own.doorStats()).toMatchObject({ ws: { sockets: 0 }, sse: { open: 0, reservations: 0 } });
    } finally {
      if (!closed) await own.close();
    }
  });
});
