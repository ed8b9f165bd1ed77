/**
 * Backpressure on the WebSocket door: sockets whose clients stop reading while following
 * `networkChanges` on a large network (each first event is a whole network) are closed with 1013
 * once what they hold unsent would pass `WS_MAX_BUFFERED_BYTES`, the gateway never holds more than
 * that per socket, and their subscriptions end (the shared poller loses its subscribers). Real
 * sockets; the clients pause reading at the TCP level (`ws.pause()`).
 */
import { WebSocket } from 'ws';
import { loadConfig } from '../../src/config';
import { SLOW_READER_CLOSE_CODE } from '../../src/doors/ws-backpressure';
import { startStack, type Stack } from '../helpers/stack';
import { waitUntil } from '../helpers/wait';

const BOUND = 256 * 1024;
const SOCKETS = 4;
/**
 * Per socket: first events (each a whole network, ~60 KB) well past what the kernel's buffers take
 * on loopback (a few MB between the two ends) plus the bound, so the bound is crossed whatever the
 * machine's timing.
 */
const SUBSCRIPTIONS = 200;

const CHANGES = `subscription Live($networkId: UUID!) {
  networkChanges(networkId: $networkId) {
    networkId snapshot resourceCount
    added { kind id name status statusName inProgress endpointType }
  }
}`;

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({
    seed: 'large',
    // One token holds every socket's subscriptions here: its own cap is not what this test is about.
    config: { callers: { ...loadConfig({}).callers, maxSubscriptionsPerCaller: SOCKETS * SUBSCRIPTIONS }, subscriptions: { maxSubscriptionsPerConnection: SUBSCRIPTIONS }, transports: { wsMaxBufferedBytes: BOUND } },
  });
});
afterAll(() => stack.close());

/** An initialised graphql-transport-ws socket. */
async function initialised(): Promise<WebSocket> {
  const socket = new WebSocket(stack.wsUrl, 'graphql-transport-ws');
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  const ack = new Promise<void>((resolve) => socket.once('message', () => resolve()));
  socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${stack.tokens.admin}` } }));
  await ack;
  return socket;
}

it('closes sockets that stop reading with 1013, holding at most WS_MAX_BUFFERED_BYTES each, and ends their subscriptions', async () => {
  const network = stack.sandbox.restFacts().networks[0];
  if (!network) throw new Error('no network');
  const sockets = await Promise.all(Array.from({ length: SOCKETS }, () => initialised()));
  const closedEarly: string[] = [];
  const codes = sockets.map((socket) => new Promise<number>((resolve) => socket.once('close', (code, reason) => {
    closedEarly.push(`${code} ${reason.toString()}`);
    resolve(code);
  })));
  for (const socket of sockets) {
    // Stop reading first: nothing this client is sent from now on is taken off the socket.
    socket.pause();
    for (let i = 0; i < SUBSCRIPTIONS; i += 1) socket.send(JSON.stringify({ id: String(i), type: 'subscribe', payload: { query: CHANGES, variables: { networkId: network.id } } }));
  }

  let largestHeld = 0;
  await waitUntil(
    () => {
      const stats = stack.wsStats();
      largestHeld = Math.max(largestHeld, stats.maxBufferedBytes);
      return stats.closedSlow === SOCKETS;
    },
    () => `${SOCKETS} sockets closed for reading slowly (have ${JSON.stringify(stack.wsStats())}; closes seen by clients: ${closedEarly.join(', ')})`,
    60_000,
  );
  expect(largestHeld).toBeGreaterThan(0);
  expect(largestHeld).toBeLessThanOrEqual(BOUND);
  expect(stack.wsStats().maxBufferedBytes).toBeLessThanOrEqual(BOUND);

  // Once they read again, each client finds the close frame behind what was sent: 1013.
  for (const socket of sockets) socket.resume();
  expect(await Promise.all(codes)).toEqual(sockets.map(() => SLOW_READER_CLOSE_CODE));
  // Their subscriptions ended when the sockets were closed for it (before their close handshakes
  // ended): the network's poller has no subscriber left; then the sockets are gone too.
  await waitUntil(() => stack.pollerStats().subscribers === 0, () => `no subscribers (have ${JSON.stringify(stack.pollerStats())})`, 10_000);
  await waitUntil(() => stack.wsStats().sockets === 0, () => `no sockets (have ${JSON.stringify(stack.wsStats())})`, 10_000);
}, 120_000);

it('leaves a socket that reads alone', async () => {
  const network = stack.sandbox.restFacts().networks[0];
  if (!network) throw new Error('no network');
  const socket = await initialised();
  const first = new Promise<{ type: string; payload?: { data?: { networkChanges?: { snapshot?: boolean } } } }>((resolve) => socket.once('message', (data: Buffer) => resolve(JSON.parse(data.toString()) as never)));
  socket.send(JSON.stringify({ id: '1', type: 'subscribe', payload: { query: CHANGES, variables: { networkId: network.id } } }));
  expect(await first).toMatchObject({ type: 'next', payload: { data: { networkChanges: { snapshot: true } } } });
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)));
  socket.close(1000);
  expect(await closed).toBe(1000);
  expect(stack.wsStats().closedSlow).toBe(SOCKETS);
});
