/**
 * Bounds and teardown: subscriptions per connection (a WebSocket; an SSE stream in single
 * connection mode), pollers per gateway, and a gateway that closes with subscriptions running.
 */
import { ManualClock } from '../../../src/sandbox';
import { startStack, type Stack } from '../../helpers/stack';
import { Clients, sandboxRest } from '../../helpers/subscriptions';
import { waitUntil } from '../../helpers/wait';

let stack: Stack;
const clients = new Clients(() => stack);

beforeAll(async () => {
  stack = await startStack({ clock: new ManualClock(1000), config: { subscriptions: { pollIntervalMs: 20, pollMaxIntervalMs: 20, maxSubscriptionsPerConnection: 2, maxPollers: 3 } } });
});
afterEach(() => clients.disposeAll());
afterAll(() => stack?.close());

const HEARTBEAT = 'subscription { heartbeat(intervalSeconds: 3600) { sequence } }';
const STATUS = 'subscription ($id: UUID!) { resourceStatus(kind: NETWORK, id: $id) { statusName } }';

async function newNetwork(name: string): Promise<string> {
  return String((await sandboxRest(stack, 'POST', '/networks', { name })).body['id']);
}

describe('subscriptions per connection', () => {
  it.each([
    ['a WebSocket', () => clients.ws()],
    ['an SSE stream in single connection mode', () => clients.sse(stack.tokens.admin, true)],
  ])('refuses a third subscription on %s, and takes one again once another completes', async (_name, makeClient) => {
    const client = makeClient();
    const first = clients.follow(client, HEARTBEAT);
    const second = clients.follow(client, HEARTBEAT);
    await first.events(1);
    await second.events(1);
    const third = clients.follow(client, HEARTBEAT);
    await third.ended();
    expect(third.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'RATE_LIMITED', limit: 'subscriptionsPerConnection', max: 2 } });

    // Another connection has its own slots.
    const elsewhere = clients.follow(clients.ws(), HEARTBEAT);
    await elsewhere.events(1);

    first.unsubscribe();
    // The slot comes back once the gateway has seen the unsubscribe: refused until then.
    const fourth = await waitUntil(async () => {
      const attempt = clients.follow(client, HEARTBEAT);
      await attempt.events(1);
      return attempt.results[0]?.errors === undefined ? attempt : null;
    }, 'a subscription accepted in the freed slot');
    expect(fourth.results[0]?.errors).toBeUndefined();
  });
});

describe('pollers per gateway', () => {
  it('refuses a new target past MAX_POLLERS, while a subscriber of a running target still joins', async () => {
    const ids = [await newNetwork('limits-1'), await newNetwork('limits-2'), await newNetwork('limits-3'), await newNetwork('limits-4')];
    const running = ids.slice(0, 3).map((id) => clients.follow(clients.ws(), STATUS, { id }));
    for (const log of running) await log.events(1);
    expect(stack.pollerStats().pollers).toBe(3);

    const refused = clients.follow(clients.ws(), STATUS, { id: ids[3] });
    await refused.ended();
    expect(refused.results[0]?.errors?.[0]).toMatchObject({ path: ['resourceStatus'], extensions: { code: 'RATE_LIMITED', limit: 'pollers', max: 3 } });

    const joining = clients.follow(clients.sse(), STATUS, { id: ids[0] });
    await joining.events(1);
    expect(joining.values('resourceStatus')).toEqual([{ statusName: 'NEW' }]);
    expect(stack.pollerStats()).toEqual({ pollers: 3, subscribers: 4 });
  });
});

describe('closing the gateway', () => {
  it('ends every subscription and stops every poller and timer', async () => {
    const own = await startStack({ clock: new ManualClock(1000), config: { subscriptions: { pollIntervalMs: 20, pollMaxIntervalMs: 20 } } });
    const ownClients = new Clients(() => own);
    try {
      const id = String((await sandboxRest(own, 'POST', '/networks', { name: 'closing' })).body['id']);
      const ws = ownClients.follow(ownClients.ws(), STATUS, { id });
      const sse = ownClients.follow(ownClients.sse(), STATUS, { id });
      const single = ownClients.follow(ownClients.sse(own.tokens.admin, true), HEARTBEAT);
      await ws.events(1);
      await sse.events(1);
      await single.events(1);
      expect(own.pollerStats().pollers).toBe(1);
      await own.close();
      expect(own.pollerStats()).toEqual({ pollers: 0, subscribers: 0 });
      await waitUntil(() => [ws, sse, single].every((log) => log.status !== 'open'), () => 'every client to see the end');
    } finally {
      await ownClients.disposeAll();
      await own.close();
    }
  });
});
