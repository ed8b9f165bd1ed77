/**
 * The loaders' prefetch (selection look-ahead, prefetch-plan.ts): reads started before the fields
 * that need them are asked, through the same cached calls, so those fields neither call again nor
 * answer differently, and one round trip is saved per level brought forward.
 */
import { UpstreamError } from '../../../src/errors/codes';
import type { HttpClient } from '../../../src/upstream/http-types';
import { createNetworkLoaders, type NetworkLoaders } from '../../../src/upstream/network/loaders';
import { choosePrefetch } from '../../../src/upstream/network/prefetch-plan';
import { relations } from '../../../src/upstream/network/resources';
import { fakeGroups } from './fake-groups';
import { fakeNetwork } from './fake-rest';
import { inRounds } from './rounds';

describe('choosePrefetch', () => {
  it.each([
    [{ batching: true, parentWindow: 2 }, true],
    [{ batching: true, parentWindow: 1000 }, true],
    // A window of one parent: the plan would take that parent's own call.
    [{ batching: true, parentWindow: 1 }, false],
    [{ batching: true, parentWindow: 0 }, false],
    // The benchmark baseline: nothing ahead.
    [{ batching: false, parentWindow: 1000 }, false],
  ] as const)('%j -> %s', (input, start) => {
    expect(choosePrefetch(input)).toBe(start);
  });
});

describe('prefetch.groupNetworks', () => {
  it('starts the shared /networks list; every group is then answered from it, no call more', async () => {
    const http = fakeGroups({});
    const loaders = createNetworkLoaders(http, { batching: true });
    loaders.prefetch.groupNetworks([], 100);
    expect(http.calls).toEqual(['/networks']);
    const groups = (await loaders.list('networkGroup', { offset: 0, count: Infinity })).items;
    const answers = await Promise.all(groups.map((g) => loaders.networksOf(g, [], { offset: 0, count: 100 })));
    expect(answers.map((a) => a.items.map((n) => n.id))).toEqual([['n-0', 'n-1'], ['n-2', 'n-3', 'n-4']]);
    expect(http.calls.filter((c) => c === '/networks')).toHaveLength(1);
    expect(loaders.listPlans).toEqual([{ list: 'networks', shared: 'all', parents: 2, plan: 'shared' }]);
  });

  it('starts nothing for a window of one group, or with batching off', () => {
    for (const [batching, window] of [[true, 1], [false, 100]] as const) {
      const http = fakeGroups({});
      createNetworkLoaders(http, { batching }).prefetch.groupNetworks([], window);
      expect(http.calls).toEqual([]);
    }
  });
});

describe('prefetch.endpointAppWans and appWanServices', () => {
  /** A network's endpoints, then every endpoint's AppWANs, then each AppWAN's services, as the executor asks them. */
  async function graphInRounds(prefetch: (loaders: NetworkLoaders) => void) {
    const rounds = inRounds(fakeNetwork({ endpoints: 12, appWans: 4, groups: 2 }));
    const loaders = createNetworkLoaders(rounds.http, { batching: true });
    const answer = await rounds.run(async () => {
      prefetch(loaders);
      const endpoints = await loaders.all('endpoint', 'net-1');
      const appWans = await Promise.all(endpoints.map((e) => loaders.appWansOf('endpoint', { id: e.id, networkId: 'net-1', links: e.links })));
      return Promise.all(appWans.map((list) => Promise.all(list.map((a) => loaders.members(relations.appWanServices, { id: a.id, networkId: 'net-1', links: a.links })))));
    });
    return { rounds, answer, loaders };
  }

  it('brings the index and the services one round trip forward each, with the same calls and answer', async () => {
    const before = await graphInRounds(() => undefined);
    const ahead = await graphInRounds((loaders) => {
      loaders.prefetch.endpointAppWans('net-1', 100);
      loaders.prefetch.appWanServices('net-1', 100);
    });
    expect(ahead.answer).toEqual(before.answer);
    expect(ahead.rounds.byRound().flat().sort()).toEqual(before.rounds.byRound().flat().sort());
    expect(before.rounds.byRound()).toHaveLength(4);
    const [first, second] = ahead.rounds.byRound();
    expect(ahead.rounds.byRound()).toHaveLength(2);
    expect(first).toEqual(['/networks/net-1/appWans', '/networks/net-1/endpointGroups', '/networks/net-1/endpoints']);
    expect(second?.filter((p) => p.endsWith('/services'))).toHaveLength(4);
    expect(ahead.loaders.plans).toEqual([{ side: 'endpoint', networkId: 'net-1', parents: 12, plan: 'membership-index' }]);
  });

  it('starts nothing for a window of one endpoint, or with batching off', () => {
    for (const [batching, window] of [[true, 1], [false, 100]] as const) {
      const http = fakeNetwork({ endpoints: 12, appWans: 4 });
      const loaders = createNetworkLoaders(http, { batching });
      loaders.prefetch.endpointAppWans('net-1', window);
      loaders.prefetch.appWanServices('net-1', window);
      expect(http.calls).toEqual([]);
    }
  });

  it('a failed prefetch fails nothing by itself and is not remembered: the field that reads the list asks again', async () => {
    const inner = fakeNetwork({ endpoints: 3, appWans: 2 });
    let failures = 1;
    const http: HttpClient = {
      send: async (req) => {
        if (req.path === '/networks/net-1/appWans' && failures-- > 0) {
          throw new UpstreamError('UPSTREAM_UNAVAILABLE', 'injected', { service: 'rest-v1', method: 'GET', path: req.path, status: 503 });
        }
        return inner.send(req);
      },
    };
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const loaders = createNetworkLoaders(http, { batching: true });
      loaders.prefetch.endpointAppWans('net-1', 100);
      await new Promise((resolve) => setImmediate(resolve));
      const appWans = await loaders.all('appWan', 'net-1');
      expect(appWans.map((a) => a.id)).toEqual(['aw-0', 'aw-1']);
      expect(inner.count(/\/net-1\/appWans$/)).toBe(1);
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });
});
