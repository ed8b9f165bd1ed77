import { createNetworkLoaders, type NetworkLoaders } from '../../../src/upstream/network/loaders';
import type { SortSpec } from '../../../src/upstream/network/client';
import type { PageWindow } from '../../../src/upstream/paging';
import { fakeGroups, type FakeGroupsOptions } from './fake-groups';

const WHOLE: PageWindow = { offset: 0, count: 1000 };
const ids = (list: ReadonlyArray<{ id: string }>) => list.map((x) => x.id);

async function groupsOf(loaders: NetworkLoaders) {
  return (await loaders.list('networkGroup', { offset: 0, count: Infinity })).items;
}

/** Every group's networks in one batch, as `NetworkGroup.networks` asks them. */
async function networksOfAll(opts: FakeGroupsOptions, batching: boolean, window = WHOLE, sort: SortSpec[] = []) {
  const http = fakeGroups(opts);
  const loaders = createNetworkLoaders(http, { batching });
  const groups = await groupsOf(loaders);
  http.calls.length = 0;
  const answers = await Promise.all(groups.map((g) => loaders.networksOf(g, sort, window)));
  return { http, loaders, answers: answers.map((a) => ({ ids: ids(a.items), totalCount: a.totalCount })) };
}

/** Every network's endpoints in one batch, as `Network.endpoints` asks them. */
async function endpointsOfAll(opts: FakeGroupsOptions, batching: boolean, window = WHOLE, sort: SortSpec[] = [], only?: string[]) {
  const http = fakeGroups(opts);
  const loaders = createNetworkLoaders(http, { batching });
  const networks = (await loaders.list('network', { offset: 0, count: Infinity })).items.filter((n) => only === undefined || only.includes(n.id));
  http.calls.length = 0;
  const answers = await Promise.all(networks.map((n) => loaders.endpointsOf(n, sort, window)));
  return { http, loaders, answers: answers.map((a) => ({ ids: ids(a.items), totalCount: a.totalCount })) };
}

describe('shared lists: NetworkGroup.networks', () => {
  it('answers every group from one /networks list, equal to the per-group lists', async () => {
    const shared = await networksOfAll({}, true);
    const naive = await networksOfAll({}, false);
    expect(shared.answers).toEqual(naive.answers);
    expect(shared.answers.map((a) => a.ids)).toEqual([['n-0', 'n-1'], ['n-2', 'n-3', 'n-4']]);
    expect(shared.http.calls).toEqual(['/networks']);
    expect(naive.http.calls).toEqual(['/networks', '/networks']); // each filtered by its group
    expect(shared.loaders.listPlans).toEqual([{ list: 'networks', shared: 'all', parents: 2, plan: 'shared' }]);
  });

  it('keeps windows, totals and sort of the per-group lists', async () => {
    for (const [window, sort] of [
      [{ offset: 1, count: 1 }, []],
      [{ offset: 0, count: 2 }, [{ field: 'name', direction: 'ASC' }]],
      [{ offset: 5, count: 2 }, [{ field: 'name', direction: 'DESC' }]],
    ] as const) {
      const shared = await networksOfAll({ pageMax: 2 }, true, window, [...sort]);
      const naive = await networksOfAll({ pageMax: 2 }, false, window, [...sort]);
      expect(shared.answers).toEqual(naive.answers);
    }
  });

  it('falls back to the per-group lists when a network has no organizationId', async () => {
    const shared = await networksOfAll({ drop: { organizationId: true } }, true);
    const naive = await networksOfAll({ drop: { organizationId: true } }, false);
    expect(shared.answers).toEqual(naive.answers);
    expect(shared.http.calls).toEqual(['/networks', '/networks', '/networks']);
    expect(shared.loaders.listPlans).toEqual([{ list: 'networks', shared: 'all', parents: 2, plan: 'per-parent', sharedInexact: true }]);
  });

  it('asks a group absent from /networks its own list (an upstream scoping /networks to one group)', async () => {
    const shared = await networksOfAll({ networksOfG0Only: true }, true);
    const naive = await networksOfAll({ networksOfG0Only: true }, false);
    expect(shared.answers).toEqual(naive.answers);
    expect(shared.http.calls).toEqual(['/networks', '/networks']);
  });

  it('a single group takes its own list', async () => {
    const http = fakeGroups();
    const loaders = createNetworkLoaders(http, { batching: true });
    const [g0] = await groupsOf(loaders);
    if (g0 === undefined) throw new Error('no group');
    http.calls.length = 0;
    expect(ids((await loaders.networksOf(g0, [], WHOLE)).items)).toEqual(['n-0', 'n-1']);
    expect(loaders.listPlans).toEqual([{ list: 'networks', shared: 'all', parents: 1, plan: 'per-parent' }]);
  });
});

describe('shared lists: Network.endpoints', () => {
  it.each(['paged', 'hal', 'bare'] as const)('answers the networks of a group from its %s group list, equal to the per-network lists', async (groupForm) => {
    const shared = await endpointsOfAll({ groupForm, pageMax: 4 }, true);
    const naive = await endpointsOfAll({ groupForm, pageMax: 4 }, false);
    expect(shared.answers).toEqual(naive.answers);
    // Creation order (ids descend within a network, so this is not id order).
    expect(shared.answers[0]?.ids).toEqual(['ep-n-0-4', 'ep-n-0-3', 'ep-n-0-2', 'ep-n-0-1', 'ep-n-0-0']);
    expect(shared.http.count(/\/networks\/n-\d\/endpoints$/)).toBe(0);
    // g-0 holds 10 endpoints, g-1 10: 3 pages of 4 each when paged, else one answer.
    expect(shared.http.count(/\/networkgroups\/g-\d\/endpoints$/)).toBe(groupForm === 'paged' ? 6 : 2);
    expect(naive.http.count(/\/networks\/n-\d\/endpoints$/)).toBe(4 * 2 + 1);
    expect(shared.loaders.listPlans).toEqual([
      { list: 'endpoints', shared: 'g-0', parents: 2, plan: 'shared' },
      { list: 'endpoints', shared: 'g-1', parents: 3, plan: 'shared' },
    ]);
  });

  it('keeps windows, totals and caller sorts of the per-network lists', async () => {
    for (const [window, sort] of [
      [{ offset: 1, count: 2 }, []],
      [{ offset: 0, count: 3 }, [{ field: 'name', direction: 'ASC' }]],
      [{ offset: 2, count: 10 }, [{ field: 'name', direction: 'DESC' }]],
      [{ offset: 0, count: 10 }, [{ field: 'status', direction: 'ASC' }]],
    ] as const) {
      const shared = await endpointsOfAll({}, true, window, [...sort]);
      const naive = await endpointsOfAll({}, false, window, [...sort]);
      expect(shared.answers).toEqual(naive.answers);
      expect(shared.http.count(/\/networks\/n-\d\/endpoints$/)).toBe(0);
    }
  });

  it('asks both lists for the same total order: the sort keys, then id', async () => {
    const http = fakeGroups();
    const loaders = createNetworkLoaders(http, { batching: true });
    const sent: unknown[] = [];
    const spy = { send: (req: Parameters<typeof http.send>[0]) => (sent.push(req.query?.['sort']), http.send(req)) };
    const spied = createNetworkLoaders(spy, { batching: false });
    const [n0] = (await loaders.list('network', { offset: 0, count: Infinity })).items;
    if (n0 === undefined) throw new Error('no network');
    await spied.endpointsOf(n0, [], WHOLE);
    await spied.endpointsOf(n0, [{ field: 'name', direction: 'DESC' }], WHOLE);
    expect(sent).toEqual([['createdAt,ASC', 'id,ASC'], ['name,DESC', 'id,ASC']]);
  });

  it('falls back to the per-network lists when the group list ignores the order asked', async () => {
    const shared = await endpointsOfAll({ groupIgnoresSort: true }, true);
    const naive = await endpointsOfAll({}, false);
    expect(shared.answers).toEqual(naive.answers);
    expect(shared.http.count(/\/networks\/n-\d\/endpoints$/)).toBe(5);
    expect(shared.loaders.listPlans.every((p) => p.plan === 'per-parent' && p.sharedInexact === true)).toBe(true);
  });

  it('falls back to the per-network lists when an endpoint has no networkId', async () => {
    const shared = await endpointsOfAll({ drop: { networkId: true } }, true);
    const naive = await endpointsOfAll({ drop: { networkId: true } }, false);
    expect(shared.answers).toEqual(naive.answers);
    // g-0 (holding the record without networkId) per network; g-1 still from its group list.
    expect(shared.http.calls.filter((c) => c.includes('/endpoints')).sort()).toEqual([
      '/networkgroups/g-0/endpoints',
      '/networkgroups/g-1/endpoints',
      '/networks/n-0/endpoints',
      '/networks/n-1/endpoints',
    ]);
  });

  it('a network without organizationId, or alone in its group, takes its own list', async () => {
    const alone = await endpointsOfAll({}, true, WHOLE, [], ['n-0', 'n-2']);
    expect(alone.http.calls.sort()).toEqual(['/networks/n-0/endpoints', '/networks/n-2/endpoints']);
    const noGroup = await endpointsOfAll({ drop: { organizationId: true } }, true, WHOLE, [], ['n-0', 'n-1']);
    expect(noGroup.http.calls.sort()).toEqual(['/networks/n-0/endpoints', '/networks/n-1/endpoints']);
  });
});
