import type { JsonObject } from '../../src/core/parse';
import type { EndpointFacts, UpstreamFacts } from '../facts';
import { allNodes, CheckError, expectEqual, field, idsOf, sameIds } from './check';
import { loadDocument } from './load-document';
import type { BenchQuery } from './types';

function sample(facts: UpstreamFacts): EndpointFacts {
  if (facts.sampleEndpoint === null) throw new CheckError('endpointDetail: the sandbox has no endpoint');
  return facts.sampleEndpoint;
}

/** A linked object's id, or null when the field is null. */
function linkedId(parent: JsonObject, key: string, path: string): string | null {
  if (parent[key] === null) return null;
  return idsOf([field(parent, key, path)], `${path}.${key}`)[0] ?? null;
}

export const endpointDetail: BenchQuery = {
  name: 'endpointDetail',
  document: loadDocument('endpoint-detail.graphql'),
  unavailable: (facts) => (facts.sampleEndpoint === null ? 'the sandbox has no endpoint' : null),
  variables: (facts) => ({ networkId: sample(facts).networkId, id: sample(facts).id }),
  lowerBoundCalls(facts) {
    const e = sample(facts);
    const links = (e.geoRegionId ? 1 : 0) + (e.dataCenterId ? 1 : 0);
    return {
      value: 2 + links + e.appWanPages + e.servicePages,
      reason: 'the endpoint, its network, its region and data center (when set), its AppWAN list and its service list',
    };
  },
  roundTrips(facts) {
    const e = sample(facts);
    const second = e.geoRegionId || e.dataCenterId || e.appWanPages > 1 || e.servicePages > 1;
    return {
      value: second ? 2 : 1,
      reason: 'endpoint ‖ network ‖ AppWANs ‖ services (ids known from the arguments), then region ‖ data center (ids from the endpoint record)',
    };
  },
  check(data, facts) {
    const e = sample(facts);
    const endpoint = field(data, 'endpoint', 'data');
    expectEqual(endpoint['id'], e.id, 'endpoint.id');
    expectEqual(linkedId(endpoint, 'network', 'endpoint'), e.networkId, 'endpoint.network.id');
    expectEqual(linkedId(endpoint, 'geoRegion', 'endpoint'), e.geoRegionId, 'endpoint.geoRegion.id');
    expectEqual(linkedId(endpoint, 'dataCenter', 'endpoint'), e.dataCenterId, 'endpoint.dataCenter.id');
    sameIds(idsOf(allNodes(endpoint, 'appWans', 'endpoint'), 'endpoint.appWans'), e.appWanIds, 'endpoint.appWans');
    sameIds(idsOf(allNodes(endpoint, 'services', 'endpoint'), 'endpoint.services'), e.serviceIds, 'endpoint.services');
  },
};
