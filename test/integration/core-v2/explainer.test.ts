/**
 * Who can reach what (`V2Endpoint.reachableServices`, `V2Service.reachableBy`) through the gateway
 * on the `tiny` seed, with AppWANs and policies added through the gateway's own mutations: `#tag`,
 * `@name`, `#all`, attributes that match nothing, and a service no router may carry.
 *
 * tiny core/v2 seed: routers router-1 (#public #hosting) and router-2 (#public); policy
 * all-endpoints-all-routers (#all → #all); endpoint-1 (#engineering #employees), endpoint-2
 * (#hosting #servers), endpoint-3 (#sales #employees); services wiki (#intranet, endpoint-hosted,
 * routers #all) and crm (#intranet, hosted by router-1); AppWAN employees-intranet (#employees → #intranet).
 */
import { dataAt, expectNoErrors, startStack, type Stack } from '../../helpers/stack';
import { at, call, list, str } from '../sandbox/sandbox-client';

let stack: Stack;
let networkId = '';
const ids: Record<string, string> = {};

beforeAll(async () => {
  stack = await startStack({ seed: 'tiny' });
  networkId = str(at(list((await call(stack.sandbox, 'GET', '/core/v2/networks')).json, 'networkList')[0], 'id'));
  for (const [plural, key] of [['endpoints', 'endpointList'], ['services', 'serviceList']] as const) {
    const items = list((await call(stack.sandbox, 'GET', `/core/v2/${plural}?networkId=${networkId}`)).json, key);
    for (const item of items) ids[str(item['name'])] = str(item['id']);
  }
});
afterAll(() => stack.close());

type Obj = Record<string, unknown>;
const names = (conn: unknown): string[] => (conn as { nodes: Obj[] }).nodes.map((n) => String(n['name']));

const BY_ENDPOINT = `query($id: ID!) { v2Endpoint(id: $id) { name reachableServices { totalCount nodes {
  service { name } appWans { nodes { name } } edgeRouterPolicies { nodes { name } } edgeRouters { nodes { name } } } } } }`;
const BY_SERVICE = `query($id: ID!) { v2Service(id: $id) { name reachableBy { totalCount nodes {
  endpoint { name } appWans { nodes { name } } edgeRouters { nodes { name } } } } } }`;

async function reach(endpoint: string): Promise<Array<[string, string[], string[], string[]]>> {
  const r = await stack.gql(BY_ENDPOINT, { id: ids[endpoint] });
  expectNoErrors(r);
  return (dataAt(r, ['v2Endpoint', 'reachableServices', 'nodes']) as Obj[]).map((n) => [
    String((n['service'] as Obj)['name']),
    names(n['appWans']),
    names(n['edgeRouterPolicies']),
    names(n['edgeRouters']),
  ]);
}

async function create(field: string, type: string, input: Obj): Promise<void> {
  expectNoErrors(await stack.gql(`mutation($input: ${type}!) { ${field}(input: $input) { id } }`, { input: { networkId, ...input } }));
}

it('an endpoint tagged like the AppWAN reaches both services, each through the routers the service allows', async () => {
  expect(await reach('endpoint-1')).toEqual([
    ['wiki', ['employees-intranet'], ['all-endpoints-all-routers'], ['router-1', 'router-2']],
    ['crm', ['employees-intranet'], ['all-endpoints-all-routers'], ['router-1']],
  ]);
});

it('an endpoint no AppWAN selects reaches nothing', async () => {
  expect(await reach('endpoint-2')).toEqual([]);
});

it('the reverse: a service lists the endpoints that may dial it', async () => {
  const r = await stack.gql(BY_SERVICE, { id: ids['wiki'] });
  expectNoErrors(r);
  expect(dataAt(r, ['v2Service', 'reachableBy', 'totalCount'])).toBe(2);
  expect((dataAt(r, ['v2Service', 'reachableBy', 'nodes']) as Obj[]).map((n) => (n['endpoint'] as Obj)['name'])).toEqual(['endpoint-1', 'endpoint-3']);
});

describe('after changes made through the gateway', () => {
  it('attributes that match nothing change nothing', async () => {
    await create('createV2AppWan', 'CreateV2AppWanInput', { name: 'nothing', endpointAttributes: ['#nobody'], serviceAttributes: ['#intranet'] });
    await create('createV2AppWan', 'CreateV2AppWanInput', { name: 'servers-nothing', endpointAttributes: ['@endpoint-2'], serviceAttributes: ['#no-such-service'] });
    expect(await reach('endpoint-2')).toEqual([]);
  });

  it('#all endpoints and @name services: endpoint-2 now reaches wiki only', async () => {
    await create('createV2AppWan', 'CreateV2AppWanInput', { name: 'everyone-wiki', endpointAttributes: ['#all'], serviceAttributes: ['@wiki'] });
    expect(await reach('endpoint-2')).toEqual([['wiki', ['everyone-wiki'], ['all-endpoints-all-routers'], ['router-1', 'router-2']]]);
    const wiki = await reach('endpoint-1');
    expect(wiki[0]?.[1]).toEqual(['employees-intranet', 'everyone-wiki']);
  });

  it('a service whose router attributes match no router is reachable by no one', async () => {
    await create('createV2Service', 'CreateV2ServiceInput', {
      name: 'lonely', attributes: ['#intranet'], modelType: 'TunnelerToEndpoint',
      model: { clientIngress: { host: 'lonely.internal', port: 80 }, edgeRouterAttributes: ['#no-router'], bindEndpointAttributes: ['#hosting'], serverEgress: { protocol: 'tcp', host: '10.0.0.1', port: 80 } },
    });
    const r = await stack.gql('query($n: ID) { v2Services(networkId: $n, name: "lonely") { nodes { name reachableBy { totalCount } } } }', { n: networkId });
    expectNoErrors(r);
    expect(dataAt(r, ['v2Services', 'nodes', 0, 'reachableBy', 'totalCount'])).toBe(0);
    expect((await reach('endpoint-1')).map((x) => x[0])).toEqual(['wiki', 'crm']);
  });

  it('a policy by @name for one endpoint adds itself to that endpoint\'s routes only', async () => {
    await create('createEdgeRouterPolicy', 'CreateEdgeRouterPolicyInput', { name: 'endpoint-3-router-2', endpointAttributes: ['@endpoint-3'], edgeRouterAttributes: ['@router-2'] });
    const three = await reach('endpoint-3');
    expect(three[0]).toEqual(['wiki', ['employees-intranet', 'everyone-wiki'], ['all-endpoints-all-routers', 'endpoint-3-router-2'], ['router-1', 'router-2']]);
    // crm is hosted by router-1 only: the @router-2 policy gives no route to it.
    expect(three[1]?.[2]).toEqual(['all-endpoints-all-routers']);
    expect((await reach('endpoint-1'))[0]?.[2]).toEqual(['all-endpoints-all-routers']);
  });
});

it('costs one list per kind of the network, however many services are explained', async () => {
  stack.sandbox.control.resetCalls();
  const r = await stack.gql(`query($n: ID) { v2Endpoints(networkId: $n) { nodes { name reachableServices { totalCount } } } }`, { n: networkId });
  expectNoErrors(r);
  // endpoints (root list) + services, AppWANs, policies, routers of the network.
  expect(stack.sandbox.control.calls().total).toBe(5);
});

it('v2Network starts the lists its nested explainer needs alongside its own call: still one call per list', async () => {
  stack.sandbox.control.resetCalls();
  const r = await stack.gql(`query($n: ID!) { v2Network(id: $n) { endpoints { nodes { name reachableServices { nodes { service { name } } } } } } }`, { n: networkId });
  expectNoErrors(r);
  expect(stack.sandbox.control.calls().byRoute).toEqual({
    'GET /core/v2/networks/{id}': 1,
    'GET /core/v2/endpoints': 1,
    'GET /core/v2/services': 1,
    'GET /core/v2/app-wans': 1,
    'GET /core/v2/edge-router-policies': 1,
    'GET /core/v2/edge-routers': 1,
  });
  const first = stack.sandbox.control.requests().findIndex((q) => q.route === '/core/v2/networks/{id}');
  // The network and the five lists were all asked before any answer was needed: the network is not first by a round trip.
  expect(first).toBeGreaterThanOrEqual(0);
});
