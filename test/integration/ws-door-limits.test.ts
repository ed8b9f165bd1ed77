/**
 * The WebSocket door's per-connection limits, on real sockets: the operations one socket has in
 * flight are bounded (the one past the bound is refused with an `error` message, RATE_LIMITED,
 * the others answered, the socket stays); its protocol refusals (4401, 4403) are logged and
 * counted; a follower that stops reading during a burst of changes is closed (1013) once what it
 * was sent passes `WS_MAX_BUFFERED_BYTES`, while another follower of the same network gets every
 * event.
 */
import { WebSocket } from 'ws';
import { SLOW_READER_CLOSE_CODE } from '../../src/doors/ws-backpressure';
import { startStack, type Stack } from '../helpers/stack';
import { Clients } from '../helpers/subscriptions';
import { waitUntil } from '../helpers/wait';
import { openBurstSocket } from '../helpers/ws-burst';

const MAX_OPERATIONS = 5;
/** Larger than one event of the slow-follower test (about 600 KB), so the socket never holds more than it. */
const BOUND = 1024 * 1024;

let stack: Stack;
const clients = new Clients(() => stack);
beforeAll(async () => {
  stack = await startStack({
    seed: 'large',
    config: {
      subscriptions: { networkPollIntervalMs: 20, networkPollMaxIntervalMs: 20 },
      transports: { wsMaxOperationsPerConnection: MAX_OPERATIONS, wsMaxBufferedBytes: BOUND },
    },
  });
});
afterEach(() => clients.disposeAll());
afterAll(() => stack.close());

interface LogLine {
  transport?: string;
  status?: number;
  errorCodes?: string[];
}
const logLines = (): LogLine[] => stack.logs.map((line) => JSON.parse(line) as LogLine);

async function metric(pattern: RegExp): Promise<number> {
  const text = await (await fetch(stack.metricsUrl)).text();
  const line = text.split('\n').find((l) => pattern.test(l));
  return line === undefined ? 0 : Number(line.split(' ').at(-1));
}

describe('operations in flight per connection', () => {
  it('refuses the one past WS_MAX_OPERATIONS_PER_CONNECTION with an error message (RATE_LIMITED), answers the others, and keeps the socket', async () => {
    const limitedBefore = await metric(/^netgraph_operations_limited_total\{.*limit="operationsPerConnection"/);
    // The upstream answers slowly: every query of the burst is still in flight when the next arrives.
    stack.sandbox.control.setFaults([{ route: '/rest/v1/geoRegions', latencyMs: 1500 }]);
    const socket = await openBurstSocket(stack.wsUrl, `Bearer ${stack.tokens.admin}`);
    try {
      socket.burst(Array.from({ length: MAX_OPERATIONS + 1 }, (_, n) => ({ id: `q${n}`, type: 'subscribe', payload: { query: '{ geoRegions { nodes { id } } }' } })));
      await waitUntil(() => socket.messages.filter((m) => m.type === 'complete' || m.type === 'error').length === MAX_OPERATIONS + 1, () => `every operation ended (have ${JSON.stringify(socket.messages)})`);
      const errors = socket.messages.filter((m) => m.type === 'error');
      expect(errors).toEqual([{ id: `q${MAX_OPERATIONS}`, type: 'error', payload: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'RATE_LIMITED', limit: 'operationsPerConnection', max: MAX_OPERATIONS }) })] }]);
      const answered = socket.messages.filter((m) => m.type === 'next');
      expect(answered).toHaveLength(MAX_OPERATIONS);
      for (const answer of answered) expect(answer.payload).toMatchObject({ data: { geoRegions: { nodes: expect.any(Array) } } });
      stack.sandbox.control.clearFaults();
      // The socket is still there and takes operations again once the others are answered.
      socket.burst([{ id: 'after', type: 'subscribe', payload: { query: '{ gatewayInfo { sandbox } }' } }]);
      await waitUntil(() => socket.messages.find((m) => m.id === 'after' && m.type === 'next'), 'the next operation answered');
    } finally {
      stack.sandbox.control.clearFaults();
      socket.close();
    }
    expect(logLines().filter((l) => l.transport === 'ws' && l.status === 429 && l.errorCodes?.includes('RATE_LIMITED'))).toHaveLength(1);
    expect(await metric(/^netgraph_operations_limited_total\{.*limit="operationsPerConnection"/)).toBe(limitedBefore + 1);
  });
});

describe('protocol refusals', () => {
  function closeOf(send: (socket: WebSocket) => void): Promise<number> {
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(stack.wsUrl, 'graphql-transport-ws');
      socket.once('open', () => send(socket));
      socket.once('close', (code) => resolve(code));
      socket.once('error', reject);
    });
  }

  it('logs and counts a connection_init refused (4403) and an operation before connection_init (4401)', async () => {
    const forbidden = await closeOf((s) => s.send(JSON.stringify({ type: 'connection_init', payload: { authorization: 'not a bearer token at all' } })));
    const unauthorised = await closeOf((s) => s.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: '{ gatewayInfo { sandbox } }' } })));
    expect([forbidden, unauthorised]).toEqual([4403, 4401]);
    const lines = logLines().filter((l) => l.transport === 'ws');
    expect(lines.filter((l) => l.status === 403 && l.errorCodes?.includes('FORBIDDEN'))).toHaveLength(1);
    expect(lines.filter((l) => l.status === 401 && l.errorCodes?.includes('UNAUTHENTICATED'))).toHaveLength(1);
  });
});

describe('a follower that stops reading', () => {
  // Each change of every endpoint is a large event: the kernel's buffers between the two ends (a
  // few MB on loopback) fill within a few changes, then the bound is what is left.
  const WIDE = 8;
  const CHANGES = `subscription Live($networkId: UUID!) {
    networkChanges(networkId: $networkId) { snapshot changed { kind id before { statusName name } after { statusName name } } ${Array.from({ length: WIDE }, (_, i) => `c${i}: changed { kind id before { statusName name } after { statusName name } }`).join(' ')} }
  }`;
  interface ChangesEvent {
    snapshot: boolean;
    changed: unknown[];
  }

  it('is closed (1013) once its queued events pass WS_MAX_BUFFERED_BYTES, while another follower of the network gets every event', async () => {
    const network = stack.sandbox.restFacts().networks[0];
    if (!network) throw new Error('no network');
    const variables = { networkId: network.id };
    const reader = clients.follow(clients.ws(), CHANGES, variables);
    await reader.events(1);
    const changesSeen = (): number => (reader.values('networkChanges') as ChangesEvent[]).reduce((sum, event) => sum + event.changed.length, 0);

    // The slow follower: acknowledged and subscribed, its first event read, then it stops reading.
    const slow = new WebSocket(stack.wsUrl, 'graphql-transport-ws');
    const messages: Array<{ type: string }> = [];
    slow.on('message', (data: Buffer) => messages.push(JSON.parse(data.toString()) as { type: string }));
    let closedWith = '';
    const code = new Promise<number>((resolve) => slow.once('close', (c, reason) => {
      closedWith = `${c} ${reason.toString()}`;
      resolve(c);
    }));
    await new Promise((resolve, reject) => {
      slow.once('open', resolve);
      slow.once('error', reject);
    });
    slow.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${stack.tokens.admin}` } }));
    await waitUntil(() => messages.find((m) => m.type === 'connection_ack'), () => `connection_ack (closed ${closedWith})`);
    slow.send(JSON.stringify({ id: 'slow', type: 'subscribe', payload: { query: CHANGES, variables } }));
    await waitUntil(() => messages.find((m) => m.type === 'next'), () => `the slow follower's first event (have ${JSON.stringify(messages)}, closed ${closedWith})`);
    const closedSlowBefore = stack.wsStats().closedSlow;
    slow.pause();

    // A burst of changes, each one event: every endpoint of the network turns ERROR, then back.
    let toggles = 0;
    let largestHeld = 0;
    while (stack.wsStats().closedSlow === closedSlowBefore) {
      if (toggles >= 1000) throw new Error(`the slow follower was never closed (${JSON.stringify(stack.wsStats())})`);
      const status = toggles % 2 === 0 ? 500 : 300;
      for (const id of network.endpointIds) stack.sandbox.control.setStatus({ kind: 'endpoint', id, status });
      toggles += 1;
      // One event per toggle, or two when a poll's pages straddle it: either way every endpoint's change.
      await waitUntil(() => changesSeen() === toggles * network.endpointIds.length, () => `${toggles * network.endpointIds.length} changes (have ${changesSeen()})`);
      largestHeld = Math.max(largestHeld, stack.wsStats().maxBufferedBytes);
    }

    // The reader got every change, never held up by the slow one.
    expect(changesSeen()).toBe(toggles * network.endpointIds.length);
    expect(toggles).toBeGreaterThan(1);
    expect(largestHeld).toBeLessThanOrEqual(BOUND);
    // Reading again, the slow client finds the close frame behind what it was sent.
    slow.resume();
    expect(await code).toBe(SLOW_READER_CLOSE_CODE);
    // Its subscription ended; the reader's goes on with the shared poller.
    await waitUntil(() => stack.pollerStats().subscribers === 1, () => `one subscriber left (have ${JSON.stringify(stack.pollerStats())})`);
    expect(logLines().filter((l) => l.transport === 'ws' && l.status === 503 && l.errorCodes?.includes('OPERATION_BUDGET_EXCEEDED'))).toHaveLength(1);
  }, 120_000);
});
