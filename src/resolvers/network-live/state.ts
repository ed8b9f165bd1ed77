/**
 * What a `networkChanges` poll keeps of a network: each resource (endpoints, services, AppWANs,
 * endpoint groups) as a flat state, each AppWAN membership, and one fingerprint of it all. The
 * states are built from the records the network's lists answered; nothing here calls upstream.
 */
import { createHash } from 'node:crypto';
import type { AppWanMemberKind, NetworkResourceKind } from '../../generated/graphql';
import type { AppWanRecord, EndpointGroupRecord, EndpointRecord, NetworkRecord, ServiceRecord } from '../../upstream/network/records';
import { currentStateName, statusName } from '../network/status-names';
import { TERMINAL_STATUS_NAMES } from '../workflow/resource-status-poll';

export type ResourceRecord = EndpointRecord | ServiceRecord | AppWanRecord | EndpointGroupRecord;
export type NetworkResourceTypename = 'Endpoint' | 'Service' | 'AppWan' | 'EndpointGroup';

/** The mapped record of `NetworkResourceState`. */
export interface ResourceStateRecord {
  kind: NetworkResourceKind;
  id: string;
  name: string | null;
  status: number | null;
  statusName: string | null;
  inProgress: boolean;
  endpointType: string | null;
  currentState: number | null;
  currentStateName: string | null;
  serviceClass: string | null;
  endpointId: string | null;
  gatewayClusterId: string | null;
  resource: ResourceRecord;
}

/** The mapped record of `AppWanMembership`. */
export interface MembershipRecord {
  appWanId: string;
  memberKind: AppWanMemberKind;
  memberId: string;
}

/** One poll's view of a network. Immutable once built: subscribers share it. */
export interface NetworkState {
  networkId: string;
  /** Null once the network is gone. */
  network: NetworkRecord | null;
  deleted: boolean;
  /** By resource id, in list order (endpoints, services, AppWANs, endpoint groups). */
  resources: ReadonlyMap<string, ResourceStateRecord>;
  /** By `membershipKey`. */
  memberships: ReadonlyMap<string, MembershipRecord>;
  /** Some resource, or the network, has a status that is not final. */
  inProgress: boolean;
  /** RFC 3339, UTC. */
  observedAt: string;
  /** Upstream calls of the poll that read this state. */
  upstreamCalls: number;
  /** Changes exactly when a subscriber should hear about it (`signatureOf` of each part). */
  fingerprint: string;
}

// The union `NetworkResource` is resolved from the record alone: remember which type each record is.
const typenames = new WeakMap<object, NetworkResourceTypename>();

export function networkResourceTypename(record: ResourceRecord): NetworkResourceTypename | null {
  return typenames.get(record) ?? null;
}

const TYPENAMES: Readonly<Record<NetworkResourceKind, NetworkResourceTypename>> = {
  ENDPOINT: 'Endpoint',
  SERVICE: 'Service',
  APP_WAN: 'AppWan',
  ENDPOINT_GROUP: 'EndpointGroup',
};

const inProgressStatus = (name: string | null): boolean => name !== null && !TERMINAL_STATUS_NAMES.has(name);

const NO_DETAILS = { endpointType: null, currentState: null, currentStateName: null, serviceClass: null, endpointId: null, gatewayClusterId: null } as const;

function state(kind: NetworkResourceKind, record: ResourceRecord, details: Partial<ResourceStateRecord>): ResourceStateRecord {
  typenames.set(record, TYPENAMES[kind]);
  const name = statusName(record.status);
  return { ...NO_DETAILS, kind, id: record.id, name: record.name, status: record.status, statusName: name, inProgress: inProgressStatus(name), ...details, resource: record };
}

export const endpointState = (e: EndpointRecord): ResourceStateRecord =>
  state('ENDPOINT', e, { endpointType: e.endpointType, currentState: e.currentState, currentStateName: currentStateName(e.currentState) });
export const serviceState = (s: ServiceRecord): ResourceStateRecord =>
  state('SERVICE', s, { serviceClass: s.serviceClass, endpointId: s.endpointId, gatewayClusterId: s.gatewayClusterId });
export const appWanState = (a: AppWanRecord): ResourceStateRecord => state('APP_WAN', a, {});
export const endpointGroupState = (g: EndpointGroupRecord): ResourceStateRecord => state('ENDPOINT_GROUP', g, {});

export const membershipKey = (m: MembershipRecord): string => `${m.appWanId}|${m.memberKind}|${m.memberId}`;

/** The fields a subscriber sees of a resource: two states with the same signature are the same to it. */
export function signatureOf(r: ResourceStateRecord): string {
  return [r.kind, r.name, r.status, r.endpointType, r.currentState, r.serviceClass, r.endpointId, r.gatewayClusterId].join('\u0001');
}

export function networkSignature(network: NetworkRecord | null): string {
  return network === null ? '' : `${network.name ?? ''}\u0001${network.status ?? ''}`;
}

export interface StateParts {
  networkId: string;
  network: NetworkRecord | null;
  resources: ReadonlyMap<string, ResourceStateRecord>;
  memberships: ReadonlyMap<string, MembershipRecord>;
  upstreamCalls: number;
}

/** A state with its fingerprint and summary, from what a poll read. */
export function networkState(parts: StateParts): NetworkState {
  const hash = createHash('sha256').update(networkSignature(parts.network)).update('\u0000');
  // Sorted, so the list order the upstream happens to answer in is no change.
  for (const id of [...parts.resources.keys()].sort()) {
    const r = parts.resources.get(id);
    if (r) hash.update(`${id}\u0002${signatureOf(r)}\u0000`);
  }
  for (const key of [...parts.memberships.keys()].sort()) hash.update(`${key}\u0000`);
  let inProgress = parts.network !== null && inProgressStatus(statusName(parts.network.status));
  for (const r of parts.resources.values()) inProgress ||= r.inProgress;
  return {
    ...parts,
    deleted: false,
    inProgress,
    observedAt: new Date().toISOString(),
    fingerprint: hash.digest('base64url').slice(0, 22),
  };
}

/** The state after the network is gone: nothing left in it; the last state a subscriber gets. */
export function deletedState(networkId: string, upstreamCalls: number): NetworkState {
  return {
    networkId,
    network: null,
    deleted: true,
    resources: new Map(),
    memberships: new Map(),
    inProgress: false,
    observedAt: new Date().toISOString(),
    upstreamCalls,
    fingerprint: 'deleted',
  };
}
