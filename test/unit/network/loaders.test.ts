import { createNetworkLoaders } from '../../../src/upstream/network/loaders';
import { fakeNetwork, type FakeNetworkOptions } from './fake-rest';
import { inRounds } from './rounds';

async function endpointsWithAppWans(endpoints: number, appWans: number, batching: boolean, more: Partial<FakeNetworkOptions> = {}) {
  const http = fakeNetwork({ endpoints, appWans, ...more });
  const loaders = createNetworkLoaders(http, { batching });
  const list = await loaders.all('endpoint', 'net-1');
  const answers = await Promise.all(list.map((e) => loaders.appWansOf('endpoint', { id: e.id, networkId: 'net-1', links: e.links })));
  return { http, loaders, list, answers };
}

describe('network loaders: AppWAN membership plan', () => {
  it('answers many endpoints from the membership index: calls do not grow with endpoints', async () => {
    const small = await endpointsWithAppWans(6, 3, true);
    const large = await endpointsWithAppWans(60, 3, true);
    for (const run of [small, large]) {
      expect(run.http.count(/\/endpoints\/ep-\d+\/appWans$/)).toBe(0);
      expect(run.http.count(/\/appWans$/)).toBe(1); // the network's AppWAN list
      expect(run.http.count(/\/appWans\/aw-\d+\/endpoints$/)).toBe(3);
      expect(run.http.count(/\/net-1\/endpointGroups$/)).toBe(1); // the network's endpoint groups: none
      expect(run.http.count(/\/appWans\/aw-\d+\/endpointGroups$/)).toBe(0); // so no AppWAN holds one
    }
    expect(large.http.calls.length).toBe(small.http.calls.length);
    expect(large.loaders.plans).toEqual([{ side: 'endpoint', networkId: 'net-1', parents: 60, plan: 'membership-index' }]);
  });

  it('inverts membership correctly (same answer as the per-endpoint calls)', async () => {
    const indexed = await endpointsWithAppWans(7, 3, true);
    const naive = await endpointsWithAppWans(7, 3, false);
    const ids = (run: typeof indexed) => run.answers.map((list) => list.map((a) => a.id).sort());
    expect(ids(indexed)).toEqual(ids(naive));
    expect(ids(indexed)[4]).toEqual(['aw-1']);
  });

  it('with batching off, takes one relation call per endpoint', async () => {
    const run = await endpointsWithAppWans(7, 3, false);
    expect(run.http.count(/\/endpoints\/ep-\d+\/appWans$/)).toBe(7);
    expect(run.loaders.plans.every((p) => p.plan === 'per-parent')).toBe(true);
  });

  it('a single endpoint takes its own relation call', async () => {
    const http = fakeNetwork({ endpoints: 5, appWans: 3 });
    const loaders = createNetworkLoaders(http, { batching: true });
    const answer = await loaders.appWansOf('endpoint', { id: 'ep-2', networkId: 'net-1', links: {} });
    expect(answer.map((a) => a.id)).toEqual(['aw-2']);
    expect(http.calls).toEqual(['/networks/net-1/endpoints/ep-2/appWans']);
  });

  it('the index reads only ids; AppWan.endpoints asked after it answers from the records already known, asked before it answers the index', async () => {
    const rel = { parent: 'appWan', rel: 'endpoints', suffix: '/endpoints', child: 'endpoint' } as const;
    const after = await endpointsWithAppWans(6, 3, true);
    const before = after.http.calls.length;
    const members = await after.loaders.members(rel, { id: 'aw-0', networkId: 'net-1', links: {} });
    expect(members.map((e) => e.id)).toEqual(['ep-0', 'ep-3']);
    expect(members.every((e) => after.list.includes(e))).toBe(true); // the network list's records
    expect(after.http.calls.length).toBe(before);

    // Records not known (the network's endpoint list was never read): the member list is read.
    const cold = fakeNetwork({ endpoints: 6, appWans: 3 });
    const coldLoaders = createNetworkLoaders(cold, { batching: true });
    await Promise.all(['ep-0', 'ep-1', 'ep-2', 'ep-3'].map((id) => coldLoaders.appWansOf('endpoint', { id, networkId: 'net-1', links: {} })));
    expect(coldLoaders.plans.map((p) => p.plan)).toEqual(['membership-index']);
    const coldBefore = cold.count(/\/appWans\/aw-0\/endpoints$/);
    expect(coldBefore).toBe(1); // the index's ids-only read
    expect((await coldLoaders.members(rel, { id: 'aw-0', networkId: 'net-1', links: {} })).map((e) => e.id)).toEqual(['ep-0', 'ep-3']);
    expect(cold.count(/\/appWans\/aw-0\/endpoints$/)).toBe(coldBefore + 1);

    const http = fakeNetwork({ endpoints: 6, appWans: 3 });
    const loaders = createNetworkLoaders(http, { batching: true });
    await Promise.all(['aw-0', 'aw-1', 'aw-2'].map((id) => loaders.members(rel, { id, networkId: 'net-1', links: {} })));
    const list = await loaders.all('endpoint', 'net-1');
    const answers = await Promise.all(list.map((e) => loaders.appWansOf('endpoint', { id: e.id, networkId: 'net-1', links: e.links })));
    expect(answers.map((a) => a.map((w) => w.id))).toEqual(after.answers.map((a) => a.map((w) => w.id)));
    expect(http.count(/\/appWans\/aw-\d+\/endpoints$/)).toBe(3);
  });

  it('service AppWANs use the same rule on the service side', async () => {
    const http = fakeNetwork({ endpoints: 2, appWans: 4 });
    const loaders = createNetworkLoaders(http, { batching: true });
    const [a, b] = await Promise.all(['svc-0', 'svc-1'].map((id) => loaders.appWansOf('service', { id, networkId: 'net-1', links: {} })));
    expect(a?.map((x) => x.id)).toEqual(['aw-0', 'aw-2']);
    expect(b?.map((x) => x.id)).toEqual(['aw-1', 'aw-3']);
    expect(http.count(/\/services\/svc-\d+\/appWans$/)).toBe(0);
  });
});

describe('network loaders: AppWAN membership through endpoint groups', () => {
  const ids = (answers: ReadonlyArray<ReadonlyArray<{ id: string }>>) => answers.map((list) => list.map((a) => a.id));

  /** Every endpoint's AppWANs of one network, call rounds recorded; checks the answers equal the per-endpoint calls. */
  async function indexInRounds(appWans: number, groups: number) {
    const rounds = inRounds(fakeNetwork({ endpoints: 12, appWans, groups }));
    const loaders = createNetworkLoaders(rounds.http, { batching: true });
    const answers = await rounds.run(async () => {
      const list = await loaders.all('endpoint', 'net-1');
      return Promise.all(list.map((e) => loaders.appWansOf('endpoint', { id: e.id, networkId: 'net-1', links: e.links })));
    });
    const naive = await endpointsWithAppWans(12, appWans, false, { groups });
    expect(ids(answers)).toEqual(ids(naive.answers));
    return rounds;
  }

  it('the index counts the members of held groups: same answer as the per-endpoint calls', async () => {
    const indexed = await endpointsWithAppWans(12, 6, true, { groups: 2 });
    const naive = await endpointsWithAppWans(12, 6, false, { groups: 2 });
    expect(ids(indexed.answers)).toEqual(ids(naive.answers));
    // ep-3 is a direct member of aw-3 only, and reaches aw-0 and aw-4 through eg-0.
    expect(ids(indexed.answers)[3]).toEqual(['aw-0', 'aw-3', 'aw-4']);
    // ep-0 is a direct member of aw-0 and in eg-0, which aw-0 holds too: aw-0 once.
    expect(ids(indexed.answers)[0]).toEqual(['aw-0', 'aw-4']);
    expect(indexed.loaders.plans).toEqual([{ side: 'endpoint', networkId: 'net-1', parents: 12, plan: 'membership-index' }]);
  });

  it('costs 2 + 2 × AppWANs + groups, each group once, at its link, whatever the endpoints', async () => {
    const small = await endpointsWithAppWans(12, 6, true, { groups: 2 });
    const large = await endpointsWithAppWans(90, 6, true, { groups: 2 });
    for (const run of [small, large]) {
      expect(run.http.count(/\/endpoints\/ep-\d+\/appWans$/)).toBe(0);
      expect(run.http.count(/\/net-1\/appWans$/)).toBe(1);
      expect(run.http.count(/\/net-1\/endpointGroups$/)).toBe(1);
      expect(run.http.count(/\/appWans\/aw-\d+\/endpoints$/)).toBe(6);
      expect(run.http.count(/\/appWans\/aw-\d+\/endpointGroups$/)).toBe(6);
      // aw-0 and aw-4 hold eg-0, aw-2 holds eg-1: two distinct groups, read at their absolute hrefs.
      expect(run.http.calls.filter((c) => /\/endpointGroups\/eg-\d+\/endpoints$/.test(c)).sort()).toEqual([
        'http://upstream.example/rest/v1/networks/net-1/endpointGroups/eg-0/endpoints',
        'http://upstream.example/rest/v1/networks/net-1/endpointGroups/eg-1/endpoints',
      ]);
    }
    // + the endpoint list itself.
    expect(small.http.calls.length).toBe(1 + 2 + 2 * 6 + 2);
    expect(large.http.calls.length).toBe(small.http.calls.length);
  });

  it('follows every page of a group member list', async () => {
    const run = await endpointsWithAppWans(450, 4, true, { groups: 1, pageMax: 200 });
    const naive = await endpointsWithAppWans(450, 4, false, { groups: 1, pageMax: 200 });
    expect(ids(run.answers)).toEqual(ids(naive.answers));
    expect(run.http.count(/\/endpointGroups\/eg-0\/endpoints$/)).toBe(2); // 225 members at 200 a page
  });

  it('falls back to per-parent when a held group has no members link', async () => {
    const run = await endpointsWithAppWans(12, 6, true, { groups: 2, groupLinks: false });
    const naive = await endpointsWithAppWans(12, 6, false, { groups: 2 });
    expect(ids(run.answers)).toEqual(ids(naive.answers));
    expect(run.loaders.plans).toEqual([{ side: 'endpoint', networkId: 'net-1', parents: 12, plan: 'per-parent', indexInexact: true }]);
    // The index's lists (2 + 2 × AppWANs), no group member call, then one call per endpoint.
    expect(run.http.count(/\/net-1\/appWans$/)).toBe(1);
    expect(run.http.count(/\/appWans\/aw-\d+\/(endpoints|endpointGroups)$/)).toBe(12);
    expect(run.http.count(/\/endpointGroups\/eg-\d+\/endpoints$/)).toBe(0);
    expect(run.http.count(/\/endpoints\/ep-\d+\/appWans$/)).toBe(12);
    expect(run.http.calls.length).toBe(1 + 2 + 2 * 6 + 12);
  });

  it('once the index is known inexact, later batches of the network go per-parent without it', async () => {
    const http = fakeNetwork({ endpoints: 6, appWans: 4, groups: 1, groupLinks: false });
    const loaders = createNetworkLoaders(http, { batching: true });
    const ask = (id: string) => loaders.appWansOf('endpoint', { id, networkId: 'net-1', links: {} });
    const first = await Promise.all(['ep-0', 'ep-1'].map(ask));
    const before = http.calls.length;
    const second = await Promise.all(['ep-2', 'ep-3'].map(ask));
    expect(http.calls.slice(before)).toEqual(['/networks/net-1/endpoints/ep-2/appWans', '/networks/net-1/endpoints/ep-3/appWans']);
    expect(ids([...first, ...second])).toEqual([['aw-0', 'aw-2'], ['aw-1'], ['aw-0', 'aw-2'], ['aw-3']]);
    expect(loaders.plans).toEqual([
      { side: 'endpoint', networkId: 'net-1', parents: 2, plan: 'per-parent', indexInexact: true },
      { side: 'endpoint', networkId: 'net-1', parents: 2, plan: 'per-parent' },
    ]);
  });

  it('reads every group of the network in the same round trip as the per-AppWAN lists (no more groups than AppWANs)', async () => {
    // 3 groups, 4 AppWANs: aw-0 holds eg-0, aw-2 eg-1, eg-2 is held by none and read all the same.
    const { byRound } = await indexInRounds(4, 3);
    expect(byRound()).toEqual([
      ['/networks/net-1/endpoints'],
      ['/networks/net-1/appWans', '/networks/net-1/endpointGroups'],
      [
        ...[0, 1, 2, 3].flatMap((k) => [`/networks/net-1/appWans/aw-${k}/endpoints`, `/networks/net-1/appWans/aw-${k}/endpointGroups`]),
        ...[0, 1, 2].map((g) => `http://upstream.example/rest/v1/networks/net-1/endpointGroups/eg-${g}/endpoints`),
      ].sort(),
    ]);
  });

  it('with more groups than AppWANs, reads only the held groups, one round trip later', async () => {
    // 3 groups, 2 AppWANs: only aw-0 holds a group (eg-0).
    const { byRound } = await indexInRounds(2, 3);
    expect(byRound().slice(2)).toEqual([
      ['/networks/net-1/appWans/aw-0/endpointGroups', '/networks/net-1/appWans/aw-0/endpoints', '/networks/net-1/appWans/aw-1/endpointGroups', '/networks/net-1/appWans/aw-1/endpoints'],
      ['http://upstream.example/rest/v1/networks/net-1/endpointGroups/eg-0/endpoints'],
    ]);
  });

  it('the service side needs no groups: AppWANs hold services directly', async () => {
    const http = fakeNetwork({ endpoints: 4, appWans: 4, groups: 2 });
    const loaders = createNetworkLoaders(http, { batching: true });
    const [a, b] = await Promise.all(['svc-0', 'svc-1'].map((id) => loaders.appWansOf('service', { id, networkId: 'net-1', links: {} })));
    expect(a?.map((x) => x.id)).toEqual(['aw-0', 'aw-2']);
    expect(b?.map((x) => x.id)).toEqual(['aw-1', 'aw-3']);
    expect(http.count(/\/endpointGroups/)).toBe(0);
    expect(http.calls.length).toBe(1 + 4);
  });
});

describe('network loaders: lists and by-id', () => {
  it('a list primes the by-id loader', async () => {
    const http = fakeNetwork({ endpoints: 3, appWans: 1 });
    const loaders = createNetworkLoaders(http, { batching: true });
    await loaders.list('endpoint', { offset: 0, count: 10 }, { networkId: 'net-1' });
    const e = await loaders.byId('endpoint', 'ep-1', 'net-1');
    expect(e.name).toBe('ep 1');
    expect(http.calls).toEqual(['/networks/net-1/endpoints']);
  });

  it('dedupes by-id loads in one request, and not at all with batching off', async () => {
    for (const [batching, expected] of [[true, 1], [false, 3]] as const) {
      const http = fakeNetwork({ endpoints: 3, appWans: 1 });
      const loaders = createNetworkLoaders(http, { batching });
      await Promise.all([1, 2, 3].map(() => loaders.byId('network', 'net-1')));
      expect(http.calls.length).toBe(expected);
    }
  });

  it('follows clamped pages for a large window', async () => {
    const http = fakeNetwork({ endpoints: 450, appWans: 1, pageMax: 200 });
    const loaders = createNetworkLoaders(http, { batching: true });
    const r = await loaders.list('endpoint', { offset: 0, count: 500 }, { networkId: 'net-1' });
    expect(r.items).toHaveLength(450);
    expect(r.totalCount).toBe(450);
    expect(http.calls).toHaveLength(3);
  });

  it('turns a body of the wrong shape into UPSTREAM_BAD_RESPONSE', async () => {
    const http = fakeNetwork({ endpoints: 1, appWans: 1 });
    const loaders = createNetworkLoaders(http, { batching: true });
    await expect(loaders.listAt('endpoint', { path: '/bad-shape' }, { offset: 0, count: 5 })).rejects.toMatchObject({
      code: 'UPSTREAM_BAD_RESPONSE',
      upstream: { service: 'rest-v1', path: '/bad-shape', status: 200 },
    });
  });
});

describe('network loaders: catalogs', () => {
  it('answers several data centers with one list call, and a single one by id', async () => {
    const http = fakeNetwork({ endpoints: 1, appWans: 1 });
    const loaders = createNetworkLoaders(http, { batching: true });
    const many = await Promise.all(['dc-0', 'dc-2', 'dc-0'].map((id) => loaders.byId('dataCenter', id)));
    expect(many.map((d) => d.locationCode)).toEqual(['loc-dc-0', 'loc-dc-2', 'loc-dc-0']);
    expect(http.calls).toEqual(['/dataCenters']);

    const fresh = createNetworkLoaders(http, { batching: true });
    await fresh.byId('dataCenter', 'dc-1');
    expect(http.calls.slice(1)).toEqual(['/dataCenters/dc-1']);
  });

  it('an id missing from the catalog is fetched alone and fails NOT_FOUND', async () => {
    const http = fakeNetwork({ endpoints: 1, appWans: 1 });
    const loaders = createNetworkLoaders(http, { batching: true });
    const [found, missing] = await Promise.allSettled(['dc-1', 'dc-9'].map((id) => loaders.byId('dataCenter', id)));
    expect(found).toMatchObject({ status: 'fulfilled', value: { id: 'dc-1' } });
    expect(missing).toMatchObject({ status: 'rejected', reason: { code: 'NOT_FOUND' } });
    expect(http.calls).toEqual(['/dataCenters', '/dataCenters/dc-9']);
  });
});

describe('network loaders: links and batches across networks', () => {
  it('follows the parent HAL href of a member list when it has one', async () => {
    const http = fakeNetwork({ endpoints: 3, appWans: 2 });
    const loaders = createNetworkLoaders(http, { batching: true });
    const members = await loaders.members(
      { parent: 'appWan', rel: 'endpoints', suffix: '/endpoints', child: 'endpoint' },
      { id: 'ignored', networkId: 'net-1', links: { endpoints: 'http://upstream.example/rest/v1/networks/net-1/appWans/aw-1/endpoints{?page,size}' } },
    );
    expect(members.map((e) => e.id)).toEqual(['ep-1']);
    expect(http.calls).toEqual(['http://upstream.example/rest/v1/networks/net-1/appWans/aw-1/endpoints']);
  });

  it('decides per network within one batch', async () => {
    const http = fakeNetwork({ endpoints: 4, appWans: 2 });
    const loaders = createNetworkLoaders(http, { batching: true });
    await Promise.allSettled([
      loaders.appWansOf('endpoint', { id: 'ep-0', networkId: 'net-1', links: {} }),
      loaders.appWansOf('endpoint', { id: 'ep-1', networkId: 'net-1', links: {} }),
      loaders.appWansOf('endpoint', { id: 'ep-9', networkId: 'net-2', links: {} }),
    ]);
    expect(loaders.plans).toEqual([
      { side: 'endpoint', networkId: 'net-1', parents: 2, plan: 'membership-index' },
      { side: 'endpoint', networkId: 'net-2', parents: 1, plan: 'per-parent' },
    ]);
  });
});
