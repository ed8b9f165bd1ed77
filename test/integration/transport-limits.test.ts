/**
 * The doors' own limits: a WebSocket message past the HTTP body limit closes its socket, sockets
 * are capped per client address and by Origin; SSE reservations need a token, are capped per
 * caller, expire unopened, and a stream holds a bounded number of unread bytes.
 */
import { WebSocket } from 'ws';
import type { TransportSettings } from '../../src/config';
import { startStack, type Stack } from '../helpers/stack';
import { waitUntil } from '../helpers/wait';

function limits(overrides: Partial<TransportSettings>): { transports: Partial<TransportSettings> } {
  return { transports: overrides };
}

/** Opens a graphql-transport-ws socket; resolves when open, rejects with the refusal's HTTP status. */
function openSocket(url: string, headers: Record<string, string> = {}): Promise<WebSocket> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(url, 'graphql-transport-ws', { headers });
    socket.once('open', () => resolve(socket));
    socket.once('unexpected-response', (_req, res) => reject(new Error(`status ${res.statusCode} retry-after ${String(res.headers['retry-after'])}`)));
    socket.once('error', reject);
  });
}

/** Sends connection_init with `token` and checks the server's answer is connection_ack. */
async function acknowledged(socket: WebSocket, token: string): Promise<void> {
  const answer = new Promise<string>((resolve) => socket.once('message', (data: Buffer) => resolve(data.toString())));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${token}` } }));
  expect(JSON.parse(await answer)).toEqual({ type: 'connection_ack' });
}

function closed(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once('close', (code) => resolve(code)));
}

describe('WebSocket', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: limits({ wsConnectionsPerClient: 2, wsAllowedOrigins: new Set(['https://app.example.com']) }) });
  });
  afterAll(() => stack.close());

  it('closes a socket whose message is larger than the HTTP body limit (1009)', async () => {
    const socket = await openSocket(stack.wsUrl);
    const code = closed(socket);
    // Acknowledged first, so the only thing that can close this socket is the large message
    // (a connection_init that large could lose the race with the init timeout: 4408).
    await acknowledged(socket, stack.tokens.admin);
    socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ gatewayInfo { sandbox } }', variables: { padding: 'x'.repeat(20 * 1024 * 1024) } } }));
    expect(await code).toBe(1009);
  });

  it('acknowledges a connection_init within the limit', async () => {
    const socket = await openSocket(stack.wsUrl);
    await acknowledged(socket, stack.tokens.admin);
    socket.close();
  });

  it('refuses a client address past its share of connections with 429, and takes it again once one closes', async () => {
    const first = await openSocket(stack.wsUrl);
    const second = await openSocket(stack.wsUrl);
    await expect(openSocket(stack.wsUrl)).rejects.toThrow('status 429 retry-after 1');
    const gone = closed(first);
    first.close();
    await gone;
    // The server sees the close a moment after the client does: refused (429) until then.
    const third = await waitUntil(() => openSocket(stack.wsUrl).catch(() => null), 'a socket accepted once one closed', { intervalMs: 20 });
    third.close();
    second.close();
  });

  it('refuses an Origin not on WS_ALLOWED_ORIGINS (403), and accepts a listed one', async () => {
    await expect(openSocket(stack.wsUrl, { origin: 'https://evil.example.com' })).rejects.toThrow('status 403');
    const ok = await openSocket(stack.wsUrl, { origin: 'https://app.example.com' });
    ok.close();
  });
});

describe('SSE single connection mode', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: limits({ sseReservationsPerCaller: 2, sseReservationTtlMs: 300, sseMaxBufferedBytes: 2048 }) });
  });
  afterAll(() => stack.close());

  const reserve = (token: string | null, extra: Record<string, string> = {}): Promise<Response> =>
    fetch(stack.streamUrl, { method: 'PUT', headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...extra } });

  it('needs a token to reserve a stream', async () => {
    const res = await reserve(null);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
  });

  it('makes the stream token itself, whatever the client proposes', async () => {
    const res = await reserve(stack.tokens.reader, { 'x-graphql-event-stream-token': 'chosen-by-client' });
    expect(res.status).toBe(201);
    expect(await res.text()).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('caps reservations per caller (RATE_LIMITED, retryAfter), and expires unopened ones so the share comes back', async () => {
    const token = stack.tokens.admin;
    const first = await reserve(token);
    const second = await reserve(token);
    expect([first.status, second.status]).toEqual([201, 201]);
    const firstToken = await first.text();
    const refused = await reserve(token);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ errors: [{ extensions: { code: 'RATE_LIMITED', limit: 'sseReservations', scope: 'caller', retryAfter: 1 } }] });
    // Another caller still has its own share.
    expect((await reserve(stack.tokens.nobody)).status).toBe(201);
    // Expired (after SSE_RESERVATION_TTL_MS): the share is free again, and the token names no stream any more.
    await waitUntil(async () => (await reserve(token)).status === 201, 'the expired reservations’ share back', { intervalMs: 50 });
    const late = await fetch(stack.streamUrl, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'x-graphql-event-stream-token': firstToken },
      body: JSON.stringify({ query: '{ gatewayInfo { sandbox } }', extensions: { operationId: '1' } }),
    });
    expect(late.status).toBe(404);
  });

});

describe('SSE buffered bytes', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: limits({ sseMaxBufferedBytes: 2048 }) });
  });
  afterAll(() => stack.close());

  const reserve = (token: string): Promise<Response> => fetch(stack.streamUrl, { method: 'PUT', headers: { authorization: `Bearer ${token}` } });

  it('ends a stream’s operations once it holds more unread bytes than SSE_MAX_BUFFERED_BYTES, and refuses new ones', async () => {
    const res = await reserve(stack.tokens.admin);
    const streamToken = await res.text();
    const post = (id: number): Promise<Response> =>
      fetch(stack.streamUrl, {
        method: 'POST',
        headers: { authorization: `Bearer ${stack.tokens.admin}`, 'content-type': 'application/json', 'x-graphql-event-stream-token': streamToken },
        body: JSON.stringify({ query: '{ __schema { types { name } } }', extensions: { operationId: String(id) } }),
      });
    const statuses: number[] = [];
    for (let i = 0; i < 10; i += 1) {
      // A query's answer is counted into the stream's buffer before its POST is acknowledged (202).
      statuses.push((await post(i)).status);
    }
    // Each introspection answer is larger than the cap: the first overflows it, the rest are refused.
    expect(statuses).toEqual([202, ...Array<number>(9).fill(409)]);
    // Opened now, the stream shows the overflow as the operation's error, not the answer.
    const controller = new AbortController();
    const stream = await fetch(stack.streamUrl, { headers: { accept: 'text/event-stream', authorization: `Bearer ${stack.tokens.admin}`, 'x-graphql-event-stream-token': streamToken }, signal: controller.signal });
    const reader = stream.body?.getReader();
    let text = '';
    while (reader && !text.includes('streamBufferedBytes')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    controller.abort();
    expect(text).toContain('OPERATION_BUDGET_EXCEEDED');
    expect(text).not.toContain('"__schema"');
  });
});
