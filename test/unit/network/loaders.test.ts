import { createNetworkLoaders } from '../../../src/upstream/network/loaders';
import { fakeNetwork } from './fake-rest';

async function endpointsWithAppWans(endpoints: number, appWans: number, batching: boolean) {
  const http = fakeNetwork({ endpoints, appWans });
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

  it('reuses the cached member lists for AppWan.endpoints after the index', async () => {
    const run = await endpointsWithAppWans(6, 3, true);
    const before = run.http.calls.length;
    const members = await run.loaders.members(
      { parent: 'appWan', rel: 'endpoints', suffix: '/endpoints', child: 'endpoint' },
      { id: 'aw-0', networkId: 'net-1', links: {} },
    );
    expect(members.map((e) => e.id)).toEqual(['ep-0', 'ep-3']);
    expect(run.http.calls.length).toBe(before);
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
