/**
 * The map's data model, without DOM or libraries (unit-tested in node): `networkChanges` events →
 * the network the page holds (the first event is all of it, each later one is applied as a delta),
 * graph elements, status colours, and who can reach what in an AppWAN.
 */
import type { AppWanMemberKind, MapNetworkChangesSubscription, MapResourceFragment, NetworkResourceKind } from './gql/graphql';

export type Kind = 'endpoint' | 'service' | 'appWan' | 'endpointGroup';

export interface Resource {
  kind: Kind;
  id: string;
  name: string;
  status: number | null;
  statusName: string | null;
  /** Endpoints: GW, ZTGW, ZTCL, VCPEGW (others shown as they come). */
  endpointType?: string | null;
  currentStateName?: string | null;
  serviceClass?: string | null;
  /** Services: the terminating endpoint or gateway cluster. */
  endpointId?: string | null;
  gatewayClusterId?: string | null;
}

export interface AppWanMembers {
  endpointIds: string[];
  serviceIds: string[];
  endpointGroupIds: string[];
}

export interface MapData {
  networkId: string;
  networkName: string;
  resources: Map<string, Resource>;
  members: Map<string, AppWanMembers>;
}

export const ENDPOINT_TYPES: Record<string, string> = {
  GW: 'hosted gateway',
  ZTGW: 'bridge gateway',
  ZTCL: 'client',
  VCPEGW: 'self-hosted gateway',
};

export function statusColour(statusName: string | null | undefined): string {
  switch (statusName) {
    case 'PROVISIONED':
    case 'REGISTERED':
      return '#2e9d57';
    case 'NEW':
    case 'PROVISIONING':
    case 'UPDATING':
    case 'REPLACING':
      return '#e0a526';
    case 'ERROR':
      return '#d64545';
    case 'DELETING':
    case 'DELETED':
      return '#8a8a8a';
    default:
      return '#b9c2cc';
  }
}

/** One event of the page's `networkChanges` subscription. */
export type NetworkChanges = MapNetworkChangesSubscription['networkChanges'];

const KINDS: Readonly<Record<NetworkResourceKind, Kind>> = { ENDPOINT: 'endpoint', SERVICE: 'service', APP_WAN: 'appWan', ENDPOINT_GROUP: 'endpointGroup' };
const MEMBER_LISTS: Readonly<Record<AppWanMemberKind, keyof AppWanMembers>> = { ENDPOINT: 'endpointIds', SERVICE: 'serviceIds', ENDPOINT_GROUP: 'endpointGroupIds' };

/** A resource as `networkChanges` sends it → what the page draws. */
export function resourceOf(s: MapResourceFragment): Resource {
  const kind = KINDS[s.kind];
  const r: Resource = { kind, id: s.id, name: s.name ?? s.id, status: s.status ?? null, statusName: s.statusName ?? null };
  if (kind === 'endpoint') Object.assign(r, { endpointType: s.endpointType ?? null, currentStateName: s.currentStateName ?? null });
  if (kind === 'service') Object.assign(r, { serviceClass: s.serviceClass ?? null, endpointId: s.endpointId ?? null, gatewayClusterId: s.gatewayClusterId ?? null });
  return r;
}

/** An empty network, for the first event (the whole network, as added) to fill. */
export function emptyMap(networkId: string): MapData {
  return { networkId, networkName: networkId, resources: new Map(), members: new Map() };
}

/** One line of the page's list of recent changes. */
export interface ChangeNote {
  /** The resource it is about (for a membership: the member). */
  id: string;
  text: string;
}

/** What applying one event did: lines for the list of recent changes, and what to highlight. */
export interface Applied {
  notes: ChangeNote[];
  /** Ids of the resources that appeared, changed or joined or left an AppWAN (and those AppWANs). */
  touched: string[];
}

/**
 * Applies one `networkChanges` event to `data` (in place), as the schema says: add `added`, drop
 * `removed`, replace `changed`, add and drop memberships. Applying what the page already did
 * itself (an endpoint it authorized) changes nothing.
 */
export function applyChanges(data: MapData, event: NetworkChanges): Applied {
  const notes: ChangeNote[] = [];
  const touched = new Set<string>();
  const name = (id: string): string => data.resources.get(id)?.name ?? id;
  if (event.network) data.networkName = event.network.name ?? data.networkName;
  for (const added of event.added) {
    const r = resourceOf(added);
    data.resources.set(r.id, r);
    if (r.kind === 'appWan' && !data.members.has(r.id)) data.members.set(r.id, { endpointIds: [], serviceIds: [], endpointGroupIds: [] });
    touched.add(r.id);
    notes.push({ id: r.id, text: `+ ${KIND_WORDS[r.kind]} ${r.name} (${r.statusName ?? 'no status'})` });
  }
  for (const { after, before } of event.changed) {
    const r = resourceOf(after);
    data.resources.set(r.id, r);
    touched.add(r.id);
    const status = before.statusName === r.statusName ? '' : `${before.statusName ?? '—'} → ${r.statusName ?? '—'}`;
    const renamed = before.name === after.name ? '' : `renamed from ${before.name ?? '—'}`;
    notes.push({ id: r.id, text: `${r.name}: ${[status, renamed].filter(Boolean).join(', ') || 'changed'}` });
  }
  for (const m of event.membershipsAdded) {
    const list = (data.members.get(m.appWanId) ?? setMembers(data, m.appWanId))[MEMBER_LISTS[m.memberKind]];
    if (!list.includes(m.memberId)) list.push(m.memberId);
    touched.add(m.memberId).add(m.appWanId);
    notes.push({ id: m.memberId, text: `${name(m.memberId)} joined ${name(m.appWanId)}` });
  }
  for (const m of event.membershipsRemoved) {
    const members = data.members.get(m.appWanId);
    const key = MEMBER_LISTS[m.memberKind];
    if (members) members[key] = members[key].filter((id) => id !== m.memberId);
    touched.add(m.memberId).add(m.appWanId);
    notes.push({ id: m.memberId, text: `${name(m.memberId)} left ${name(m.appWanId)}` });
  }
  for (const gone of event.removed) {
    notes.push({ id: gone.id, text: `− ${KIND_WORDS[KINDS[gone.kind]]} ${gone.name ?? name(gone.id)}` });
    data.resources.delete(gone.id);
    data.members.delete(gone.id);
    touched.delete(gone.id);
  }
  return { notes, touched: [...touched].filter((id) => data.resources.has(id)) };
}

const KIND_WORDS: Readonly<Record<Kind, string>> = { endpoint: 'endpoint', service: 'service', appWan: 'AppWAN', endpointGroup: 'endpoint group' };

function setMembers(data: MapData, appWanId: string): AppWanMembers {
  const members: AppWanMembers = { endpointIds: [], serviceIds: [], endpointGroupIds: [] };
  data.members.set(appWanId, members);
  return members;
}

export type Grouping = 'none' | 'type' | 'appWan';

/** Above this many endpoints, `auto` groups them (by type): a few thousand nodes are not readable. */
export const AUTO_GROUP_ENDPOINTS = 150;

export function effectiveGrouping(choice: Grouping | 'auto', data: MapData): Grouping {
  if (choice !== 'auto') return choice;
  let endpoints = 0;
  for (const r of data.resources.values()) if (r.kind === 'endpoint') endpoints++;
  return endpoints > AUTO_GROUP_ENDPOINTS ? 'type' : 'none';
}

export interface NodeElement {
  id: string;
  label: string;
  kind: Kind | 'bucket';
  /** Endpoint type for endpoints, the grouping key for buckets. */
  subtype: string;
  colour: string;
  /** Resources a bucket stands for (collapsed endpoints). */
  count: number;
}

export interface EdgeElement {
  id: string;
  source: string;
  target: string;
  /** How many resource links it stands for (edges into a bucket are merged). */
  weight: number;
  relation: 'member' | 'service' | 'group' | 'terminates';
}

export interface Elements {
  nodes: NodeElement[];
  edges: EdgeElement[];
}

function resourceNode(r: Resource): NodeElement {
  return { id: r.id, label: r.name, kind: r.kind, subtype: r.endpointType ?? r.kind, colour: statusColour(r.statusName), count: 1 };
}

/**
 * The collapsed node an endpoint falls into: `type` one per endpoint type; `appWan` one per
 * AppWAN, an endpoint in several going to the first by name (its links to the others stay, as
 * weighted edges), and one for endpoints in no AppWAN.
 */
export function bucketOf(data: MapData, grouping: Grouping, r: Resource): { id: string; label: string; subtype: string } | null {
  if (grouping === 'none' || r.kind !== 'endpoint') return null;
  if (grouping === 'type') {
    const type = r.endpointType ?? '?';
    return { id: `bucket:type:${type}`, label: ENDPOINT_TYPES[type] ?? type, subtype: type };
  }
  const names: string[] = [];
  for (const [appWanId, m] of data.members) if (m.endpointIds.includes(r.id)) names.push(data.resources.get(appWanId)?.name ?? appWanId);
  const first = names.sort()[0];
  return first === undefined
    ? { id: 'bucket:appWan:', label: 'in no AppWAN', subtype: 'appWan' }
    : { id: `bucket:appWan:${first}`, label: `${first} members`, subtype: 'appWan' };
}

/**
 * Graph elements for a grouping. `none`: one node per resource; edges endpoint→AppWAN (direct
 * member), endpoint group→AppWAN, AppWAN→service, service→terminating endpoint. Otherwise
 * endpoints collapse into buckets (see bucketOf), with edges merged and weighted; endpoints of
 * the `expanded` buckets stay individual nodes.
 */
export function buildElements(data: MapData, grouping: Grouping, expanded: ReadonlySet<string> = new Set()): Elements {
  const bucketOfId = new Map<string, string>();
  const buckets = new Map<string, NodeElement>();
  for (const r of data.resources.values()) {
    const bucket = bucketOf(data, grouping, r);
    if (!bucket || expanded.has(bucket.id)) continue;
    bucketOfId.set(r.id, bucket.id);
    const b = buckets.get(bucket.id);
    if (b) b.count++;
    else buckets.set(bucket.id, { id: bucket.id, label: bucket.label, kind: 'bucket', subtype: bucket.subtype, colour: '#dfe6ee', count: 1 });
  }
  for (const b of buckets.values()) b.label = `${b.label} (${b.count} endpoint${b.count === 1 ? '' : 's'})`;

  const nodes: NodeElement[] = [...buckets.values()];
  for (const r of data.resources.values()) if (!bucketOfId.has(r.id)) nodes.push(resourceNode(r));
  const edges = new Map<string, EdgeElement>();
  const link = (source: string, target: string, relation: EdgeElement['relation']): void => {
    // Links to resources the map did not get (e.g. deleted meanwhile) are left out.
    if (!data.resources.has(source) || !data.resources.has(target)) return;
    const to = bucketOfId.get(target) ?? target;
    const from = bucketOfId.get(source) ?? source;
    const id = `${relation}:${from}->${to}`;
    const e = edges.get(id);
    if (e) e.weight++;
    else edges.set(id, { id, source: from, target: to, weight: 1, relation });
  };
  for (const [appWanId, m] of data.members) {
    // Directed the way traffic is allowed (endpoint → AppWAN → service → terminating gateway), so
    // a layered layout puts clients, AppWANs, services and gateways in that order.
    for (const e of m.endpointIds) link(e, appWanId, 'member');
    for (const g of m.endpointGroupIds) link(g, appWanId, 'group');
    for (const s of m.serviceIds) link(appWanId, s, 'service');
  }
  for (const r of data.resources.values()) if (r.kind === 'service' && r.endpointId) link(r.id, r.endpointId, 'terminates');
  return { nodes, edges: [...edges.values()] };
}

export interface Reach {
  /** Endpoints authorized directly. */
  endpoints: Resource[];
  /** Endpoint groups authorized: all their members reach the services too. */
  endpointGroups: Resource[];
  services: Resource[];
}

/**
 * Who can reach what in a (v1) AppWAN: its endpoints, directly and through its endpoint groups,
 * may initiate connections to its services.
 */
export function reachOf(data: MapData, appWanId: string): Reach {
  const m = data.members.get(appWanId) ?? { endpointIds: [], serviceIds: [], endpointGroupIds: [] };
  const pick = (list: string[]): Resource[] => list.map((id) => data.resources.get(id)).filter((r): r is Resource => r !== undefined);
  return { endpoints: pick(m.endpointIds), endpointGroups: pick(m.endpointGroupIds), services: pick(m.serviceIds) };
}

/** Resources linked to one resource (for the details panel), by relation. */
export function linksOf(data: MapData, id: string): Array<{ relation: string; resource: Resource }> {
  const out: Array<{ relation: string; resource: Resource }> = [];
  const add = (relation: string, otherId: string | null | undefined): void => {
    const r = otherId ? data.resources.get(otherId) : undefined;
    if (r) out.push({ relation, resource: r });
  };
  const self = data.resources.get(id);
  if (!self) return out;
  if (self.kind === 'appWan') {
    const m = data.members.get(id);
    m?.endpointIds.forEach((e) => add('endpoint', e));
    m?.endpointGroupIds.forEach((g) => add('endpoint group', g));
    m?.serviceIds.forEach((s) => add('service', s));
    return out;
  }
  for (const [appWanId, m] of data.members) {
    if (m.endpointIds.includes(id) || m.serviceIds.includes(id) || m.endpointGroupIds.includes(id)) add('in AppWAN', appWanId);
  }
  if (self.kind === 'service') add('terminated by', self.endpointId);
  if (self.kind === 'endpoint') for (const r of data.resources.values()) if (r.kind === 'service' && r.endpointId === id) add('terminates', r.id);
  return out;
}

/** Names matching a search, case-insensitive. */
export function search(data: MapData, text: string): Resource[] {
  const q = text.trim().toLowerCase();
  if (!q) return [];
  return [...data.resources.values()].filter((r) => r.name.toLowerCase().includes(q));
}

export type Problem = 'forbidden' | 'unauthenticated' | 'unreachable' | 'other';

/** What a set of GraphQL error codes means to the person at the page. */
export function problemOf(codes: readonly string[]): { problem: Problem; message: string } {
  if (codes.includes('UNAUTHENTICATED')) return { problem: 'unauthenticated', message: 'Your token has expired or is not valid: paste a fresh one in the Token field.' };
  if (codes.includes('FORBIDDEN')) return { problem: 'forbidden', message: 'Your token may read this network but may not change it (FORBIDDEN): ask an administrator, or use a token with write access.' };
  if (codes.some((c) => c === 'UPSTREAM_UNAVAILABLE' || c === 'UPSTREAM_ERROR' || c === 'UPSTREAM_TIMEOUT')) {
    return { problem: 'unreachable', message: 'The platform is not reachable right now (the gateway could not get an answer from it). Try again in a moment.' };
  }
  return { problem: 'other', message: `The gateway answered with an error${codes.length ? ` (${codes.join(', ')})` : ''}.` };
}
