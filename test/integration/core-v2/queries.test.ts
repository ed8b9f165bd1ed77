/**
 * core/v2 reads through the gateway against the sandbox (`demo` seed): root lists and fetches,
 * a network's typed links, the endpoint's one-time `jwt`, the service model, upstream calls.
 */
import { dataAt, expectErrorAt, expectNoErrors, startStack, type Stack } from '../../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seed: 'demo' });
});
afterAll(() => stack.close());

type Obj = Record<string, unknown>;
const nodes = (value: unknown): Obj[] => (value as { nodes: Obj[] }).nodes;

it('lists v2 networks with their routers, policies, services, AppWANs and endpoints', async () => {
  stack.sandbox.control.resetCalls();
  const r = await stack.gql(`{ v2Networks { totalCount nodes { id name status locationCode
    edgeRouters { totalCount nodes { name attributes linkListener network { name } } }
    edgeRouterPolicies { nodes { name endpointAttributes edgeRouterAttributes edgeRouters { totalCount } } }
    services { nodes { name modelType upstreamModelType attributes model { clientIngress { host port } bindEndpointAttributes serverEgress { protocol host port } edgeRouterHosts { edgeRouterId edgeRouter { name } serverEgress { port } } } } }
    appWans { nodes { name serviceAttributes endpointAttributes services { nodes { name } } endpoints { totalCount } } }
    endpoints(first: 2) { totalCount nodes { name attributes enrollmentMethod { ott } } } } } }`);
  expectNoErrors(r);
  const networks = nodes(dataAt(r, ['v2Networks']));
  expect(dataAt(r, ['v2Networks', 'totalCount'])).toBe(2);
  const first = networks[0] as Obj;
  expect(first).toMatchObject({ name: 'v2-production', status: 'PROVISIONED', locationCode: 'us-east-1' });
  expect(dataAt(r, ['v2Networks', 'nodes', 0, 'edgeRouters', 'totalCount'])).toBe(3);
  expect(nodes(dataAt(r, ['v2Networks', 'nodes', 0, 'edgeRouters']))[0]).toEqual({ name: 'router-1', attributes: ['#public', '#hosting'], linkListener: true, network: { name: 'v2-production' } });
  expect(nodes(dataAt(r, ['v2Networks', 'nodes', 0, 'edgeRouterPolicies']))[0]).toMatchObject({ endpointAttributes: ['#all'], edgeRouterAttributes: ['#all'], edgeRouters: { totalCount: 3 } });
  const services = nodes(dataAt(r, ['v2Networks', 'nodes', 0, 'services']));
  expect(services.map((s) => s['modelType'])).toEqual(['TunnelerToEndpoint', 'TunnelerToEdgeRouter']);
  expect(services[0]).toMatchObject({ model: { clientIngress: { host: 'wiki.internal', port: 443 }, bindEndpointAttributes: ['#hosting'], serverEgress: { protocol: 'tcp', host: '10.0.0.20', port: 443 }, edgeRouterHosts: [] } });
  expect(services[1]).toMatchObject({ model: { edgeRouterHosts: [{ edgeRouter: { name: 'router-1' }, serverEgress: { port: 8443 } }], serverEgress: null } });
  const appWan = nodes(dataAt(r, ['v2Networks', 'nodes', 0, 'appWans']))[0];
  // `#intranet` selects both services; `#employees` every endpoint but the hosting one (endpoint-2).
  expect(appWan).toMatchObject({ name: 'employees-intranet', services: { nodes: [{ name: 'wiki' }, { name: 'crm' }] }, endpoints: { totalCount: 7 } });
  expect(dataAt(r, ['v2Networks', 'nodes', 0, 'endpoints', 'totalCount'])).toBe(8);
  // One list per network and kind, whatever is nested (1 networks + 2 networks × 5 kinds); routers by id from the primed cache.
  expect(stack.sandbox.control.calls().total).toBe(11);
});

it('reads one endpoint with its one-time jwt, and answers NOT_FOUND for an unknown id', async () => {
  const list = await stack.gql('{ v2Endpoints(name: "endpoint-2") { nodes { id networkId } } }');
  const endpoints = nodes(dataAt(list, ['v2Endpoints']));
  expect(endpoints.length).toBeGreaterThan(0);
  const id = String(endpoints[0]?.['id']);
  const r = await stack.gql(`query($id: ID!) { v2Endpoint(id: $id) { id name jwt status network { name } } }`, { id });
  expectNoErrors(r);
  expect(String(dataAt(r, ['v2Endpoint', 'jwt']))).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  const missing = await stack.gql('{ v2Endpoint(id: "00000000-0000-4000-8000-000000000000") { id } }');
  expectErrorAt(missing, ['v2Endpoint'], 'NOT_FOUND');
  expect(dataAt(missing, ['v2Endpoint'])).toBeNull();
});

it('filters root lists by network, and reads each kind by id', async () => {
  const nets = await stack.gql('{ v2Networks { nodes { id } } }');
  const networkId = String(nodes(dataAt(nets, ['v2Networks']))[1]?.['id']);
  const r = await stack.gql(`query($n: ID) { edgeRouters(networkId: $n) { totalCount nodes { id networkId } }
    edgeRouterPolicies(networkId: $n) { totalCount nodes { id } } v2Services(networkId: $n) { totalCount nodes { id } }
    v2AppWans(networkId: $n) { totalCount nodes { id } } v2Endpoints(networkId: $n, first: 3) { totalCount pageInfo { hasNextPage } nodes { id } } }`, { n: networkId });
  expectNoErrors(r);
  expect(dataAt(r, ['edgeRouters', 'totalCount'])).toBe(3);
  expect(nodes(dataAt(r, ['edgeRouters'])).every((x) => x['networkId'] === networkId)).toBe(true);
  expect(dataAt(r, ['v2Endpoints'])).toMatchObject({ totalCount: 8, pageInfo: { hasNextPage: true } });
  const ids = (key: string) => String(nodes(dataAt(r, [key]))[0]?.['id']);
  const one = await stack.gql(`query($n: ID!, $r: ID!, $p: ID!, $s: ID!, $a: ID!) { v2Network(id: $n) { id } edgeRouter(id: $r) { id } edgeRouterPolicy(id: $p) { id } v2Service(id: $s) { id } v2AppWan(id: $a) { id } }`,
    { n: networkId, r: ids('edgeRouters'), p: ids('edgeRouterPolicies'), s: ids('v2Services'), a: ids('v2AppWans') });
  expectNoErrors(one);
});

it('gives a caller without a token UNAUTHENTICATED on the v2 field only', async () => {
  const r = await stack.gql('{ v2Networks { totalCount } heartbeatInterval: __typename }', undefined, { token: null });
  expectErrorAt(r, ['v2Networks'], 'UNAUTHENTICATED');
});
