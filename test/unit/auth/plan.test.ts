import { chooseRelationPlan } from '../../../src/upstream/auth/plan';
import { createAuthLoaders } from '../../../src/upstream/auth/loaders';
import { FakeAuthHttp, queryOf } from './fake-auth-http';

describe('chooseRelationPlan', () => {
  const base = { batching: true, domainId: 'd1', typesInBatch: 1, domainListLoaded: false };
  it.each([
    [{}, 'per-parent'],
    [{ typesInBatch: 2 }, 'domain-list'],
    [{ domainListLoaded: true }, 'domain-list'],
    [{ typesInBatch: 50, batching: false }, 'per-parent'],
    [{ typesInBatch: 50, domainId: null }, 'per-parent'],
  ] as const)('%j → %s', (change, plan) => {
    expect(chooseRelationPlan({ ...base, ...change })).toBe(plan);
  });
});

/** A domain with a root, `n` children under it and one grandchild; two actions per type. */
function domainOf(n: number) {
  const kids = Array.from({ length: n }, (_, i) => `t${i + 1}`);
  const types = [
    { id: 'root', domainId: 'd1', code: 'root', parentId: null, root: true, depth: 0, childrenIds: kids },
    ...kids.map((id, i) => ({ id, domainId: 'd1', code: id, parentId: 'root', root: false, depth: 1, childrenIds: i === 0 ? ['g1'] : [] })),
    { id: 'g1', domainId: 'd1', code: 'g1', parentId: 't1', root: false, depth: 2, childrenIds: [] },
  ];
  const actions = types.flatMap((t) => ['read', 'create'].map((code) => ({ id: `${t.id}-${code}`, resourceTypeId: t.id, code })));
  return new FakeAuthHttp({
    'GET /domains/d1': () => ({ id: 'd1', code: 'demo' }),
    'GET /resource-types': (req) => {
      const parentId = queryOf(req, 'parentId');
      return parentId === undefined ? types : types.filter((t) => t.parentId === parentId);
    },
    'GET /resource-types/root': () => types[0],
    'GET /resource-actions': (req) => {
      const typeId = queryOf(req, 'resourceTypeId');
      return typeId === undefined ? actions : actions.filter((a) => a.resourceTypeId === typeId);
    },
  });
}

/** Walks the tree like `domain { resourceTypes { nodes { children { children } actions } } }`. */
async function walkTree(http: FakeAuthHttp, batching: boolean) {
  const loaders = createAuthLoaders(http, { batching });
  const domain = await loaders.domain.load('d1');
  const types = await loaders.resourceTypes.load({ domainId: domain.id });
  const result = await Promise.all(
    types.map(async (t) => {
      const [children, actions] = await Promise.all([loaders.children.load(t), loaders.actions.load(t)]);
      const grandchildren = await Promise.all(children.map((c) => loaders.children.load(c)));
      return { id: t.id, children: children.map((c) => c.id), grandchildren: grandchildren.flat().map((g) => g.id), actions: actions.map((a) => a.code) };
    }),
  );
  return result;
}

describe('auth loaders: the domain type tree', () => {
  it('costs 3 calls whatever the number of types (domain, its types, its actions)', async () => {
    for (const n of [2, 40]) {
      const http = domainOf(n);
      const tree = await walkTree(http, true);
      expect(tree.find((t) => t.id === 'root')).toMatchObject({ grandchildren: ['g1'], actions: ['read', 'create'] });
      expect(tree.find((t) => t.id === 'root')?.children).toHaveLength(n);
      expect(http.described()).toEqual(['GET /domains/d1', 'GET /resource-types?domainId=d1', 'GET /resource-actions?domainId=d1']);
    }
  });

  it('answers the same data with batching off, at one call per type and relation', async () => {
    const batched = await walkTree(domainOf(3), true);
    const http = domainOf(3);
    const naive = await walkTree(http, false);
    expect(naive).toEqual(batched);
    // domain + list, then per type (5) its actions, and children only of types not known to be
    // leaves: root and t1, then t1 again as root's child (no cache with batching off).
    expect(http.calls.length).toBe(2 + 5 + 3);
    expect(http.described()).toContain('GET /resource-actions?resourceTypeId=t2');
  });

  it('asks a single type for its own children and actions (per-parent plan)', async () => {
    const http = domainOf(5);
    const loaders = createAuthLoaders(http, { batching: true });
    const root = await loaders.resourceType.load('root');
    const [children, actions] = await Promise.all([loaders.children.load(root), loaders.actions.load(root)]);
    expect(children.map((c) => c.id)).toEqual(['t1', 't2', 't3', 't4', 't5']);
    expect(actions).toHaveLength(2);
    expect(http.described()).toEqual([
      'GET /resource-types/root',
      'GET /resource-types?parentId=root',
      'GET /resource-actions?resourceTypeId=root',
    ]);
  });

  it('primes a domain by id and by code from the domain list', async () => {
    const http = new FakeAuthHttp({ 'GET /domains': () => [{ id: 'd1', code: 'demo' }] });
    const loaders = createAuthLoaders(http, { batching: true });
    await loaders.domains.load({});
    const [byId, byCode] = await Promise.all([loaders.domain.load('d1'), loaders.domain.load('demo')]);
    expect(byId).toBe(byCode);
    expect(http.calls).toHaveLength(1);
  });

  it('primes a domain fetched by code under its id', async () => {
    const http = new FakeAuthHttp({ 'GET /domains/demo': () => ({ id: 'd1', code: 'demo' }) });
    const loaders = createAuthLoaders(http, { batching: true });
    const byCode = await loaders.domain.load('demo');
    expect(await loaders.domain.load('d1')).toBe(byCode);
    expect(http.calls).toHaveLength(1);
  });
});
