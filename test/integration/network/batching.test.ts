/**
 * The batching contract: network groups → networks → endpoints → AppWANs → services
 * costs an exact number of upstream calls that does not grow with the number of endpoints.
 */
import type { SeedSize } from '../../../src/sandbox';
import { appWanShapes, expectedCalls, groupMemberCalls } from './graph-calls';
import { at, expectResult, restCalls, startExtraGateway, startNetworkStack } from './network-stack';

const GRAPH = `{
  networkGroups { nodes { id networks { nodes { id
    endpoints(first: 1000) { nodes { id name appWans { nodes { id name services { nodes { id name } } } } } }
  } } } }
}`;

describe.each(['tiny', 'demo'] as SeedSize[])('seed %s', (seed) => {
  test('the whole graph costs exactly the inversion plan’s calls', async () => {
    const stack = await startNetworkStack({ seed });
    try {
      const facts = stack.sandbox.restFacts();
      const shapes = await appWanShapes(stack.sandbox, facts);
      stack.resetCalls();
      const r = await stack.gql(GRAPH);
      expectResult(GRAPH, r, (res) => {
        expect(res.errors).toBeUndefined();
        expect(restCalls(stack.calls())).toEqual(expectedCalls(facts, shapes));
      });
      const answered = JSON.stringify(r.data).match(/"appWans"/g)?.length ?? 0;
      expect(answered).toBe(facts.networks.reduce((sum, n) => sum + n.endpointIds.length, 0));
    } finally {
      await stack.close();
    }
  });
});

test('two windows of one network with different endpoint counts cost the same calls', async () => {
  const stack = await startNetworkStack({ seed: 'demo' });
  try {
    const facts = stack.sandbox.restFacts();
    const net = facts.networks[0];
    if (net === undefined) throw new Error('no network');
    const shape = (await appWanShapes(stack.sandbox, { ...facts, networks: [net] }))[0];
    if (shape === undefined || shape.heldGroups === 0) throw new Error('the demo seed\'s first network should hold endpoint groups in its AppWANs');
    const query = `query ($n: UUID!, $k: Int) { network(id: $n) { endpoints(first: $k) { nodes { id appWans { nodes { id services { nodes { id } } } } } } } }`;
    const counts: Array<Record<string, number>> = [];
    for (const k of [5, 40]) {
      stack.resetCalls();
      const r = await stack.gql(query, { n: net.id, k });
      expectResult(query, r, (res) => expect(res.errors).toBeUndefined());
      counts.push(restCalls(stack.calls()));
    }
    expect(counts[0]).toEqual(counts[1]);
    expect(counts[0]).toEqual({
      'GET /rest/v1/networks/{networkId}': 1,
      'GET /rest/v1/networks/{networkId}/endpoints': 1,
      'GET /rest/v1/networks/{networkId}/appWans': 1,
      'GET /rest/v1/networks/{networkId}/endpointGroups': 1,
      'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/endpoints': net.appWanIds.length,
      'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/endpointGroups': net.appWanIds.length,
      'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/services': net.appWanIds.length,
      'GET /rest/v1/networks/{networkId}/endpointGroups/{endpointGroupId}/endpoints': groupMemberCalls(net, shape),
    });
  } finally {
    await stack.close();
  }
});

test('a single endpoint takes its own relation call', async () => {
  const stack = await startNetworkStack({ seed: 'tiny' });
  try {
    const net = stack.sandbox.restFacts().networks[0];
    const query = `query ($n: UUID!, $e: UUID!) { endpoint(networkId: $n, id: $e) { appWans { totalCount } } }`;
    stack.resetCalls();
    const r = await stack.gql(query, { n: net?.id, e: net?.endpointIds[0] });
    expectResult(query, r, (res) => expect(res.errors).toBeUndefined());
    expect(restCalls(stack.calls())).toEqual({
      'GET /rest/v1/networks/{networkId}/endpoints/{endpointId}': 1,
      'GET /rest/v1/networks/{networkId}/endpoints/{endpointId}/appWans': 1,
    });
  } finally {
    await stack.close();
  }
});

test('with batching off, each endpoint takes its own call (the benchmark baseline)', async () => {
  const stack = await startNetworkStack({ seed: 'tiny', batching: false });
  try {
    const net = stack.sandbox.restFacts().networks[0];
    if (net === undefined) throw new Error('no network');
    const query = `query ($n: UUID!) { network(id: $n) { endpoints { nodes { id appWans { totalCount } } } } }`;
    stack.resetCalls();
    const r = await stack.gql(query, { n: net.id });
    expectResult(query, r, (res) => expect(res.errors).toBeUndefined());
    expect(restCalls(stack.calls())['GET /rest/v1/networks/{networkId}/endpoints/{endpointId}/appWans']).toBe(net.endpointIds.length);
  } finally {
    await stack.close();
  }
});

describe.each(['tiny', 'demo'] as SeedSize[])('seed %s: batched and unbatched answers agree', (seed) => {
  const QUERY = `{ networks(first: 1000) { nodes { id endpoints(first: 1000) { nodes { id appWans(first: 1000) { nodes { id } } } } } } }`;

  /** endpoint id → its AppWAN ids, sorted, from a response of QUERY. */
  function answers(data: unknown): Map<string, string[]> {
    const out = new Map<string, string[]>();
    const networks = at(data, 'networks', 'nodes');
    for (const n of Array.isArray(networks) ? networks : []) {
      const endpoints = at(n, 'endpoints', 'nodes');
      for (const e of Array.isArray(endpoints) ? endpoints : []) {
        const appWans = at(e, 'appWans', 'nodes');
        out.set(String(at(e, 'id')), (Array.isArray(appWans) ? appWans : []).map((a: unknown) => String(at(a, 'id'))).sort());
      }
    }
    return out;
  }

  test('Endpoint.appWans counts AppWANs reached through endpoint groups, batched or not', async () => {
    const stack = await startNetworkStack({ seed });
    const unbatched = await startExtraGateway(stack.sandbox, { batching: false });
    try {
      const facts = stack.sandbox.restFacts();
      const shapes = await appWanShapes(stack.sandbox, facts);
      const on = await stack.gql(QUERY);
      const off = await unbatched.gql(QUERY);
      expectResult(QUERY, on, (res) => expect(res.errors).toBeUndefined());
      expectResult(QUERY, off, (res) => expect(res.errors).toBeUndefined());
      const batchedAnswer = answers(on.data);
      const unbatchedAnswer = answers(off.data);
      expect(batchedAnswer.size).toBe(facts.networks.reduce((sum, n) => sum + n.endpointIds.length, 0));
      expect(Object.fromEntries(batchedAnswer)).toEqual(Object.fromEntries(unbatchedAnswer));

      // The seed makes the test bite: some endpoint reaches an AppWAN only through a group.
      const direct = new Set(shapes.flatMap((s) => [...s.directEndpoints].flatMap(([a, eps]) => eps.map((e) => `${e}:${a}`))));
      const viaGroupOnly = [...unbatchedAnswer].flatMap(([e, appWans]) => appWans.filter((a) => !direct.has(`${e}:${a}`)));
      expect(viaGroupOnly.length).toBeGreaterThan(0);
    } finally {
      await unbatched.close();
      await stack.close();
    }
  });
});
