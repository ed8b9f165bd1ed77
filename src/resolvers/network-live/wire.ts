/**
 * How a `networkChanges` state travels between the replicas of a fleet (src/state): each record
 * as the upstream object it was read from, parsed again where it arrives by the records' own
 * parsers, so a listener's state is built as the holder's was (typed records, the union's
 * typename remembered, maps in the order the poll read them). A value that does not fit throws.
 */
import type { AppWanMemberKind, NetworkResourceKind } from '../../generated/graphql';
import type { PollWire } from '../../pollers';
import { ShapeError } from '../../errors/shape-error';
import { wireObjectOf } from '../../upstream/network/record-spec';
import { resources } from '../../upstream/network/resources';
import { asArray, Fields, type JsonObject } from '../../core/parse';
import { appWanState, endpointGroupState, endpointState, membershipKey, serviceState, type MembershipRecord, type NetworkState, type ResourceRecord, type ResourceStateRecord } from './state';

/** Each kind's record from its upstream object, as a state (which also remembers its typename). */
const STATE_OF: Readonly<Record<NetworkResourceKind, (wire: unknown) => ResourceStateRecord>> = {
  ENDPOINT: (wire) => endpointState(resources.endpoint.parse(wire)),
  SERVICE: (wire) => serviceState(resources.service.parse(wire)),
  APP_WAN: (wire) => appWanState(resources.appWan.parse(wire)),
  ENDPOINT_GROUP: (wire) => endpointGroupState(resources.endpointGroup.parse(wire)),
};

const MEMBER_KINDS: ReadonlySet<string> = new Set<AppWanMemberKind>(['ENDPOINT', 'SERVICE', 'ENDPOINT_GROUP']);

const isResourceKind = (value: string): value is NetworkResourceKind => Object.hasOwn(STATE_OF, value);
const isMemberKind = (value: string): value is AppWanMemberKind => MEMBER_KINDS.has(value);

function upstreamObject(record: ResourceRecord | NonNullable<NetworkState['network']>): JsonObject {
  const wire = wireObjectOf(record);
  if (wire === null) throw new ShapeError(`record ${record.id}: not read from an upstream object`);
  return wire;
}

/** Everything a state holds that the resource's record does not. The rest is derived from the record again. */
const encodeResource = (r: ResourceStateRecord): JsonObject => ({ kind: r.kind, id: r.id, resource: upstreamObject(r.resource) });

function decodeResource(json: unknown): ResourceStateRecord {
  const f = Fields.of(json, 'NetworkResourceState');
  const kind = f.str('kind');
  if (kind === null || !isResourceKind(kind)) throw new ShapeError(`NetworkResourceState.kind: not a resource kind: ${String(kind)}`);
  const state = STATE_OF[kind](f.raw('resource'));
  if (state.id !== f.id('id')) throw new ShapeError(`NetworkResourceState ${state.id}: its record has another id`);
  return state;
}

function decodeMembership(json: unknown): MembershipRecord {
  const f = Fields.of(json, 'AppWanMembership');
  const memberKind = f.str('memberKind');
  if (memberKind === null || !isMemberKind(memberKind)) throw new ShapeError(`AppWanMembership.memberKind: not a member kind: ${String(memberKind)}`);
  return { appWanId: f.id('appWanId'), memberKind, memberId: f.id('memberId') };
}

function required<T>(value: T | null, what: string): T {
  if (value === null) throw new ShapeError(`NetworkState.${what}: missing or of the wrong type`);
  return value;
}

export const networkStateWire: PollWire<NetworkState> = {
  encode: (s) => ({
    networkId: s.networkId,
    network: s.network === null ? null : upstreamObject(s.network),
    deleted: s.deleted,
    resources: [...s.resources.values()].map(encodeResource),
    memberships: [...s.memberships.values()],
    inProgress: s.inProgress,
    observedAt: s.observedAt,
    upstreamCalls: s.upstreamCalls,
    fingerprint: s.fingerprint,
  }),
  decode(json) {
    const f = Fields.of(json, 'NetworkState');
    const deleted = required(f.bool('deleted'), 'deleted');
    const network = f.raw('network');
    // Only a deleted network's last state has no record.
    if ((network === null) !== deleted) throw new ShapeError(`NetworkState.network: ${deleted ? 'a deleted network with a record' : 'missing'}`);
    const states = new Map<string, ResourceStateRecord>();
    for (const item of asArray(f.raw('resources'), 'NetworkState.resources')) {
      const state = decodeResource(item);
      states.set(state.id, state);
    }
    const memberships = new Map<string, MembershipRecord>();
    for (const item of asArray(f.raw('memberships'), 'NetworkState.memberships')) {
      const m = decodeMembership(item);
      memberships.set(membershipKey(m), m);
    }
    return {
      networkId: f.id('networkId'),
      network: network === null ? null : resources.network.parse(network),
      deleted,
      resources: states,
      memberships,
      inProgress: required(f.bool('inProgress'), 'inProgress'),
      observedAt: required(f.str('observedAt'), 'observedAt'),
      upstreamCalls: required(f.int('upstreamCalls'), 'upstreamCalls'),
      fingerprint: f.id('fingerprint'),
    };
  },
};
