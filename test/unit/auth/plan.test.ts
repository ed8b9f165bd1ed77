import { byIdFromList, chooseRelationPlan, useUnfilteredList } from '../../../src/upstream/auth/plan';
import { createAuthLoaders } from '../../../src/upstream/auth/loaders';
import { FakeAuthHttp, queryOf } from './fake-auth-http';

describe('chooseRelationPlan', () => {
  const base = { batching: true, domainId: 'd1', typesInBatch: 1, domainsInBatch: 1, domainListLoaded: false, allListLoaded: false };
  it.each([
    [{}, 'per-parent'],
    [{ typesInBatch: 2 }, 'domain-list'],
    [{ domainListLoaded: true }, 'domain-list'],
    [{ domainsInBatch: 2 }, 'all-list'],
    [{ allListLoaded: true, domainListLoaded: true }, 'all-list'],
    [{ domainListLoaded: true, domainsInBatch: 3 }, 'domain-list'],
    [{ typesInBatch: 50, batching: false }, 'per-parent'],
    [{ typesInBatch: 50, domainId: null }, 'per-parent'],
    [{ domainId: null, domainsInBatch: 2 }, 'all-list'],
  ] as const)('%j → %s', (change, plan) => {
    expect(chooseRelationPlan({ ...base, ...change })).toBe(plan);
  });
});

describe('useUnfilteredList', () => {
  it.each([
    [{ batching: true, domainFiltersInBatch: 1, allListLoaded: false }, false],
    [{ batching: true, domainFiltersInBatch: 2, allListLoaded: false }, true],
    [{ batching: true, domainFiltersInBatch: 1, allListLoaded: true }, true],
    [{ batching: false, domainFiltersInBatch: 5, allListLoaded: true }, false],
  ] as const)('%j → %s', (input, expected) => {
    expect(useUnfilteredList(input)).toBe(expected);
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

  it('answers every domain\'s tree with one unfiltered list each for types and actions', async () => {
    const types = ['d1', 'd2', 'd3'].flatMap((d) => [
      { id: `${d}-root`, domainId: d, code: 'root', parentId: null, childrenIds: [`${d}-kid`] },
      { id: `${d}-kid`, domainId: d, code: 'kid', parentId: `${d}-root`, childrenIds: [] },
    ]);
    const http = new FakeAuthHttp({
      'GET /domains': () => ['d1', 'd2', 'd3'].map((id) => ({ id, code: id })),
      'GET /resource-types': () => types,
      'GET /resource-actions': () => types.map((t) => ({ id: `${t.id}-read`, resourceTypeId: t.id, code: 'read' })),
    });
    const loaders = createAuthLoaders(http, { batching: true });
    const domains = await loaders.domains.load({});
    const trees = await Promise.all(
      domains.map(async (d) => {
        const roots = (await loaders.resourceTypes.load({ domainId: d.id })).filter((t) => t.root);
        return Promise.all(
          roots.map(async (r) => {
            const [kids, actions] = await Promise.all([loaders.children.load(r), loaders.actions.load(r)]);
            const kidActions = await Promise.all(kids.map((k) => loaders.actions.load(k)));
            return { root: r.id, kids: kids.map((k) => k.id), actions: actions.map((a) => a.id), kidActions: kidActions.flat().map((a) => a.id) };
          }),
        );
      }),
    );
    expect(trees[1]).toEqual([{ root: 'd2-root', kids: ['d2-kid'], actions: ['d2-root-read'], kidActions: ['d2-kid-read'] }]);
    expect(http.described()).toEqual(['GET /domains', 'GET /resource-types', 'GET /resource-actions']);
  });

  it('loads two or more ids from one list, fetching ids the list lacks one by one', async () => {
    const http = new FakeAuthHttp({
      'GET /super-users': () => [{ id: 's1' }, { id: 's2' }],
      'GET /super-users/s3': () => ({ id: 's3', deletedAt: '2024-01-01T00:00:00.000Z' }),
    });
    const loaders = createAuthLoaders(http, { batching: true });
    const found = await Promise.all(['s1', 's2', 's3'].map((id) => loaders.superUser.load(id)));
    expect(found.map((s) => s.id)).toEqual(['s1', 's2', 's3']);
    expect(http.described()).toEqual(['GET /super-users', 'GET /super-users/s3']);
    expect(byIdFromList({ batching: true, idsInBatch: 1 })).toBe(false);
    expect(byIdFromList({ batching: false, idsInBatch: 9 })).toBe(false);
  });
});
