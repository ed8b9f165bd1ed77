/**
 * A subscription's `subscribe` is run by the WebSocket door, not graphql-ws's loop: the protocol
 * holds as graphql-ws has it. A second subscribe with a running subscription's id closes the
 * socket 4409, and so does a query sent with that id; a `complete` ends just that subscription
 * (the other on the socket goes on getting events); a subscription refused by the pipeline is an
 * `error` message for its document and a `next` then `complete` for a refusal of its run; every
 * slot and poller is given back.
 */
import { WebSocket } from 'ws';
import { startStack, type Stack } from '../../helpers/stack';
import { waitUntil } from '../../helpers/wait';

let stack: Stack;

beforeAll(async () => {
  stack = await startStack({ config: { subscriptions: { pollIntervalMs: 20, pollMaxIntervalMs: 20 } } });
});
afterAll(() => stack.close());

const CHANGES = `subscription($networkId: UUID!) { networkChanges(networkId: $networkId) { networkId snapshot resourceCount } }`;

interface Message {
  id?: string;
  type: string;
  payload?: unknown;
}

/** An acknowledged graphql-transport-ws socket, its messages and its close code. */
async function openSocket(): Promise<{ socket: WebSocket; messages: Message[]; closed: { code: number | null } }> {
  const socket = new WebSocket(stack.wsUrl, 'graphql-transport-ws');
  const messages: Message[] = [];
  const closed: { code: number | null } = { code: null };
  socket.on('message', (data: Buffer) => {
    const parsed: unknown = JSON.parse(data.toString());
    if (typeof parsed === 'object' && parsed !== null && 'type' in parsed && typeof parsed.type === 'string') {
      messages.push({ type: parsed.type, ...('id' in parsed && typeof parsed.id === 'string' ? { id: parsed.id } : {}), ...('payload' in parsed ? { payload: parsed.payload } : {}) });
    }
  });
  socket.once('close', (code: number) => {
    closed.code = code;
  });
  socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${stack.tokens.admin}` } })));
  await waitUntil(() => messages.some((m) => m.type === 'connection_ack'), 'connection_ack');
  return { socket, messages, closed };
}

const subscribe = (socket: WebSocket, id: string, query: string, variables: Record<string, unknown>): void => socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query, variables } }));
const ofId = (messages: readonly Message[], id: string, type: string): Message[] => messages.filter((m) => m.id === id && m.type === type);

it('a subscribe with the id of a running subscription closes the socket 4409, and everything is given back', async () => {
  const networkId = stack.sandbox.restFacts().networks[0]!.id;
  const { socket, messages, closed } = await openSocket();
  subscribe(socket, 'a', CHANGES, { networkId });
  await waitUntil(() => ofId(messages, 'a', 'next').length === 1, 'first event');
  subscribe(socket, 'a', CHANGES, { networkId });
  await waitUntil(() => closed.code !== null, 'the close');
  expect(closed.code).toBe(4409);
  await waitUntil(() => stack.pollerStats().pollers === 0 && stack.wsStats().sockets === 0, () => `pollers ${JSON.stringify(stack.pollerStats())}`);
});

it('a query with the id of a running subscription closes the socket 4409', async () => {
  const networkId = stack.sandbox.restFacts().networks[0]!.id;
  const { socket, messages, closed } = await openSocket();
  subscribe(socket, 'a', CHANGES, { networkId });
  await waitUntil(() => ofId(messages, 'a', 'next').length === 1, 'first event');
  subscribe(socket, 'a', '{ __typename }', {});
  await waitUntil(() => closed.code !== null, 'the close');
  expect(closed.code).toBe(4409);
  await waitUntil(() => stack.pollerStats().pollers === 0, () => `pollers ${JSON.stringify(stack.pollerStats())}`);
});

it('a complete ends just that subscription; the other on the socket still gets events', async () => {
  const networks = stack.sandbox.restFacts().networks;
  const { socket, messages } = await openSocket();
  subscribe(socket, 'a', CHANGES, { networkId: networks[0]!.id });
  subscribe(socket, 'b', CHANGES, { networkId: networks[1]!.id });
  await waitUntil(() => ofId(messages, 'a', 'next').length === 1 && ofId(messages, 'b', 'next').length === 1, 'first events');
  expect(stack.pollerStats()).toEqual({ pollers: 2, subscribers: 2 });
  socket.send(JSON.stringify({ id: 'a', type: 'complete' }));
  await waitUntil(() => stack.pollerStats().pollers === 1, () => `pollers ${JSON.stringify(stack.pollerStats())}`);
  // The id is free again: a new subscription under it runs.
  subscribe(socket, 'a', CHANGES, { networkId: networks[0]!.id });
  await waitUntil(() => ofId(messages, 'a', 'next').length === 2, 'the new subscription’s first event');
  expect(stack.pollerStats()).toEqual({ pollers: 2, subscribers: 2 });
  expect(ofId(messages, 'a', 'complete')).toHaveLength(0);
  socket.close();
  await waitUntil(() => stack.pollerStats().pollers === 0 && stack.wsStats().sockets === 0, () => `pollers ${JSON.stringify(stack.pollerStats())}`);
});

it('a refused subscription: its document refused is an error message; a refusal of its run a next, then complete', async () => {
  const { socket, messages } = await openSocket();
  subscribe(socket, 'bad', 'subscription { noSuchField }', {});
  // A valid document whose run is refused: its variable is not a network id.
  subscribe(socket, 'run', CHANGES, { networkId: 'not-a-uuid' });
  await waitUntil(() => ofId(messages, 'bad', 'error').length === 1 && messages.some((m) => m.id === 'run' && (m.type === 'complete' || m.type === 'error')), 'both answers');
  expect(ofId(messages, 'bad', 'next')).toHaveLength(0);
  expect(ofId(messages, 'bad', 'complete')).toHaveLength(0);
  const run = messages.filter((m) => m.id === 'run').map((m) => m.type);
  expect(run).toEqual(['next', 'complete']);
  expect(stack.pollerStats().pollers).toBe(0);
  socket.close();
});
