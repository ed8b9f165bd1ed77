/**
 * `resourceStatus` for core/v2 kinds: a resource created through the gateway is followed through
 * its status words (NEW → PROVISIONING → PROVISIONED) on the sandbox's manual clock, and the
 * subscription completes after PROVISIONED.
 */
import { ManualClock } from '../../../src/sandbox';
import { STATUS_KINDS } from '../../../src/resolvers/workflow/resource-status-poll';
import { dataAt, expectNoErrors, startStack, type Stack } from '../../helpers/stack';
import { Clients } from '../../helpers/subscriptions';
import { waitUntil } from '../../helpers/wait';
import { at, call, list, str } from '../sandbox/sandbox-client';

const clock = new ManualClock(1000);
let stack: Stack;
const clients = new Clients(() => stack);

beforeAll(async () => {
  stack = await startStack({ clock, config: { subscriptions: { pollIntervalMs: 20, pollMaxIntervalMs: 20 } } });
});
afterEach(async () => {
  await clients.disposeAll();
  await waitUntil(() => stack.pollerStats().pollers === 0, () => 'no pollers');
});
afterAll(() => stack.close());

const STATUS = `subscription($kind: ResourceKind!, $id: UUID!) { resourceStatus(kind: $kind, id: $id) {
  kind id networkId status statusName terminal resource { __typename ... on EdgeRouter { name } ... on V2Network { name } ... on V2Endpoint { name jwt } } } }`;

it('has a row for every ResourceKind, the v2 ones read by id alone', () => {
  expect(Object.keys(STATUS_KINDS).filter((k) => !STATUS_KINDS[k as keyof typeof STATUS_KINDS].numeric).sort()).toEqual(
    ['EDGE_ROUTER', 'EDGE_ROUTER_POLICY', 'V2_APP_WAN', 'V2_ENDPOINT', 'V2_NETWORK', 'V2_SERVICE'],
  );
});

it.each([
  ['EDGE_ROUTER', 'createEdgeRouter', 'CreateEdgeRouterInput', true, { name: 'router-followed', attributes: ['#public'] }],
  ['V2_ENDPOINT', 'createV2Endpoint', 'CreateV2EndpointInput', true, { name: 'endpoint-followed', attributes: ['#employees'] }],
  ['V2_NETWORK', 'createV2Network', 'CreateV2NetworkInput', false, { name: 'network-followed' }],
])('%s: emits NEW, PROVISIONING, PROVISIONED and completes', async (kind, field, type, scoped, input) => {
  const networkId = str(at(list((await call(stack.sandbox, 'GET', '/core/v2/networks')).json, 'networkList')[0], 'id'));
  const created = await stack.gql(`mutation($input: ${type}!) { ${field}(input: $input) { id } }`, { input: scoped ? { networkId, ...input } : input });
  expectNoErrors(created);
  const id = String(dataAt(created, [field, 'id']));
  const log = clients.follow(clients.ws(), STATUS, { kind, id });
  for (let i = 1; i <= 3; i += 1) {
    await log.events(i);
    if (i < 3) clock.advance();
  }
  await log.ended();
  expect(log.status).toBe('complete');
  const events = log.values('resourceStatus') as Array<Record<string, unknown>>;
  expect(events.map((e) => [e['statusName'], e['status'], e['terminal']])).toEqual([
    ['NEW', null, false],
    ['PROVISIONING', null, false],
    ['PROVISIONED', null, true],
  ]);
  expect(events[2]).toMatchObject({ kind, id, networkId: scoped ? networkId : id, resource: { name: input.name } });
});
