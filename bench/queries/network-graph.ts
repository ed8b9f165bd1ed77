import type { JsonObject } from '../../src/core/parse';
import { chooseGroupMemberPlan } from '../../src/upstream/network/plan';
import type { NetworkFacts, UpstreamFacts } from '../facts';
import { allNodes, CheckError, idsOf, pagingTrip, sameIds, sum } from './check';
import { loadDocument } from './load-document';
import type { BenchQuery } from './types';

/** AppWANs with at least one endpoint: the only ones the graph reaches. */
function reachedAppWans(n: NetworkFacts): NetworkFacts['appWans'] {
  return n.appWans.filter((a) => a.endpointIds.length > 0);
}

/** Endpoint → AppWAN ids, inverted from the AppWANs' member lists. */
function appWansByEndpoint(n: NetworkFacts): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const a of n.appWans) for (const e of a.endpointIds) map.set(e, [...(map.get(e) ?? []), a.id]);
  return map;
}

/**
 * Cheaper of: the membership index (the network's AppWAN list and endpoint-group list, each
 * AppWAN's member list and, when the network has endpoint groups, its endpoint-group list, and
 * the member lists of the groups read: every group of the network when the gateway's rule reads
 * them all in the same round trip, else the held ones, plan.ts `chooseGroupMemberPlan`), or one
 * AppWAN list per endpoint. The gateway cannot know which groups are held before it asks, so the
 * bound charges the plan it can choose in advance.
 */
function endpointAppWanCalls(n: NetworkFacts): number {
  if (n.endpointIds.length === 0) return 0;
  const plan = chooseGroupMemberPlan({ networkGroups: n.endpointGroupIds.length, appWans: n.appWans.length });
  const held = n.appWans.flatMap((a) => a.endpointGroupIds);
  const read = new Set(plan === 'prefetch-all' ? [...n.endpointGroupIds, ...held] : held);
  const index =
    n.appWanPages +
    n.endpointGroupPages +
    sum(n.appWans.map((a) => a.endpointPages + (plan === 'no-groups' ? 0 : a.endpointGroupPages))) +
    sum([...read].map((g) => n.groupMemberPages.get(g) ?? 1));
  return Math.min(index, n.endpointIds.length);
}

/**
 * Per group, the fewer pages of its group-wide endpoint list or of its networks' own lists; a
 * network whose group is not listed pays its own.
 */
function endpointListCalls(facts: UpstreamFacts): number {
  const perGroup = facts.groupIds.map((g, i) => {
    const own = sum(facts.networks.filter((n) => n.organizationId === g).map((n) => n.endpointPages));
    const shared = facts.groupEndpointPages?.[i];
    return shared === undefined ? own : Math.min(own, shared);
  });
  const ungrouped = facts.networks.filter((n) => n.organizationId === null || !facts.groupIds.includes(n.organizationId));
  return sum(perGroup) + sum(ungrouped.map((n) => n.endpointPages));
}

export const networkGraph: BenchQuery = {
  name: 'networkGraph',
  document: loadDocument('network-graph.graphql'),
  unavailable: (facts) => (facts.networks.length === 0 ? 'the sandbox has no networks' : null),
  variables: () => ({ first: 1000 }),
  lowerBoundCalls(facts) {
    const value =
      facts.groupPages +
      facts.networkPages +
      endpointListCalls(facts) +
      sum(facts.networks.map(endpointAppWanCalls)) +
      sum(facts.networks.flatMap((n) => reachedAppWans(n).map((a) => a.servicePages)));
    return {
      value,
      reason:
        'group list + ONE network list (all groups) + endpoint lists (per group, the fewer of its group-wide list or its networks\' lists) + per network the cheaper of (AppWAN list + the network\'s endpoint-group list + per AppWAN its member list + [if the network has groups: per AppWAN its endpoint-group list + the groups\' member lists]) or one call per endpoint + one services list per reached AppWAN',
    };
  },
  roundTrips(facts) {
    const level1 = 1 + pagingTrip(facts.groupPages, facts.networkPages);
    // Endpoints come from per-network lists or the group-wide lists, whichever needs no extra page.
    const perNetworkPaging = pagingTrip(...facts.networks.map((n) => n.endpointPages));
    const endpointPaging = facts.groupEndpointPages === null ? perNetworkPaging : Math.min(perNetworkPaging, pagingTrip(...facts.groupEndpointPages));
    const level2 = 1 + Math.max(endpointPaging, pagingTrip(...facts.networks.flatMap((n) => [n.appWanPages, n.endpointGroupPages])));
    const level3 =
      1 +
      pagingTrip(...facts.networks.flatMap((n) => [...n.appWans.flatMap((a) => [a.endpointPages, a.endpointGroupPages, a.servicePages]), ...n.groupMemberPages.values()]));
    return {
      value: level1 + level2 + level3,
      reason:
        'groups ‖ networks, then endpoints ‖ AppWANs ‖ endpoint groups of each network, then members ‖ endpoint groups ‖ services of each AppWAN ‖ group members (their links are on the network\'s group list) (+1 per level whose lists span pages)',
    };
  },
  check(data: JsonObject, facts: UpstreamFacts) {
    const groups = allNodes(data, 'networkGroups', 'data');
    sameIds(idsOf(groups, 'networkGroups'), facts.groupIds, 'networkGroups');
    const byId = new Map(facts.networks.map((n) => [n.id, n]));
    const seen: string[] = [];
    groups.forEach((g, gi) => {
      const gPath = `networkGroups[${gi}]`;
      allNodes(g, 'networks', gPath).forEach((net, ni) => {
        const nPath = `${gPath}.networks[${ni}]`;
        const id = idsOf([net], nPath)[0] ?? '';
        const expected = byId.get(id);
        if (!expected) throw new CheckError(`${nPath}: network ${id} is not in the sandbox's network list`);
        seen.push(id);
        const endpoints = allNodes(net, 'endpoints', nPath);
        sameIds(idsOf(endpoints, `${nPath}.endpoints`), expected.endpointIds, `${nPath}.endpoints`);
        const appWansOf = appWansByEndpoint(expected);
        const servicesOf = new Map(expected.appWans.map((a) => [a.id, a.serviceIds]));
        endpoints.forEach((e, ei) => {
          const ePath = `${nPath}.endpoints[${ei}]`;
          const appWans = allNodes(e, 'appWans', ePath);
          const appWanIds = idsOf(appWans, `${ePath}.appWans`);
          sameIds(appWanIds, appWansOf.get(idsOf([e], ePath)[0] ?? '') ?? [], `${ePath}.appWans`);
          appWans.forEach((a, ai) => {
            const aPath = `${ePath}.appWans[${ai}]`;
            sameIds(idsOf(allNodes(a, 'services', aPath), `${aPath}.services`), servicesOf.get(appWanIds[ai] ?? '') ?? [], `${aPath}.services`);
          });
        });
      });
    });
    sameIds(seen, [...byId.keys()], 'networks across all groups');
  },
  // Unbatched, every endpoint costs its own AppWAN call and every (endpoint, AppWAN) pair its own
  // services call: thousands of calls per run on the large data, seconds each even at latency 0.
  unbatchedCaps: { iterations: 3, maxMs: 20_000, concurrency: 2 },
};
