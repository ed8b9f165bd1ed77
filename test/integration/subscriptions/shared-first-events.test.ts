/**
 * First events shared: followers with the same document, variables and credential get their
 * first event from one execution and one serialization, whether they arrive together or one after
 * another while nothing changed. The event's selection reads the endpoint's network (one upstream
 * call per execution; sharing of calls in flight is off here, so each execution shows). Another
 * credential gets its own; a change still reaches every follower once.
 */
import { randomBytes } from 'node:crypto';
import { ADMIN_IDENTITY_ID, ManualClock } from '../../../src/sandbox';
import { startStack, type Stack } from '../../helpers/stack';
import { Clients, type EventLog, routeCalls, sandboxRest } from '../../helpers/subscriptions';
import { waitUntil } from '../../helpers/wait';

const clock = new ManualClock(1000);
let stack: Stack;
const clients = new Clients(() => stack);
const NETWORK_READ = 'GET /rest/v1/networks/{networkId}';

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
