import type { UpstreamFacts } from '../../../bench/facts';
import { CheckError } from '../../../bench/queries/check';
import { endpointDetail } from '../../../bench/queries/endpoint-detail';
import { networkGraph } from '../../../bench/queries/network-graph';

/** One group, one network with endpoints e1..e3; AppWAN a1 reaches e1 directly and e2 through group g1. */
function facts(overrides: { endpointPages?: number; groupEndpointPages?: number[] | null; networkGroups?: string[]; moreEndpoints?: number } = {}): UpstreamFacts {
  const more = Array.from({ length: overrides.moreEndpoints ?? 0 }, (_, i) => `x${i}`);
  const networkGroups = overrides.networkGroups ?? ['g1'];
  return {
    groupIds: ['g'],
    groupPages: 1,
    topTalkers: null,
    v2: null,
    groupEndpointPages: overrides.groupEndpointPages === undefined ? [1] : overrides.groupEndpointPages,
    networks: [
      {
        id: 'n',
        name: 'net',
        organizationId: 'g',
        endpointIds: ['e1', 'e2', 'e3', ...more],
        endpointPages: overrides.endpointPages ?? 1,
        appWans: [
          { id: 'a1', endpointIds: ['e1', 'e2'], endpointPages: 1, endpointGroupIds: networkGroups.includes('g1') ? ['g1'] : [], endpointGroupPages: 1, serviceIds: ['s1'], servicePages: 1 },
          { id: 'a2', endpointIds: [], endpointPages: 1, endpointGroupIds: [], endpointGroupPages: 1, serviceIds: ['s2'], servicePages: 1 },
        ],
        appWanPages: 1,
        endpointGroupIds: networkGroups,
        endpointGroupPages: 1,
        groupMemberPages: new Map(networkGroups.map((g) => [g, 1])),
      },
    ],
    networkPages: 1,
    sampleEndpoint: {
      networkId: 'n',
      id: 'e1',
      name: 'e1',
      geoRegionId: 'r',
      dataCenterId: null,
      appWanIds: ['a1'],
      appWanPages: 1,
      serviceIds: ['s1'],
      servicePages: 1,
    },
    auth: null,
  };
}

const graph = (appWansOfE2: string[]): Record<string, unknown> => {
  const appWan = (id: string, services: string[]): unknown => ({ id, services: { totalCount: services.length, nodes: services.map((s) => ({ id: s })) } });
  const endpoint = (id: string, appWans: string[]): unknown => ({
    id,
    appWans: { totalCount: appWans.length, nodes: appWans.map((a) => appWan(a, a === 'a1' ? ['s1'] : ['s2'])) },
  });
  return {
    networkGroups: {
      totalCount: 1,
      nodes: [
        {
          id: 'g',
          networks: {
            totalCount: 1,
            nodes: [{ id: 'n', endpoints: { totalCount: 3, nodes: [endpoint('e1', ['a1']), endpoint('e2', appWansOfE2), endpoint('e3', [])] } }],
          },
        },
      ],
    },
  };
};

describe('networkGraph bounds and check', () => {
  it('counts lists, the cheaper AppWAN plan and one services list per reached AppWAN', () => {
    // 1 groups + 1 networks + 1 endpoint list + min(AppWAN list 1 + group list 1 + members 2 + group lists 2 + group members 1 = 7, 3 endpoints) + 1 services (a1 only)
    expect(networkGraph.lowerBoundCalls(facts()).value).toBe(7);
    expect(networkGraph.roundTrips(facts()).value).toBe(3);
    // 20 endpoints: the index (7) is cheaper.
    expect(networkGraph.lowerBoundCalls(facts({ moreEndpoints: 17 })).value).toBe(1 + 1 + 1 + 7 + 1);
  });

  it('charges the endpoint-group plan the gateway can choose in advance', () => {
    // No groups in the network: no per-AppWAN group lists, no members: AppWAN list 1 + group list 1 + members 2 = 4.
    expect(networkGraph.lowerBoundCalls(facts({ moreEndpoints: 17, networkGroups: [] })).value).toBe(1 + 1 + 1 + 4 + 1);
    // Two groups, two AppWANs: both groups' members read with the per-AppWAN lists, held or not (1 + 1 + 2 + 2 + 2 = 8).
    expect(networkGraph.lowerBoundCalls(facts({ moreEndpoints: 17, networkGroups: ['g1', 'g2'] })).value).toBe(1 + 1 + 1 + 8 + 1);
    // Three groups, two AppWANs: only the held group's members (1 + 1 + 2 + 2 + 1 = 7).
    expect(networkGraph.lowerBoundCalls(facts({ moreEndpoints: 17, networkGroups: ['g1', 'g2', 'g3'] })).value).toBe(1 + 1 + 1 + 7 + 1);
  });

  it('adds a round trip when an endpoint list spans pages and no single-page alternative exists', () => {
    expect(networkGraph.roundTrips(facts({ endpointPages: 2, groupEndpointPages: null })).value).toBe(4);
    expect(networkGraph.roundTrips(facts({ endpointPages: 2, groupEndpointPages: [1] })).value).toBe(3);
    expect(networkGraph.lowerBoundCalls(facts({ endpointPages: 2, groupEndpointPages: null })).value).toBe(8);
  });

  it('accepts the right graph and names the path of a missing AppWAN', () => {
    expect(() => networkGraph.check(graph(['a1']), facts())).not.toThrow();
    expect(() => networkGraph.check(graph([]), facts())).toThrow(CheckError);
    expect(() => networkGraph.check(graph([]), facts())).toThrow(/endpoints\[1\]\.appWans: 0 ids, expected 1; missing a1/);
  });
});

describe('endpointDetail bounds', () => {
  it('counts only the links the endpoint has, with region/data center one trip later', () => {
    expect(endpointDetail.lowerBoundCalls(facts()).value).toBe(5); // endpoint, network, region, AppWANs, services
    expect(endpointDetail.roundTrips(facts()).value).toBe(2);
  });
});
