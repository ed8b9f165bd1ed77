/**
 * `resourceStatus`'s poll kind: one resource read through the per-poll loaders (`byId`), its
 * status as an event, a change whenever the status changes. Terminal statuses end it; a resource
 * that disappears after it was seen ends it with a DELETED event.
 */
import type { PollSession } from '../../context';
import { ErrorCode } from '../../errors/codes';
import type { ResourceKind } from '../../generated/graphql';
import { errorCodeOf, type PollKind } from '../../pollers';
import type { AppWanRecord, EndpointRecord, NetworkRecord, ServiceRecord } from '../../upstream/network/records';
import { statusName } from '../network/status-names';

export type StatusResourceRecord = NetworkRecord | EndpointRecord | ServiceRecord | AppWanRecord;
export type StatusResourceTypename = 'Network' | 'Endpoint' | 'Service' | 'AppWan';

/**
 * Each kind: the rest/v1 resource to read, the GraphQL type of its record, and whether it lives
 * in a network (then `networkId` is required). v2 kinds (word statuses) would add rows with their
 * own read; `statusName` already carries words.
 */
export const STATUS_KINDS = {
  NETWORK: { upstream: 'network', typename: 'Network', inNetwork: false },
  ENDPOINT: { upstream: 'endpoint', typename: 'Endpoint', inNetwork: true },
  SERVICE: { upstream: 'service', typename: 'Service', inNetwork: true },
  APP_WAN: { upstream: 'appWan', typename: 'AppWan', inNetwork: true },
} as const satisfies Record<ResourceKind, { upstream: string; typename: StatusResourceTypename; inNetwork: boolean }>;

/** Statuses after which nothing more happens by itself (PUBLIC-RECORD.md): the subscription completes. */
export const TERMINAL_STATUS_NAMES: ReadonlySet<string> = new Set(['PROVISIONED', 'REGISTERED', 'ERROR', 'DELETED']);
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

function event(target: StatusTarget, status: number | null, resource: StatusResourceRecord | null): ResourceStatusEventRecord {
  const name = statusName(status);
  return {
    kind: target.kind,
    id: target.id,
    networkId: target.networkId ?? (target.kind === 'NETWORK' ? target.id : null),
    status,
    statusName: name,
    terminal: name !== null && TERMINAL_STATUS_NAMES.has(name),
    observedAt: new Date().toISOString(),
    resource,
  };
}

export const resourceStatusPoll: PollKind<StatusTarget, ResourceStatusEventRecord, PollSession> = {
  name: 'resourceStatus',
  key: (t) => `${t.kind}:${t.networkId ?? '-'}/${t.id}`,
  async poll(target, session) {
    const row = STATUS_KINDS[target.kind];
    const record = await session.loaders.network.byId(row.upstream, target.id, target.networkId ?? undefined);
    typenames.set(record, row.typename);
    return event(target, record.status, record);
  },
  fingerprint: (e) => `${e.status ?? ''}|${e.statusName ?? ''}`,
  isTerminal: (e) => e.terminal,
  classifyError(error, state, target) {
    const code = errorCodeOf(error);
    // Gone after it was seen: deleted (the record says deleted entities may answer 403, not 404).
    if (state.last !== null && (code === ErrorCode.NOT_FOUND || code === ErrorCode.FORBIDDEN)) {
      return { action: 'emit', value: event(target, DELETED_STATUS, null) };
    }
    return undefined;
  },
};
