/** Upstream call counts of the domain type tree: the same few calls whatever the number of types. */
import { at, expectResult, listAt, startAuthStack, type AuthStack } from './auth-stack';

const TREE = `query($d: String!) { domain(idOrCode: $d) { code resourceTypes { totalCount nodes {
  code domain { code } parent { code }
  children { nodes { code children { nodes { code actions { nodes { code } } } } } }
  actions { nodes { code resourceType { code } } } } } } }`;

describe.each([true, false])('domain tree, batching %s', (batching) => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack({ batching });
  });
  afterAll(async () => {
    await stack.close();
  });

  async function tree(domain: string) {
    stack.resetCalls();
    const result = await stack.gql(TREE, { d: domain });
    expectResult(TREE, result, (r) => expect(r.errors).toBeUndefined());
    return { result, calls: stack.calls() };
  }

  it(batching ? 'costs exactly 3 calls for a domain with 7 types and one with 21' : 'costs more calls as the domain grows', async () => {
    const small = await tree('auth');
    const big = await tree('network');
    expect(at(small.result.data, 'domain', 'resourceTypes', 'totalCount')).toBe(7);
    expect(at(big.result.data, 'domain', 'resourceTypes', 'totalCount')).toBe(21);
    if (batching) {
      const expected = { 'GET /auth/v1/domains/{idOrCode}': 1, 'GET /auth/v1/resource-types': 1, 'GET /auth/v1/resource-actions': 1 };
      expect(small.calls).toEqual({ total: 3, byRoute: expected });
      expect(big.calls).toEqual({ total: 3, byRoute: expected });
    } else {
      expect(big.calls.total).toBeGreaterThan(small.calls.total);
      expect(big.calls.total).toBeGreaterThan(21);
    }
  });

  it(batching ? 'costs exactly 3 calls for every domain\'s tree' : 'costs calls per domain and type for every domain\'s tree', async () => {
    const ALL = `{ domains { nodes { code resourceTypes(rootsOnly: true) { nodes { code actions { nodes { code } } children { nodes { code actions { nodes { code } } } } } } } } }`;
    stack.resetCalls();
    const result = await stack.gql(ALL);
    expectResult(ALL, result, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'domains', 'nodes', 1, 'resourceTypes', 'nodes', 0, 'children', 'nodes', 0, 'actions', 'nodes')).toEqual([{ code: 'read' }, { code: 'write' }]);
    });
    const calls = stack.calls();
    if (batching) {
      expect(calls).toEqual({ total: 3, byRoute: { 'GET /auth/v1/domains': 1, 'GET /auth/v1/resource-types': 1, 'GET /auth/v1/resource-actions': 1 } });
    } else {
      // 1 domain list + 2 type lists + actions of 10 roots + children of the 2 roots that have
      // any + actions of their 3 children.
      expect(calls.total).toBe(1 + 2 + 10 + 2 + 3);
    }
  });

  it('answers the same tree either way', async () => {
    const { result } = await tree('network');
    const network = listAt(result.data, 'domain', 'resourceTypes', 'nodes');
    const group = network.find((t) => at(t, 'code') === 'network-group');
    expect(group).toMatchObject({ parent: null, domain: { code: 'network' }, actions: { nodes: [{ code: 'read', resourceType: { code: 'network-group' } }, { code: 'write', resourceType: { code: 'network-group' } }] } });
    expect(at(group, 'children', 'nodes', 0, 'children', 'nodes', 0)).toEqual({ code: 'endpoint', actions: { nodes: [{ code: 'read' }, { code: 'write' }] } });
  });
});

describe('links of many records share one list call', () => {
  let stack: AuthStack;
  beforeAll(async () => {
    stack = await startAuthStack();
  });
  afterAll(async () => {
    await stack.close();
  });

  const GRANTS = `{ grants { nodes { grantType
    ... on SuperUserGrant { superUser { id deleted domain { code } } }
    ... on PublicGrantGrant { publicGrant { anonymous resourceAction { code resourceType { code } } } } } } }`;

  it('grants with their super-user and public-grant records and actions: 4 calls', async () => {
    stack.resetCalls();
    const result = await stack.gql(GRANTS);
    expectResult(GRANTS, result, (r) => {
      expect(r.errors).toBeUndefined();
      const all = listAt(r.data, 'grants', 'nodes');
      const su = all.filter((g) => at(g, 'grantType') === 'SuperUser').map((g) => at(g, 'superUser', 'deleted'));
      expect(su.sort()).toEqual([false, true]);
      const pg = all.filter((g) => at(g, 'grantType') === 'PublicGrant').map((g) => at(g, 'publicGrant', 'resourceAction', 'resourceType', 'code'));
      expect(pg.sort()).toEqual(['domain', 'network-config-metadata']);
    });
    // grants + super-users + public-grants + resource-actions lists, then the one domain by id and
    // the two resource types by one list.
    expect(stack.calls().byRoute).toEqual({
      'GET /auth/v1/grants': 1,
      'GET /auth/v1/super-users': 1,
      'GET /auth/v1/public-grants': 1,
      'GET /auth/v1/resource-actions': 1,
      'GET /auth/v1/resource-types': 1,
      'GET /auth/v1/domains/{idOrCode}': 1,
    });
  });

  it('the reader gets the grants with FORBIDDEN on each record it may not read', async () => {
    const result = await stack.gql(GRANTS, undefined, 'reader');
    expectResult(GRANTS, result, (r) => {
      const codes = new Set(r.errors?.map((e) => e.extensions?.['code']));
      expect(codes).toEqual(new Set(['FORBIDDEN']));
      expect(r.errors).toHaveLength(4);
      expect(listAt(r.data, 'grants', 'nodes').length).toBe(9);
    });
  });
});
