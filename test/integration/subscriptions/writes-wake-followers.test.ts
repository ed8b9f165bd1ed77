/**
 * A change sent through the gateway makes the pollers following what it touched poll at once:
 * with a pace of ten minutes, a `networkChanges` follower still sees an endpoint created through
 * the gateway, and a `resourceStatus` follower sees the endpoint's redefine — neither could arrive
 * before the test's timeout without the wake-up. A change made behind the gateway's back (straight
 * to the platform) waits for the pace, as before.
 */
import { ManualClock } from '../../../src/sandbox';
import { startStack, type Stack } from '../../helpers/stack';
import { Clients, sandboxRest } from '../../helpers/subscriptions';
import { waitUntil } from '../../helpers/wait';

const TEN_MINUTES = 600_000;
let stack: Stack;
const clients = new Clients(() => stack);

beforeAll(async () => {
  // The sandbox's clock stands still: statuses move only when a test says so.
  stack = await startStack({
    clock: new ManualClock(1000),
    config: { subscriptions: { networkPollIntervalMs: TEN_MINUTES, networkPollMaxIntervalMs: TEN_MINUTES, pollIntervalMs: TEN_MINUTES, pollMaxIntervalMs: TEN_MINUTES } },
  });
});
afterEach(() => clients.disposeAll());
afterAll(() => stack.close());

const CHANGES = 'subscription($networkId: UUID!) { networkChanges(networkId: $networkId) { snapshot added { kind name } } }';
const STATUS = 'subscription($networkId: UUID!, $id: UUID!) { resourceStatus(kind: ENDPOINT, networkId: $networkId, id: $id) { statusName resource { ... on Endpoint { name } } } }';

it('a networkChanges follower sees an endpoint created through the gateway at once, not after the pace', async () => {
  const network = stack.sandbox.restFacts().networks[0]!;
  const log = clients.follow(clients.ws(), CHANGES, { networkId: network.id });
  await waitUntil(() => log.results.length >= 1, () => 'the first state');
  const created = await stack.gql('mutation($networkId: UUID!) { createEndpoint(networkId: $networkId, input: { name: "woken-by-write", endpointType: "ZTCL" }) { accepted } }', { networkId: network.id });
  expect(created.body.errors).toBeUndefined();
  await waitUntil(
    () => log.results.some((r) => JSON.stringify(r.data).includes('woken-by-write')),
    () => `the endpoint's event (got ${JSON.stringify(log.results)})`,
  );
});

it('a resourceStatus follower sees a redefine sent through the gateway at once; one sent behind its back waits for the pace', async () => {
  const network = stack.sandbox.restFacts().networks[0]!;
  const made = await sandboxRest(stack, 'POST', `/networks/${network.id}/endpoints`, { name: 'followed-status', endpointType: 'ZTCL' });
  const endpointId = String(made.body['id']);
  const log = clients.follow(clients.ws(), STATUS, { networkId: network.id, id: endpointId });
  await waitUntil(() => log.results.length >= 1, () => 'the first status');
  const seen = log.results.length;
  const renamed = await stack.gql('mutation($networkId: UUID!, $id: UUID!) { updateEndpoint(networkId: $networkId, id: $id, input: { name: "renamed-through-gateway" }) { accepted } }', { networkId: network.id, id: endpointId });
  expect(renamed.body.errors).toBeUndefined();
  // The redefine moves the endpoint to 600 (updating): its follower hears it at once.
  await waitUntil(() => log.results.length > seen, () => `a new status (got ${JSON.stringify(log.results)})`);

  // Behind the gateway's back: nothing wakes the poller, so nothing new arrives while the test looks.
  const before = log.results.length;
  stack.sandbox.control.setStatus({ kind: 'endpoint', id: endpointId, status: 200 });
  await stack.gql('{ geoRegions { totalCount } }'); // an unrelated read: wakes nobody
  expect(log.results.length).toBe(before);
});
