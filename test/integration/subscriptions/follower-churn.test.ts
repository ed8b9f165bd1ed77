/**
 * Nothing leaks when followers come and go: rounds of sockets that each follow a network twice
 * (networkChanges) and leave, some by completing, some by dropping the socket, leave no poller,
 * no poller subscriber, no socket and no active subscription behind; the last follower leaving
 * stops the network's poller.
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

/** A raw graphql-transport-ws socket following `networkId` twice (ids "a" and "b"); counts its first events. */
function follower(networkId: string): { socket: WebSocket; firsts: Set<string>; complete(id: string): void } {
  const socket = new WebSocket(stack.wsUrl, 'graphql-transport-ws');
  const firsts = new Set<string>();
  socket.once('open', () => socket.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${stack.tokens.admin}` } })));
  socket.on('message', (data: Buffer) => {
    const message: unknown = JSON.parse(data.toString());
    if (typeof message !== 'object' || message === null) return;
    if ('type' in message && message.type === 'connection_ack') {
      for (const id of ['a', 'b']) socket.send(JSON.stringify({ id, type: 'subscribe', payload: { query: CHANGES, variables: { networkId } } }));
    } else if ('type' in message && message.type === 'next' && 'id' in message && typeof message.id === 'string') firsts.add(message.id);
  });
  return { socket, firsts, complete: (id) => socket.send(JSON.stringify({ id, type: 'complete' })) };
}

async function subscriptionsActive(): Promise<number> {
  const text = await (await fetch(stack.metricsUrl)).text();
  return [...text.matchAll(/^netgraph_subscriptions_active\{[^}]*\} (\d+)/gm)].reduce((sum, m) => sum + Number(m[1]), 0);
}

it('rounds of followers coming and going leave no poller, subscriber, socket or subscription behind', async () => {
  const networkId = stack.sandbox.restFacts().networks[0]!.id;
  const idle = { pollers: stack.pollerStats(), sockets: stack.wsStats().sockets, subscriptions: await subscriptionsActive() };
  expect(idle).toEqual({ pollers: { pollers: 0, subscribers: 0 }, sockets: 0, subscriptions: 0 });
  for (let round = 0; round < 5; round += 1) {
    const followers = Array.from({ length: 8 }, () => follower(networkId));
    await waitUntil(() => followers.every((f) => f.firsts.size === 2), () => `round ${round}: every first event`);
    expect({ pollers: stack.pollerStats(), sockets: stack.wsStats().sockets, subscriptions: await subscriptionsActive() }).toEqual({ pollers: { pollers: 1, subscribers: 16 }, sockets: 8, subscriptions: 16 });
    // Half complete their subscriptions and then close; the others drop the socket.
    followers.forEach((f, i) => {
      if (i % 2 === 0) {
        f.complete('a');
        f.complete('b');
        f.socket.close();
      } else f.socket.terminate();
    });
    await waitUntil(() => stack.pollerStats().pollers === 0 && stack.wsStats().sockets === 0, () => `round ${round}: pollers ${JSON.stringify(stack.pollerStats())}, sockets ${stack.wsStats().sockets}`);
  }
  expect({ pollers: stack.pollerStats(), sockets: stack.wsStats().sockets, subscriptions: await subscriptionsActive() }).toEqual(idle);
});
