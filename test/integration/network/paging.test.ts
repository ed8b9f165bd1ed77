/** Connections over upstream pages: the sandbox clamps `size` at 200; the gateway follows. */
import { at, expectResult, restCalls, startNetworkStack, type NetworkStack } from './network-stack';

let stack: NetworkStack;
let networkId: string;
let endpointCount: number;
beforeAll(async () => {
  stack = await startNetworkStack({ seed: 'large' });
  const net = stack.sandbox.restFacts().networks[0];
  networkId = net?.id ?? '';
  endpointCount = net?.endpointIds.length ?? 0;
});
afterAll(() => stack.close());

const LIST = `query ($n: UUID!, $first: Int, $after: String) {
  network(id: $n) { endpoints(first: $first, after: $after, sort: [{ field: "name" }]) { totalCount nodes { name } pageInfo { hasNextPage endCursor } } }
}`;

test('first: 500 of a 400-endpoint network follows the clamped pages', async () => {
  expect(endpointCount).toBeGreaterThan(200);
  stack.resetCalls();
  const r = await stack.gql(LIST, { n: networkId, first: 500 });
  expectResult(LIST, r, (res) => {
    expect(res.errors).toBeUndefined();
    expect(at(res.data, 'network', 'endpoints', 'totalCount')).toBe(endpointCount);
    const names = (at(res.data, 'network', 'endpoints', 'nodes') as unknown[]).map((e) => String(at(e, 'name')));
    expect(names).toHaveLength(endpointCount);
    expect(new Set(names).size).toBe(endpointCount);
    expect(names).toEqual([...names].sort());
    expect(at(res.data, 'network', 'endpoints', 'pageInfo', 'hasNextPage')).toBe(false);
    // One call for the clamped first page (200 items), then the pages still needed at size 200.
    expect(restCalls(stack.calls())['GET /rest/v1/networks/{networkId}/endpoints']).toBe(Math.ceil(endpointCount / 200));
  });
});

test('a window past the first upstream page costs one call and continues where the last stopped', async () => {
  const first = await stack.gql(LIST, { n: networkId, first: 200 });
  const after = at(first.data, 'network', 'endpoints', 'pageInfo', 'endCursor');
  stack.resetCalls();
  const r = await stack.gql(LIST, { n: networkId, first: 150, after });
  expectResult(LIST, r, (res) => {
    const names = (at(res.data, 'network', 'endpoints', 'nodes') as unknown[]).map((e) => String(at(e, 'name')));
    expect(names).toHaveLength(150);
    const lastOfFirst = String(at(first.data, 'network', 'endpoints', 'nodes', 199, 'name'));
    expect(names[0] !== undefined && names[0] > lastOfFirst).toBe(true);
    expect(restCalls(stack.calls())['GET /rest/v1/networks/{networkId}/endpoints']).toBe(1);
  });
});
