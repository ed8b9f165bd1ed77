/** The map page's data model (web/map/model.ts): events applied, elements, grouping, reach, links, search, messages. */
import { applyChanges, buildElements, effectiveGrouping, emptyMap, linksOf, problemOf, reachOf, search, statusColour, type MapData, type NetworkChanges } from '../../../web/map/model';

type State = NetworkChanges['added'][number];
const resource = (kind: State['kind'], id: string, name: string, status: number, statusName: string, extra: Partial<State> = {}): State => ({
  kind, id, name, status, statusName, endpointType: null, currentStateName: null, serviceClass: null, endpointId: null, gatewayClusterId: null, ...extra,
});
const held = (appWanId: string, memberKind: 'ENDPOINT' | 'SERVICE' | 'ENDPOINT_GROUP', memberIds: string[]) => memberIds.map((memberId) => ({ appWanId, memberKind, memberId }));

/** A network as the first `networkChanges` event brings it. */
function sample(extraClients = 0): MapData {
  const clients = Array.from({ length: 3 + extraClients }, (_, i) => resource('ENDPOINT', `c${i}`, `client-${i}`, 400, 'REGISTERED', { endpointType: 'ZTCL' }));
  const data = emptyMap('n1');
  applyChanges(data, {
    networkId: 'n1', snapshot: true, networkDeleted: false, inProgress: true, observedAt: '2026-01-01T00:00:00.000Z', removed: [], changed: [], membershipsRemoved: [],
    network: { id: 'n1', name: 'production', statusName: 'PROVISIONED' },
    added: [
      resource('ENDPOINT', 'gw', 'gw-1', 400, 'REGISTERED', { endpointType: 'GW' }),
      resource('ENDPOINT', 'br', 'bridge', 100, 'NEW', { endpointType: 'ZTGW' }),
      ...clients,
      resource('SERVICE', 's1', 'crm', 300, 'PROVISIONED', { serviceClass: 'CS', endpointId: 'gw' }),
      resource('SERVICE', 's2', 'wiki', 300, 'PROVISIONED', { serviceClass: 'CS', gatewayClusterId: 'cl' }),
      resource('APP_WAN', 'a1', 'sales-apps', 300, 'PROVISIONED'),
      resource('APP_WAN', 'a2', 'ops-apps', 600, 'UPDATING'),
      resource('ENDPOINT_GROUP', 'g1', 'engineering', 300, 'PROVISIONED'),
    ],
    // `gone`: a member the network's lists no longer hold (removed meanwhile).
    membershipsAdded: [...held('a1', 'ENDPOINT', ['c0', 'c1']), ...held('a1', 'SERVICE', ['s1']), ...held('a1', 'ENDPOINT_GROUP', ['g1']), ...held('a2', 'ENDPOINT', ['c1', 'gone']), ...held('a2', 'SERVICE', ['s2'])],
  });
  return data;
}

describe('map model', () => {
  it('draws one node per resource and one edge per link, skipping links to resources it did not get', () => {
    const { nodes, edges } = buildElements(sample(), 'none');
    expect(nodes).toHaveLength(5 + 2 + 2 + 1);
    // a1: 2 endpoints + 1 service + 1 group; a2: 1 endpoint (not `gone`) + 1 service; s1 → gw.
    expect(edges.map((e) => e.id).sort()).toEqual(
      [
        'member:c0->a1', 'member:c1->a1', 'group:g1->a1', 'service:a1->s1',
        'member:c1->a2', 'service:a2->s2', 'terminates:s1->gw',
      ].sort(),
    );
    expect(nodes.find((n) => n.id === 'br')).toMatchObject({ kind: 'endpoint', subtype: 'ZTGW', colour: statusColour('NEW') });
  });

  it('collapses endpoints by type with merged, weighted edges, and expands a bucket on request', () => {
    const data = sample();
    const { nodes, edges } = buildElements(data, 'type');
    const clients = nodes.find((n) => n.id === 'bucket:type:ZTCL');
    expect(clients).toMatchObject({ kind: 'bucket', count: 3, label: 'client (3 endpoints)' });
    expect(nodes.find((n) => n.id === 'bucket:type:GW')).toMatchObject({ label: 'hosted gateway (1 endpoint)' });
    expect(edges.find((e) => e.id === 'member:bucket:type:ZTCL->a1')).toMatchObject({ weight: 2 });
    expect(nodes.some((n) => n.id === 'c0')).toBe(false);
    const open = buildElements(data, 'type', new Set(['bucket:type:ZTCL']));
    expect(open.nodes.some((n) => n.id === 'c0')).toBe(true);
  });

  it('collapses endpoints by the AppWANs they belong to', () => {
    const labels = buildElements(sample(), 'appWan').nodes.filter((n) => n.kind === 'bucket').map((n) => n.label).sort();
    // c1 is in both AppWANs: it goes to the first by name, its link to the other stays.
    expect(labels).toEqual(['in no AppWAN (3 endpoints)', 'ops-apps members (1 endpoint)', 'sales-apps members (1 endpoint)']);
    const edges = buildElements(sample(), 'appWan').edges.map((e) => `${e.id}×${e.weight}`).sort();
    expect(edges).toEqual(expect.arrayContaining(['member:bucket:appWan:ops-apps->a1×1', 'member:bucket:appWan:ops-apps->a2×1', 'member:bucket:appWan:sales-apps->a1×1']));
  });

  it('groups automatically only above the readable size', () => {
    expect(effectiveGrouping('auto', sample())).toBe('none');
    expect(effectiveGrouping('auto', sample(200))).toBe('type');
    expect(effectiveGrouping('appWan', sample())).toBe('appWan');
  });

  it('says who can reach what in an AppWAN, and lists links both ways', () => {
    const data = sample();
    const reach = reachOf(data, 'a1');
    expect(reach.endpoints.map((r) => r.name)).toEqual(['client-0', 'client-1']);
    expect(reach.endpointGroups.map((r) => r.name)).toEqual(['engineering']);
    expect(reach.services.map((r) => r.name)).toEqual(['crm']);
    expect(linksOf(data, 'c1').map((l) => `${l.relation}:${l.resource.id}`)).toEqual(['in AppWAN:a1', 'in AppWAN:a2']);
    expect(linksOf(data, 'gw').map((l) => `${l.relation}:${l.resource.id}`)).toEqual(['terminates:s1']);
    expect(linksOf(data, 's1').map((l) => `${l.relation}:${l.resource.id}`)).toEqual(['in AppWAN:a1', 'terminated by:gw']);
  });

  it('searches names case-insensitively', () => {
    expect(search(sample(), 'CLIENT-1').map((r) => r.id)).toEqual(['c1']);
    expect(search(sample(), '  ')).toEqual([]);
  });

  it('turns error codes into the three messages', () => {
    expect(problemOf(['FORBIDDEN']).problem).toBe('forbidden');
    expect(problemOf(['FORBIDDEN', 'UNAUTHENTICATED']).problem).toBe('unauthenticated');
    expect(problemOf(['UPSTREAM_UNAVAILABLE']).problem).toBe('unreachable');
    expect(problemOf(['UPSTREAM_ERROR']).message).toMatch(/not reachable/);
    expect(problemOf(['BAD_USER_INPUT'])).toMatchObject({ problem: 'other', message: expect.stringContaining('BAD_USER_INPUT') });
  });
});

describe('map model: networkChanges events', () => {
  const state = (kind: 'ENDPOINT' | 'SERVICE' | 'APP_WAN' | 'ENDPOINT_GROUP', id: string, statusName: string | null, extra: Record<string, string> = {}) => ({
    kind,
    id,
    name: `${id}-name`,
    status: null,
    statusName,
    endpointType: kind === 'ENDPOINT' ? 'ZTCL' : null,
    currentStateName: null,
    serviceClass: null,
    endpointId: null,
    gatewayClusterId: null,
    ...extra,
  });
  const event = (over: Partial<NetworkChanges>): NetworkChanges => ({
    networkId: 'n1',
    snapshot: false,
    networkDeleted: false,
    inProgress: false,
    observedAt: '2026-01-01T00:00:00.000Z',
    network: null,
    added: [],
    removed: [],
    changed: [],
    membershipsAdded: [],
    membershipsRemoved: [],
    ...over,
  });

  it('builds the network from the first event and applies later ones as deltas, noting each change', () => {
    const data = emptyMap('n1');
    applyChanges(
      data,
      event({
        snapshot: true,
        network: { id: 'n1', name: 'production', statusName: 'PROVISIONED' },
        added: [state('ENDPOINT', 'e1', 'PROVISIONED'), state('SERVICE', 's1', 'PROVISIONED', { endpointId: 'e1' }), state('APP_WAN', 'a1', 'PROVISIONED')],
        membershipsAdded: [{ appWanId: 'a1', memberKind: 'SERVICE', memberId: 's1' }],
      }),
    );
    expect(data.networkName).toBe('production');
    expect(buildElements(data, 'none').edges.map((e) => e.id).sort()).toEqual(['service:a1->s1', 'terminates:s1->e1']);

    const applied = applyChanges(
      data,
      event({
        added: [state('ENDPOINT', 'e2', 'NEW')],
        changed: [{ before: { statusName: 'PROVISIONED', name: 'e1-name' }, after: state('ENDPOINT', 'e1', 'ERROR') }],
        membershipsAdded: [{ appWanId: 'a1', memberKind: 'ENDPOINT', memberId: 'e2' }],
      }),
    );
    expect(applied.notes.map((n) => n.text)).toEqual(['+ endpoint e2-name (NEW)', 'e1-name: PROVISIONED → ERROR', 'e2-name joined a1-name']);
    expect(applied.touched.sort()).toEqual(['a1', 'e1', 'e2']);
    expect(data.resources.get('e1')?.statusName).toBe('ERROR');
    expect(data.members.get('a1')?.endpointIds).toEqual(['e2']);

    // What the page already did itself changes nothing when the live channel confirms it.
    applyChanges(data, event({ membershipsAdded: [{ appWanId: 'a1', memberKind: 'ENDPOINT', memberId: 'e2' }] }));
    expect(data.members.get('a1')?.endpointIds).toEqual(['e2']);

    const gone = applyChanges(data, event({ removed: [{ kind: 'ENDPOINT', id: 'e2', name: 'e2-name' }], membershipsRemoved: [{ appWanId: 'a1', memberKind: 'ENDPOINT', memberId: 'e2' }] }));
    expect(gone.notes.map((n) => n.text)).toEqual(['e2-name left a1-name', '− endpoint e2-name']);
    expect(data.resources.has('e2')).toBe(false);
    expect(data.members.get('a1')?.endpointIds).toEqual([]);
    expect(gone.touched).toEqual(['a1']);
  });
});
