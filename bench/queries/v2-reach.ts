import type { V2Facts } from '../search-facts';
import type { UpstreamFacts } from '../facts';
import { allNodes, CheckError, field, idsOf, sameIds } from './check';
import { loadDocument } from './load-document';
import type { BenchQuery } from './types';

function v2(facts: UpstreamFacts): V2Facts {
  if (facts.v2 === null) throw new CheckError('v2Reach: the sandbox has no core/v2 network');
  return facts.v2;
}

export const v2Reach: BenchQuery = {
  name: 'v2Reach',
  document: loadDocument('v2-reach.graphql'),
  unavailable: (facts) => (facts.v2 === null ? 'the sandbox has no core/v2 network' : null),
  variables: (facts) => ({ id: v2(facts).networkId }),
  lowerBoundCalls: (facts) => ({
    value: 1 + v2(facts).listPages,
    reason: "the network, and the pages of its endpoint, service, AppWAN, edge router policy and edge router lists (reach is computed from the role attributes they carry)",
  }),
  roundTrips: () => ({ value: 1, reason: 'the network id is an argument: the network and its five lists can all be asked at once' }),
  check(data, facts) {
    const expected = v2(facts);
    const network = field(data, 'v2Network', 'data');
    const endpoints = allNodes(network, 'endpoints', 'v2Network');
    sameIds(idsOf(endpoints, 'v2Network.endpoints'), [...expected.reach.keys()], 'v2Network.endpoints');
    endpoints.forEach((e, i) => {
      const path = `v2Network.endpoints[${i}]`;
      const id = idsOf([e], path)[0] ?? '';
      const services = allNodes(e, 'reachableServices', path).map((r) => field(r, 'service', `${path}.reachableServices`));
      sameIds(idsOf(services, `${path}.reachableServices`), expected.reach.get(id) ?? [], `${path}.reachableServices`);
    });
  },
};
