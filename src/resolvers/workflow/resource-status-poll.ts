/**
 * `resourceStatus`'s poll kind: one resource read through the per-poll loaders (`byId`), its
 * status as an event, a change whenever the status changes. Terminal statuses end it; a resource
 * that disappears after it was seen ends it with a DELETED event. rest/v1 kinds carry numeric
 * codes (`status` + `statusName`); core/v2 kinds carry words (`statusName` only).
 */
import type { PollSession } from '../../context';
import { ErrorCode } from '../../errors/codes';
import type { ResourceKind } from '../../generated/graphql';
import { errorCodeOf, type PollKind } from '../../pollers';
import type { AppWanRecord, EndpointRecord, NetworkRecord, ServiceRecord } from '../../upstream/network/records';
import { statusName } from '../network/status-names';
import type { EdgeRouterPolicyRecord, EdgeRouterRecord, V2AppWanRecord, V2EndpointRecord, V2NetworkRecord, V2ServiceRecord } from '../../upstream/core-v2/records';
import { v2Resources, type V2Kind } from '../../upstream/core-v2/resources';
import { resources } from '../../upstream/network/resources';
import { wireObjectOf } from '../../upstream/network/record-spec';
import { Fields } from '../../core/parse';

export type StatusResourceRecord =
  | NetworkRecord
  | EndpointRecord
  | ServiceRecord
  | AppWanRecord
  | V2NetworkRecord
  | EdgeRouterRecord
  | EdgeRouterPolicyRecord
  | V2ServiceRecord
  | V2AppWanRecord
  | V2EndpointRecord;
export type StatusResourceTypename = 'Network' | 'Endpoint' | 'Service' | 'AppWan' | 'V2Network' | 'EdgeRouter' | 'EdgeRouterPolicy' | 'V2Service' | 'V2AppWan' | 'V2Endpoint';

/** What one poll read: the record and its status (a rest/v1 code, or a core/v2 word). */
interface StatusRead {
  record: StatusResourceRecord;
  status: number | null;
  statusName: string | null;
}

interface StatusKindRow {
  typename: StatusResourceTypename;
  /** Lives in a network whose id is part of its path (then `networkId` is required). */
  inNetwork: boolean;
  /** Statuses are rest/v1's numeric codes (else core/v2 words). */
  numeric: boolean;
  read(session: PollSession, target: StatusTarget): Promise<StatusRead>;
  /** The record from its upstream object (a value another replica polled). */
  parse(wire: unknown): StatusResourceRecord;
}

/** rest/v1 kinds: numeric life-cycle codes, named by `statusName`. */
function restKind(upstream: 'network' | 'endpoint' | 'service' | 'appWan', typename: StatusResourceTypename, inNetwork: boolean): StatusKindRow {
  return {
    typename,
    inNetwork,
    numeric: true,
    async read(session, target) {
      const record = await session.loaders.network.byId(upstream, target.id, target.networkId ?? undefined);
      return { record, status: record.status, statusName: statusName(record.status) };
    },
    parse: (wire) => resources[upstream].parse(wire),
  };
}

/** core/v2 kinds: status words (NEW → PROVISIONING → PROVISIONED), read by id alone. */
function v2Kind(upstream: V2Kind, typename: StatusResourceTypename): StatusKindRow {
  return {
    typename,
    inNetwork: false,
    numeric: false,
    async read(session, target) {
      const record = await session.loaders.coreV2.byId(upstream, target.id);
      return { record, status: null, statusName: record.status === null ? null : record.status.toUpperCase() };
    },
    parse: (wire) => v2Resources[upstream].parse(wire),
  };
}

/**
 * Each kind: how to read it, the GraphQL type of its record, and whether it lives in a network
 * (then `networkId` is required).
 */
export const STATUS_KINDS: Readonly<Record<ResourceKind, StatusKindRow>> = {
  NETWORK: restKind('network', 'Network', false),
  ENDPOINT: restKind('endpoint', 'Endpoint', true),
  SERVICE: restKind('service', 'Service', true),
  APP_WAN: restKind('appWan', 'AppWan', true),
  V2_NETWORK: v2Kind('network', 'V2Network'),
  EDGE_ROUTER: v2Kind('edgeRouter', 'EdgeRouter'),
  EDGE_ROUTER_POLICY: v2Kind('edgeRouterPolicy', 'EdgeRouterPolicy'),
  V2_SERVICE: v2Kind('service', 'V2Service'),
  V2_APP_WAN: v2Kind('appWan', 'V2AppWan'),
  V2_ENDPOINT: v2Kind('endpoint', 'V2Endpoint'),
};

/** Statuses after which nothing more happens by itself (a v2 SUSPENDED counts as an error): the subscription completes. */
export const TERMINAL_STATUS_NAMES: ReadonlySet<string> = new Set(['PROVISIONED', 'REGISTERED', 'ERROR', 'DELETED', 'SUSPENDED']);
export const DELETED_STATUS = 900;

export interface StatusTarget {
  kind: ResourceKind;
  id: string;
  /** Null for a network. */
  networkId: string | null;
}

/** The mapped record of `ResourceStatusEvent`. */
export interface ResourceStatusEventRecord {
  kind: ResourceKind;
  id: string;
  networkId: string | null;
  status: number | null;
  statusName: string | null;
  terminal: boolean;
  /** RFC 3339, UTC. */
  observedAt: string;
  resource: StatusResourceRecord | null;
}

// The union `StatusResource` is resolved from the record alone: remember which type each record
// read by a poll is (records carry no kind of their own).
const typenames = new WeakMap<object, StatusResourceTypename>();

export function statusResourceTypename(record: StatusResourceRecord): StatusResourceTypename | null {
  return typenames.get(record) ?? null;
}

function event(target: StatusTarget, status: number | null, name: string | null, resource: StatusResourceRecord | null): ResourceStatusEventRecord {
  return {
    kind: target.kind,
    id: target.id,
    networkId: target.networkId ?? (target.kind === 'NETWORK' || target.kind === 'V2_NETWORK' ? target.id : resource !== null && 'networkId' in resource ? resource.networkId : null),
    status,
    statusName: name,
    terminal: name !== null && TERMINAL_STATUS_NAMES.has(name),
    observedAt: new Date().toISOString(),
    resource,
  };
}

function isResourceKind(value: string): value is ResourceKind {
  return Object.hasOwn(STATUS_KINDS, value);
}

export const resourceStatusPoll: PollKind<StatusTarget, ResourceStatusEventRecord, PollSession> = {
  name: 'resourceStatus',
  key: (t) => `${t.kind}:${t.networkId ?? '-'}/${t.id}`,
  async poll(target, session) {
    const row = STATUS_KINDS[target.kind];
    const read = await row.read(session, target);
    typenames.set(read.record, row.typename);
    return event(target, read.status, read.statusName, read.record);
  },
  fingerprint: (e) => `${e.status ?? ''}|${e.statusName ?? ''}`,
  // A change sent through the gateway to the resource (or below it: members, a redefine) is polled at once.
  wakes: (t, change) => change.path.split('/').includes(t.id),
  // The resource travels as the upstream object it was read from, and is parsed again where it arrives.
  wire: {
    encode: (e) => ({ ...e, resource: e.resource === null ? null : wireObjectOf(e.resource) }),
    decode(json) {
      const f = Fields.of(json, 'ResourceStatusEvent');
      const kind = f.str('kind');
      if (kind === null || !isResourceKind(kind)) throw new Error(`not a resource kind: ${String(kind)}`);
      const row = STATUS_KINDS[kind];
      const wire = f.raw('resource');
      const resource = wire === null || wire === undefined ? null : row.parse(wire);
      if (resource !== null) typenames.set(resource, row.typename);
      return {
        kind,
        id: f.id('id'),
        networkId: f.str('networkId'),
        status: f.int('status'),
        statusName: f.str('statusName'),
        terminal: f.bool('terminal') === true,
        observedAt: f.str('observedAt') ?? new Date().toISOString(),
        resource,
      };
    },
  },
  isTerminal: (e) => e.terminal,
  classifyError(error, state, target) {
    const code = errorCodeOf(error);
    // Gone after it was seen: deleted (the record says deleted entities may answer 403, not 404).
    if (state.last !== null && (code === ErrorCode.NOT_FOUND || code === ErrorCode.FORBIDDEN)) {
      return { action: 'emit', value: event(target, STATUS_KINDS[target.kind].numeric ? DELETED_STATUS : null, 'DELETED', null) };
    }
    return undefined;
  },
};
