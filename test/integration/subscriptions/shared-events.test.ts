/**
 * One event, one execution: subscribers of one target with the same document, variables and
 * credential share the event's execution. The event's selection reads the endpoint's network (one
 * upstream call per execution; sharing of calls in flight is off here, so each execution shows);
 * five subscribers with one token cost one such call per event, five with five tokens cost five.
 * The WebSocket and SSE doors serialize each shared result once for all the sockets and streams
 * it goes to (both SSE modes), and every subscriber reads the same event.
 * The shared execution belongs to none of them: the first subscriber leaving while the event's
 * call is in flight leaves the others' event whole.
 *
 * First events are shared too: followers arriving together or one after another while nothing
 * changed get their first event from one execution and one serialization; another credential gets
 * its own, and a change still reaches every follower once.
 */
import { randomBytes } from 'node:crypto';
import { ADMIN_IDENTITY_ID, ManualClock } from '../../../src/sandbox';
import { startStack, type Stack } from '../../helpers/stack';
import { Clients, type EventLog, routeCalls, sandboxRest } from '../../helpers/subscriptions';
import { waitUntil } from '../../helpers/wait';

const clock = new ManualClock(1000);
let stack: Stack;
const clients = new Clients(() => stack);

beforeAll(async () => {
  stack = await startStack({
    clock,
    config: { subscriptions: { pollIntervalMs: 20, pollMaxIntervalMs: 20 }, cache: { sharing: false, maxBytes: 0, maxEntries: 1, ttls: new Map(), staleIfErrorSeconds: 0 } },
  });
});
afterEach(() => clients.disposeAll());
afterAll(() => stack.close());

const STATUS = `subscription($networkId: UUID!, $id: UUID!) {
  resourceStatus(kind: ENDPOINT, networkId: $networkId, id: $id) { statusName resource { ... on Endpoint { name network { name } } } }
}`;

type Door = 'ws' | 'sse' | 'sse-single';

async function followed(tokens: string[], door: Door = 'ws'): Promise<EventLog[]> {
  const network = stack.sandbox.restFacts().networks[0]!;
  const made = await sandboxRest(stack, 'POST', `/networks/${network.id}/endpoints`, { name: `shared-${randomBytes(4).toString('hex')}`, endpointType: 'ZTCL' });
  const id = String(made.body['id']);
  const clientOf = (token: string): Parameters<Clients['follow']>[0] => (door === 'ws' ? clients.ws(token) : clients.sse(token, door === 'sse-single'));
  const logs = tokens.map((token) => clients.follow(clientOf(token), STATUS, { networkId: network.id, id }));
  await waitUntil(() => logs.every((l) => l.results.length >= 1), () => 'every first status');
  return logs;
}

/** The event's upstream calls and the door's serializations for it. */
async function followers(tokens: string[], door: Door = 'ws'): Promise<{ calls: number; serializations: number }> {
  const serializations = (): number => (door === 'ws' ? stack.wsStats() : stack.sseStats()).serializations;
  const logs = await followed(tokens, door);
  const before = routeCalls(stack, 'GET /rest/v1/networks/{networkId}');
  const serializedBefore = serializations();
  clock.advance(); // NEW → the next status: one event for every follower
  await waitUntil(() => logs.every((l) => l.results.length >= 2), () => `every second status (${JSON.stringify(logs.map((l) => l.results))})`);
  for (const log of logs) expect(log.results[1]).toEqual(logs[0]!.results[1]);
  return { calls: routeCalls(stack, 'GET /rest/v1/networks/{networkId}') - before, serializations: serializations() - serializedBefore };
}

it('five followers with one token: the event is executed and serialized once', async () => {
  expect(await followers(Array.from({ length: 5 }, () => stack.tokens.admin))).toEqual({ calls: 1, serializations: 1 });
});

it.each(['sse', 'sse-single'] as const)('five followers with one token over %s: executed and serialized once, read whole by each', async (door) => {
  expect(await followers(Array.from({ length: 5 }, () => stack.tokens.admin), door)).toEqual({ calls: 1, serializations: 1 });
});

it('five followers with five tokens: once each (nothing crosses credentials)', async () => {
  const tokens = Array.from({ length: 5 }, () => stack.sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, jti: randomBytes(8).toString('hex') }, 3600));
  expect(await followers(tokens)).toEqual({ calls: 5, serializations: 5 });
});

it('the first follower leaving while the shared execution waits on the platform: the others get the event whole', async () => {
  const logs = await followed(Array.from({ length: 4 }, () => stack.tokens.admin));
  const before = routeCalls(stack, 'GET /rest/v1/networks/{networkId}');
  // The event's one call is held long enough for the first follower to leave while it is out.
  stack.sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/networks/{networkId}', latencyMs: 2000, times: 1 }]);
  try {
    clock.advance();
    await waitUntil(() => routeCalls(stack, 'GET /rest/v1/networks/{networkId}') > before, () => 'the event\'s call sent');
    logs[0]!.unsubscribe();
    const others = logs.slice(1);
    await waitUntil(() => others.every((l) => l.results.length >= 2), () => `every other second status (${JSON.stringify(others.map((l) => l.results))})`);
    for (const log of others) {
      expect(log.results[1]!.errors).toBeUndefined();
      expect(log.results[1]).toEqual(others[0]!.results[1]);
    }
    expect(routeCalls(stack, 'GET /rest/v1/networks/{networkId}') - before).toBe(1);
  } finally {
    stack.sandbox.control.clearFaults();
  }
});

describe('first events', () => {
  const NETWORK_READ = 'GET /rest/v1/networks/{networkId}';

  async function newEndpoint(): Promise<{ networkId: string; id: string }> {
    const network = stack.sandbox.restFacts().networks[0]!;
    const made = await sandboxRest(stack, 'POST', `/networks/${network.id}/endpoints`, { name: `first-${randomBytes(4).toString('hex')}`, endpointType: 'ZTCL' });
    return { networkId: network.id, id: String(made.body['id']) };
  }

  /** Followers subscribing one after another, each once the one before has its first event. */
  async function oneAfterAnother(tokens: string[], variables: Record<string, unknown>): Promise<EventLog[]> {
    const logs: EventLog[] = [];
    for (const token of tokens) {
      const log = clients.follow(clients.ws(token), STATUS, variables);
      logs.push(log);
      await log.events(1);
    }
    return logs;
  }

  it('five followers arriving one after another while nothing changes: their first events are one execution, one serialization', async () => {
    const variables = await newEndpoint();
    const calls = routeCalls(stack, NETWORK_READ);
    const serialized = stack.wsStats().serializations;
    const logs = await oneAfterAnother(Array.from({ length: 5 }, () => stack.tokens.admin), variables);
    for (const log of logs) expect(log.results[0]).toEqual(logs[0]!.results[0]);
    expect(logs[0]!.results[0]!.errors).toBeUndefined();
    expect({ calls: routeCalls(stack, NETWORK_READ) - calls, serializations: stack.wsStats().serializations - serialized }).toEqual({ calls: 1, serializations: 1 });
  });

  it('five followers arriving at once: one execution, one serialization', async () => {
    const variables = await newEndpoint();
    const calls = routeCalls(stack, NETWORK_READ);
    const serialized = stack.wsStats().serializations;
    const logs = Array.from({ length: 5 }, () => clients.follow(clients.ws(stack.tokens.admin), STATUS, variables));
    await waitUntil(() => logs.every((l) => l.results.length >= 1), () => 'every first status');
    expect({ calls: routeCalls(stack, NETWORK_READ) - calls, serializations: stack.wsStats().serializations - serialized }).toEqual({ calls: 1, serializations: 1 });
  });

  it('another token of the same identity gets a first event of its own; a change then reaches every follower once', async () => {
    const variables = await newEndpoint();
    const other = stack.sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID, jti: randomBytes(8).toString('hex') }, 3600);
    const calls = routeCalls(stack, NETWORK_READ);
    const serialized = stack.wsStats().serializations;
    const logs = await oneAfterAnother([stack.tokens.admin, stack.tokens.admin, other, other], variables);
    expect({ calls: routeCalls(stack, NETWORK_READ) - calls, serializations: stack.wsStats().serializations - serialized }).toEqual({ calls: 2, serializations: 2 });

    const changeCalls = routeCalls(stack, NETWORK_READ);
    clock.advance(); // NEW → the next status: one event for every follower
    await waitUntil(() => logs.every((l) => l.results.length >= 2), () => `every second status (${JSON.stringify(logs.map((l) => l.results))})`);
    for (const log of logs) {
      expect(log.results).toHaveLength(2);
      expect(log.results[1]).toEqual(logs[0]!.results[1]);
      expect(log.results[1]).not.toEqual(log.results[0]);
    }
    expect(routeCalls(stack, NETWORK_READ) - changeCalls).toBe(2);
  });
});
