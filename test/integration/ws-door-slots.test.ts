/**
 * The WebSocket door's connection slots cannot leak: every handshake `ws` or Node refuses (no
 * Sec-WebSocket-Key, a bad version, a bad or unsupported subprotocol, a bad method, a client
 * that half-closes or resets before the upgrade completes, a wrong path, headers past Node's
 * limit), twice the per-address share of each, leaves the address its whole share: a real client
 * then opens every socket of it and subscribes. The refusals are logged like any answer. Raw TCP
 * clients on real sockets.
 */
import { connect, type Socket } from 'node:net';
import { WebSocket } from 'ws';
import { startStack, type Stack } from '../helpers/stack';
import { waitUntil } from '../helpers/wait';

const SHARE = 20;
const KEY = 'dGhlIHNhbXBsZSBub25jZQ==';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ config: { transports: { wsConnectionsPerClient: SHARE } } });
});
afterAll(() => stack.close());

/** An upgrade request as a client would write it; `headers` replace or (null) remove the usual ones. */
function upgradeRequest(path: string, headers: Record<string, string | null> = {}, method = 'GET'): string {
  const all: Record<string, string | null> = {
    Host: '127.0.0.1',
    Upgrade: 'websocket',
    Connection: 'Upgrade',
    'Sec-WebSocket-Key': KEY,
    'Sec-WebSocket-Version': '13',
    'Sec-WebSocket-Protocol': 'graphql-transport-ws',
    ...headers,
  };
  const lines = Object.entries(all).flatMap(([name, value]) => (value === null ? [] : [`${name}: ${value}`]));
  return `${method} ${path} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`;
}

/** What the client does after writing its request. */
type Then = 'end-on-answer' | 'half-close' | 'reset';

/** One raw client: writes `request`, then behaves as `then`; resolves with what the server sent once the socket has closed. */
function rawClient(request: string, then: Then): Promise<string> {
  const { port } = new URL(stack.wsUrl);
  return new Promise((resolve) => {
    const socket: Socket = connect(Number(port), '127.0.0.1');
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString('latin1');
      // Whatever the server answered (a refusal, or a 101 and a close frame), this client leaves.
      if (then === 'end-on-answer') socket.end();
    });
    socket.on('error', () => undefined);
    socket.once('close', () => resolve(received));
    socket.once('connect', () => {
      socket.write(request);
      if (then === 'half-close') socket.end();
      if (then === 'reset') socket.resetAndDestroy();
    });
  });
}

const PATH = () => new URL(stack.wsUrl).pathname;

const KINDS: ReadonlyArray<{ name: string; request: () => string; then: Then; answer: RegExp | null }> = [
  { name: 'no Sec-WebSocket-Key', request: () => upgradeRequest(PATH(), { 'Sec-WebSocket-Key': null }), then: 'end-on-answer', answer: /^HTTP\/1\.1 400/ },
  { name: 'a bad Sec-WebSocket-Version', request: () => upgradeRequest(PATH(), { 'Sec-WebSocket-Version': '7' }), then: 'end-on-answer', answer: /^HTTP\/1\.1 400[^]*Sec-WebSocket-Version: 13, 8/i },
  { name: 'a malformed subprotocol header', request: () => upgradeRequest(PATH(), { 'Sec-WebSocket-Protocol': 'a b,,' }), then: 'end-on-answer', answer: /^HTTP\/1\.1 400/ },
  { name: 'an unsupported subprotocol', request: () => upgradeRequest(PATH(), { 'Sec-WebSocket-Protocol': 'chat' }), then: 'end-on-answer', answer: /^HTTP\/1\.1 101/ },
  { name: 'a POST upgrade', request: () => upgradeRequest(PATH(), {}, 'POST'), then: 'end-on-answer', answer: /^HTTP\/1\.1 405/ },
  { name: 'a client that half-closes before the upgrade completes', request: () => upgradeRequest(PATH()), then: 'half-close', answer: null },
  { name: 'a client that resets before the upgrade completes', request: () => upgradeRequest(PATH()), then: 'reset', answer: null },
  { name: 'a wrong path', request: () => upgradeRequest('/not-graphql'), then: 'end-on-answer', answer: null },
  { name: 'headers past the server’s limit', request: () => upgradeRequest(PATH(), { 'X-Padding': 'x'.repeat(32 * 1024) }), then: 'end-on-answer', answer: /^HTTP\/1\.1 431/ },
];

/** A graphql-transport-ws socket, or the refusal's status. */
function openSocket(): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(stack.wsUrl, 'graphql-transport-ws');
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode}`)));
    socket.once('error', reject);
  });
}

/** Opens the address's whole share, waiting out the moment the server needs to see the last bad clients gone. */
async function wholeShare(): Promise<WebSocket[]> {
  const sockets: WebSocket[] = [];
  for (let i = 0; i < SHARE; i += 1) sockets.push(await waitUntil(() => openSocket().catch(() => null), `socket ${i + 1} of the address's share of ${SHARE}`, { intervalMs: 20 }));
  return sockets;
}

async function subscribeOnce(socket: WebSocket): Promise<unknown> {
  const messages: Array<{ type: string; payload?: unknown }> = [];
  socket.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as { type: string }));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${stack.tokens.admin}` } }));
  await waitUntil(() => messages.some((m) => m.type === 'connection_ack'), () => `connection_ack (have ${JSON.stringify(messages)})`);
  socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ gatewayInfo { sandbox } }' } }));
  return waitUntil(() => messages.find((m) => m.type === 'next')?.payload, () => `an answer (have ${JSON.stringify(messages)})`);
}

describe.each(KINDS)('$name', ({ request, then, answer }) => {
  it(`leaves the address its whole share after ${2 * SHARE} of them, and a real client subscribes`, async () => {
    const answers = await Promise.all(Array.from({ length: 2 * SHARE }, () => rawClient(request(), then)));
    if (answer) for (const got of answers) expect(got).toMatch(answer);
    const sockets = await wholeShare();
    try {
      await expect(openSocket()).rejects.toThrow('status 429');
      expect(await subscribeOnce(sockets[0] as WebSocket)).toEqual({ data: { gatewayInfo: { sandbox: true } } });
    } finally {
      const closes = sockets.map((s) => new Promise((resolve) => s.once('close', resolve)));
      for (const socket of sockets) socket.close();
      await Promise.all(closes);
    }
  });
});

it('logs the handshakes ws refuses like any refusal (BAD_REQUEST with their status)', () => {
  const lines = stack.logs.map((line) => JSON.parse(line) as { transport?: string; status?: number; errorCodes?: string[] });
  const refused = (status: number) => lines.filter((l) => l.transport === 'ws' && l.status === status && l.errorCodes?.includes('BAD_REQUEST')).length;
  // No key, bad version, malformed subprotocol: 400 each; a POST: 405; a subprotocol it cannot speak: graphql-ws's 4406.
  expect(refused(400)).toBeGreaterThanOrEqual(3 * 2 * SHARE);
  expect(refused(405)).toBe(2 * SHARE);
  expect(refused(406)).toBe(2 * SHARE);
});
