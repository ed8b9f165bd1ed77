/**
 * `networkChanges` events from poll states: the first one a subscriber gets is the whole state as
 * a change from nothing; each later one is what differs from the state before it. Every
 * subscriber of a poller sees the same states in the same order, so a delta is worked out once
 * and shared (remembered on the newer state, for the state it was taken from).
 */
import type { NetworkRecord } from '../../upstream/network/records';
import { networkSignature, signatureOf, type MembershipRecord, type NetworkState, type ResourceStateRecord } from './state';

/** The mapped record of `NetworkResourceChange`. */
export interface ResourceChangeRecord {
  kind: ResourceStateRecord['kind'];
  id: string;
  before: ResourceStateRecord;
  after: ResourceStateRecord;
}

/** The mapped record of `NetworkChangesEvent`. */
export interface NetworkChangesEventRecord {
  networkId: string;
  snapshot: boolean;
  network: NetworkRecord | null;
  networkDeleted: boolean;
  added: ResourceStateRecord[];
  removed: ResourceStateRecord[];
  changed: ResourceChangeRecord[];
  membershipsAdded: MembershipRecord[];
  membershipsRemoved: MembershipRecord[];
  resourceCount: number;
  membershipCount: number;
  inProgress: boolean;
  observedAt: string;
  pollUpstreamCalls: number;
}

const EMPTY: NetworkState = {
  networkId: '',
  network: null,
  deleted: false,
  resources: new Map(),
  memberships: new Map(),
  inProgress: false,
  observedAt: '',
  upstreamCalls: 0,
  fingerprint: '',
};

/** The first event of a subscription: everything in `next`, as added. */
export function snapshotEvent(next: NetworkState): NetworkChangesEventRecord {
  return { ...delta(EMPTY, next), snapshot: true, network: next.network };
}

const deltas = new WeakMap<NetworkState, { from: NetworkState; event: NetworkChangesEventRecord }>();

/** What changed from `previous` (the state a subscriber's last event left it with) to `next`. */
export function deltaEvent(previous: NetworkState, next: NetworkState): NetworkChangesEventRecord {
  const known = deltas.get(next);
  if (known !== undefined && known.from === previous) return known.event;
  const event = delta(previous, next);
  deltas.set(next, { from: previous, event });
  return event;
}

function delta(previous: NetworkState, next: NetworkState): NetworkChangesEventRecord {
  const added: ResourceStateRecord[] = [];
  const changed: ResourceChangeRecord[] = [];
  for (const [id, after] of next.resources) {
    const before = previous.resources.get(id);
    if (before === undefined) added.push(after);
    else if (signatureOf(before) !== signatureOf(after)) changed.push({ kind: after.kind, id, before, after });
  }
  const removed = [...previous.resources.values()].filter((r) => !next.resources.has(r.id));
  const membershipsAdded = [...next.memberships].filter(([key]) => !previous.memberships.has(key)).map(([, m]) => m);
  const membershipsRemoved = [...previous.memberships].filter(([key]) => !next.memberships.has(key)).map(([, m]) => m);
  const networkChanged = networkSignature(previous.network) !== networkSignature(next.network);
  return {
    networkId: next.networkId,
    snapshot: false,
    network: networkChanged ? next.network : null,
    networkDeleted: next.deleted,
    added,
    removed,
    changed,
    membershipsAdded,
    membershipsRemoved,
    resourceCount: next.resources.size,
    membershipCount: next.memberships.size,
    inProgress: next.inProgress,
    observedAt: next.observedAt,
    pollUpstreamCalls: next.upstreamCalls,
  };
}
