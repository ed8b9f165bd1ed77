/**
 * The batching contract (issue #3): network groups → networks → endpoints → AppWANs → services
 * costs an exact number of upstream calls that does not grow with the number of endpoints.
 */
import type { RestV1Facts, SeedSize } from '../../../src/sandbox';
import { expectResult, restCalls, startNetworkStack } from './network-stack';

const GRAPH = `{
  networkGroups { nodes { id networks { nodes { id
    endpoints(first: 1000) { nodes { id name appWans { nodes { id name services { nodes { id name } } } } } }
  } } } }
}`;

/** The calls the membership-inversion plan needs, from the seed's shape (no endpoint count in it). */
function expectedCalls(facts: RestV1Facts): Record<string, number> {
  const appWans = facts.networks.reduce((sum, n) => sum + n.appWanIds.length, 0);
  return {
    'GET /rest/v1/network-groups': 1,
    'GET /rest/v1/networks': facts.organizationIds.length,
    'GET /rest/v1/networks/{networkId}/endpoints': facts.networks.length,
    'GET /rest/v1/networks/{networkId}/appWans': facts.networks.length,
    'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/endpoints': appWans,
    'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/services': appWans,
  };
}

describe.each(['tiny', 'demo'] as SeedSize[])('seed %s', (seed) => {
  test('the whole graph costs exactly the inversion plan’s calls', async () => {
    const stack = await startNetworkStack({ seed });
    try {
      const facts = stack.sandbox.restFacts();
      stack.resetCalls();
      const r = await stack.gql(GRAPH);
      expectResult(GRAPH, r, (res) => {
        expect(res.errors).toBeUndefined();
        expect(restCalls(stack.calls())).toEqual(expectedCalls(facts));
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
    const net = stack.sandbox.restFacts().networks[0];
    if (net === undefined) throw new Error('no network');
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
      'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/endpoints': net.appWanIds.length,
      'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/services': net.appWanIds.length,
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
