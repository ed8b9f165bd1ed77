/**
 * `networkChanges` events from poll states: the first is everything as added; later ones carry
 * only what differs (resources added, removed, changed; memberships; the network), worked out
 * once for every subscriber; a list in another order is no change.
 */
import { deltaEvent, snapshotEvent } from '../../../src/resolvers/network-live/events';
import {
  appWanState,
  deletedState,
  endpointGroupState,
  endpointState,
  membershipKey,
  networkState,
  serviceState,
  type MembershipRecord,
  type NetworkState,
  type ResourceStateRecord,
} from '../../../src/resolvers/network-live/state';
import { parseAppWan, parseEndpoint, parseNetwork, parseService, opaqueParser } from '../../../src/upstream/network/records';

const parseGroup = opaqueParser('EndpointGroup');
const endpoint = (id: string, status: number, name = id): ResourceStateRecord => endpointState(parseEndpoint({ id, name, status, endpointType: 'ZTCL', currentState: 300 }));
const service = (id: string, endpointId: string): ResourceStateRecord => serviceState(parseService({ id, name: id, status: 300, serviceClass: 'CS', endpointId }));
const appWan = (id: string, status = 300): ResourceStateRecord => appWanState(parseAppWan({ id, name: id, status }));
const group = (id: string): ResourceStateRecord => endpointGroupState(parseGroup({ id, name: id }));
const member = (appWanId: string, memberKind: MembershipRecord['memberKind'], memberId: string): MembershipRecord => ({ appWanId, memberKind, memberId });

function state(resources: ResourceStateRecord[], memberships: MembershipRecord[], networkStatus = 300, name = 'net'): NetworkState {
  return networkState({
    networkId: 'n',
    network: parseNetwork({ id: 'n', name, status: networkStatus }),
    resources: new Map(resources.map((r) => [r.id, r])),
    memberships: new Map(memberships.map((m) => [membershipKey(m), m])),
    upstreamCalls: 11,
  });
}

const base = (): NetworkState => state([endpoint('e1', 300), endpoint('e2', 400), service('s1', 'e1'), appWan('a1'), group('g1')], [member('a1', 'ENDPOINT', 'e2'), member('a1', 'SERVICE', 's1'), member('a1', 'ENDPOINT_GROUP', 'g1')]);

it('starts with everything as added, the network included', () => {
  const first = snapshotEvent(base());
  expect(first).toMatchObject({ networkId: 'n', snapshot: true, networkDeleted: false, removed: [], changed: [], membershipsRemoved: [], resourceCount: 5, membershipCount: 3, inProgress: false, pollUpstreamCalls: 11 });
  expect(first.network).toMatchObject({ id: 'n', name: 'net' });
  expect(first.added.map((r) => [r.kind, r.id])).toEqual([['ENDPOINT', 'e1'], ['ENDPOINT', 'e2'], ['SERVICE', 's1'], ['APP_WAN', 'a1'], ['ENDPOINT_GROUP', 'g1']]);
  expect(first.added[2]).toMatchObject({ serviceClass: 'CS', endpointId: 'e1', statusName: 'PROVISIONED' });
  expect(first.added[0]).toMatchObject({ endpointType: 'ZTCL', currentState: 300, currentStateName: 'ONLINE' });
  expect(first.membershipsAdded).toHaveLength(3);
});

it('carries only what changed, and nothing for the same state read in another order', () => {
  const before = base();
  const reordered = state([group('g1'), appWan('a1'), service('s1', 'e1'), endpoint('e2', 400), endpoint('e1', 300)], [member('a1', 'ENDPOINT_GROUP', 'g1'), member('a1', 'SERVICE', 's1'), member('a1', 'ENDPOINT', 'e2')]);
  expect(reordered.fingerprint).toBe(before.fingerprint);

  const after = state([endpoint('e1', 500), service('s1', 'e1'), appWan('a1', 600), group('g1'), endpoint('e3', 100)], [member('a1', 'SERVICE', 's1'), member('a1', 'ENDPOINT_GROUP', 'g1'), member('a1', 'ENDPOINT', 'e3')]);
  expect(after.fingerprint).not.toBe(before.fingerprint);
  const delta = deltaEvent(before, after);
  expect(delta).toMatchObject({ snapshot: false, network: null, networkDeleted: false, resourceCount: 5, membershipCount: 3, inProgress: true });
  expect(delta.added.map((r) => r.id)).toEqual(['e3']);
  expect(delta.removed.map((r) => [r.id, r.statusName])).toEqual([['e2', 'REGISTERED']]);
  expect(delta.changed.map((c) => [c.id, c.before.statusName, c.after.statusName])).toEqual([['e1', 'PROVISIONED', 'ERROR'], ['a1', 'PROVISIONED', 'UPDATING']]);
  expect(delta.membershipsAdded).toEqual([member('a1', 'ENDPOINT', 'e3')]);
  expect(delta.membershipsRemoved).toEqual([member('a1', 'ENDPOINT', 'e2')]);
  // Worked out once: every subscriber coming from the same state gets the same event.
  expect(deltaEvent(before, after)).toBe(delta);
});

it('counts a rename and the network itself as changes', () => {
  const before = base();
  const renamed = state([endpoint('e1', 300, 'laptop'), endpoint('e2', 400), service('s1', 'e1'), appWan('a1'), group('g1')], [...before.memberships.values()], 800, 'net-2');
  const delta = deltaEvent(before, renamed);
  expect(delta.changed.map((c) => [c.id, c.before.name, c.after.name])).toEqual([['e1', 'e1', 'laptop']]);
  expect(delta.network).toMatchObject({ name: 'net-2', status: 800 });
  expect(delta.inProgress).toBe(true);
});

it('ends with everything removed when the network is gone', () => {
  const before = base();
  const last = deltaEvent(before, deletedState('n', 5));
  expect(last).toMatchObject({ networkDeleted: true, network: null, added: [], changed: [], resourceCount: 0, membershipCount: 0, pollUpstreamCalls: 5 });
  expect(last.removed).toHaveLength(5);
  expect(last.membershipsRemoved).toHaveLength(3);
});
