/**
 * The shared-list plans on the sandbox (list-plan.ts, plan.ts `chooseGroupMemberPlan`): exact
 * calls per route for networkGraph-like queries, the fallbacks when a record does not say its
 * owner, a network without endpoint groups, and batched answers equal to unbatched ones.
 */
import { loadDocument } from '../../../bench/queries/load-document';
import { isObject } from '../../../src/core/parse';
import { at, expectResult, restCalls, startExtraGateway, startNetworkStack, type GqlResult, type NetworkStack } from './network-stack';
import { startRewritingUpstream, type Rewrite } from './rewriting-upstream';

const GRAPH = loadDocument('network-graph.graphql');
const VARS = { first: 1000 };

/** The same graph with caller sorts and small windows (a window of a partition, not the whole list). */
const SORTED = `{
  networkGroups { nodes { id networks(first: 2, sort: [{ field: "name", direction: DESC }]) { totalCount nodes { id
    endpoints(first: 7, sort: [{ field: "name", direction: ASC }]) { totalCount pageInfo { hasNextPage endCursor } nodes { id name appWans { nodes { id } } } }
  } } } }
}`;

/** Ids of the networks per group, as the seed placed them. */
function networksPerGroup(stack: NetworkStack): number[] {
  const counts = new Map<string, number>();
  for (const n of stack.sandbox.restFacts().networks) counts.set(n.organizationId, (counts.get(n.organizationId) ?? 0) + 1);
  return [...counts.values()];
}

/** Deletes `field` from the first item of the `_embedded` list of answers whose path matches (and that no filter narrows). */
function dropFirst(path: RegExp, field: string): Rewrite {
  return (url, body) => {
    if (!path.test(url.pathname) || url.searchParams.has('organizationId') || !isObject(body)) return;
    const embedded = body['_embedded'];
    const list = isObject(embedded) ? Object.values(embedded).find(Array.isArray) : undefined;
    const first: unknown = list?.[0];
    if (isObject(first)) delete first[field];
  };
}

async function withStack(run: (stack: NetworkStack, unbatched: (q: string, v?: Record<string, unknown>) => Promise<GqlResult>) => Promise<void>): Promise<void> {
  const stack = await startNetworkStack({ seed: 'demo' });
  const naive = await startExtraGateway(stack.sandbox, { batching: false });
  try {
    await run(stack, (q, v) => naive.gql(q, v));
  } finally {
    await naive.close();
    await stack.close();
  }
}

test('networkGraph: one network list, one endpoint list per group, answers equal to the unbatched gateway', async () => {
  await withStack(async (stack, unbatched) => {
    expect(networksPerGroup(stack)).toEqual([2, 2]);
    stack.resetCalls();
    const batched = await stack.gql(GRAPH, VARS);
    const calls = restCalls(stack.calls());
    expectResult(GRAPH, batched, (r) => {
      expect(r.errors).toBeUndefined();
      expect(calls['GET /rest/v1/networks']).toBe(1);
      expect(calls['GET /rest/v1/networkgroups/{organizationId}/endpoints']).toBe(2);
      expect(calls['GET /rest/v1/networks/{networkId}/endpoints']).toBeUndefined();
    });
    expect(batched.data).toEqual((await unbatched(GRAPH, VARS)).data);
  });
});

test('caller sorts and windows: batched answers equal unbatched ones', async () => {
  await withStack(async (stack, unbatched) => {
    stack.resetCalls();
    const batched = await stack.gql(SORTED);
    expectResult(SORTED, batched, (r) => {
      expect(r.errors).toBeUndefined();
      const calls = restCalls(stack.calls());
      expect(calls['GET /rest/v1/networks']).toBe(1);
      expect(calls['GET /rest/v1/networkgroups/{organizationId}/endpoints']).toBe(2);
      expect(calls['GET /rest/v1/networks/{networkId}/endpoints']).toBeUndefined();
    });
    expect(batched.data).toEqual((await unbatched(SORTED)).data);
    expect(at(batched.data, 'networkGroups', 'nodes', 0, 'networks', 'totalCount')).toBe(2);
  });
});

test.each([
  ['a network without organizationId: per-group network lists', dropFirst(/^\/rest\/v1\/networks$/, 'organizationId'), { networks: 1 + 2, group: 2, perNetwork: 0 }],
  ['an endpoint without networkId: per-network endpoint lists', dropFirst(/^\/rest\/v1\/networkgroups\/[^/]+\/endpoints$/, 'networkId'), { networks: 1, group: 2, perNetwork: 4 }],
] as const)('%s, answers unchanged', async (_name, rewrite, expected) => {
  await withStack(async (stack, unbatched) => {
    const upstream = await startRewritingUpstream(stack.sandbox.baseUrl, rewrite);
    const gateway = await startExtraGateway(stack.sandbox, { batching: true, upstreamBaseUrl: upstream.baseUrl });
    try {
      stack.resetCalls();
      const batched = await gateway.gql(GRAPH, VARS);
      const calls = restCalls(stack.calls());
      expectResult(GRAPH, batched, (r) => {
        expect(r.errors).toBeUndefined();
        expect(calls['GET /rest/v1/networks']).toBe(expected.networks);
        expect(calls['GET /rest/v1/networkgroups/{organizationId}/endpoints']).toBe(expected.group);
        expect(calls['GET /rest/v1/networks/{networkId}/endpoints'] ?? 0).toBe(expected.perNetwork);
      });
      expect(batched.data).toEqual((await unbatched(GRAPH, VARS)).data);
    } finally {
      await gateway.close();
      await upstream.close();
    }
  });
});

/** POST under /rest/v1 as the admin; the created record's id. */
async function create(stack: NetworkStack, path: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${stack.sandbox.baseUrl}/rest/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.sandbox.tokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const json: unknown = await res.json();
  const id = at(json, 'id') ?? at(json, 'appWan', 'id');
  if (res.status >= 300 || typeof id !== 'string') throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(json)}`);
  return id;
}

test('a network without endpoint groups skips every per-AppWAN endpoint-group list', async () => {
  await withStack(async (stack, unbatched) => {
    const geoRegionId = stack.sandbox.restFacts().geoRegionIds[0];
    const n = await create(stack, '/networks', { name: 'no-groups' });
    const endpoints = await Promise.all(['a', 'b', 'c'].map((name) => create(stack, `/networks/${n}/endpoints`, { name, endpointType: 'ZTCL', geoRegionId })));
    const appWans = await Promise.all(['x', 'y'].map((name) => create(stack, `/networks/${n}/appWans`, { name })));
    for (const [i, a] of appWans.entries()) await create(stack, `/networks/${n}/appWans/${a}/endpoints`, { ids: endpoints.slice(i) });
    const query = `query ($n: UUID!) { network(id: $n) { endpoints { nodes { id appWans { nodes { id services { totalCount } } } } } } }`;
    stack.resetCalls();
    const batched = await stack.gql(query, { n });
    expectResult(query, batched, (r) => {
      expect(r.errors).toBeUndefined();
      expect(restCalls(stack.calls())).toEqual({
        'GET /rest/v1/networks/{networkId}': 1,
        'GET /rest/v1/networks/{networkId}/endpoints': 1,
        'GET /rest/v1/networks/{networkId}/appWans': 1,
        'GET /rest/v1/networks/{networkId}/endpointGroups': 1,
        'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/endpoints': 2,
        'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/services': 2,
      });
      expect(at(r.data, 'network', 'endpoints', 'nodes', 2, 'appWans', 'nodes')).toEqual([
        { id: appWans[0], services: { totalCount: 0 } },
        { id: appWans[1], services: { totalCount: 0 } },
      ]);
    });
    expect(batched.data).toEqual((await unbatched(query, { n })).data);
  });
});
