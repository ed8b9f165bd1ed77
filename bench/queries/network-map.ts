import type { JsonObject } from '../../src/core/parse';
import type { NetworkFacts, UpstreamFacts } from '../facts';
import { allNodes, CheckError, expectEqual, field, idsOf, pagingTrip, sameIds, sum } from './check';
import { loadDocument } from './load-document';
import type { BenchQuery } from './types';

/** The network with the most endpoints: the heaviest map the page draws on this data. */
function mapped(facts: UpstreamFacts): NetworkFacts {
  const [first, ...rest] = facts.networks;
  if (first === undefined) throw new CheckError('networkMap: the sandbox has no networks');
  return rest.reduce((best, n) => (n.endpointIds.length > best.endpointIds.length ? n : best), first);
}

/**
 * The network map page's query (`GET /map`): the document is the page's own (src/server/map
 * serves this file to the browser), so its cost here is the page's cost.
 */
export const networkMap: BenchQuery = {
  name: 'networkMap',
  document: loadDocument('network-map.graphql'),
  unavailable: (facts) => (facts.networks.length === 0 ? 'the sandbox has no networks' : null),
  variables: (facts) => ({ networkId: mapped(facts).id, first: 1000 }),
  lowerBoundCalls(facts) {
    const n = mapped(facts);
    // The facts do not count the pages of the network's service and endpoint-group lists: at
    // least one call each, so the bound stays a bound.
    const value = 1 + n.endpointPages + 1 + n.appWanPages + 1 + sum(n.appWans.map((a) => a.endpointPages + a.servicePages + a.endpointGroupPages));
    return {
      value,
      reason: 'the network + its endpoint pages + service list + AppWAN pages + endpoint-group list + per AppWAN its member, service and endpoint-group lists',
    };
  },
  roundTrips(facts) {
    const n = mapped(facts);
    const level1 = 1 + pagingTrip(n.endpointPages, n.appWanPages);
    const level2 = n.appWans.length === 0 ? 0 : 1 + pagingTrip(...n.appWans.flatMap((a) => [a.endpointPages, a.servicePages, a.endpointGroupPages]));
    return {
      value: level1 + level2,
      reason: 'network ‖ endpoints ‖ services ‖ AppWANs ‖ endpoint groups (the id is an argument), then each AppWAN\'s members ‖ services ‖ groups (+1 per level whose lists span pages)',
    };
  },
  check(data: JsonObject, facts: UpstreamFacts) {
    const n = mapped(facts);
    const network = field(data, 'network', 'data');
    expectEqual(network['id'], n.id, 'network.id');
    sameIds(idsOf(allNodes(network, 'endpoints', 'network'), 'network.endpoints'), n.endpointIds, 'network.endpoints');
    allNodes(network, 'services', 'network');
    allNodes(network, 'endpointGroups', 'network');
    const appWans = allNodes(network, 'appWans', 'network');
    sameIds(idsOf(appWans, 'network.appWans'), n.appWans.map((a) => a.id), 'network.appWans');
    const byId = new Map(n.appWans.map((a) => [a.id, a]));
    appWans.forEach((a, i) => {
      const path = `network.appWans[${i}]`;
      const expected = byId.get(idsOf([a], path)[0] ?? '');
      if (!expected) throw new CheckError(`${path}: not in the sandbox's AppWAN list`);
      sameIds(idsOf(allNodes(a, 'services', path), `${path}.services`), expected.serviceIds, `${path}.services`);
      sameIds(idsOf(allNodes(a, 'endpointGroups', path), `${path}.endpointGroups`), expected.endpointGroupIds, `${path}.endpointGroups`);
      // The facts' endpoint ids include the members of the AppWAN's groups; the page asks for direct members.
      const direct = idsOf(allNodes(a, 'endpoints', path), `${path}.endpoints`);
      const stray = direct.filter((id) => !expected.endpointIds.includes(id));
      if (stray.length > 0) throw new CheckError(`${path}.endpoints: ${stray.slice(0, 3).join(', ')} not members`);
    });
  },
};
