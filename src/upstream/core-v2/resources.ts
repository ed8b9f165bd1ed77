/**
 * The core/v2 resource table: one row per kind, read by the client (create, fetch by id, list)
 * and the loaders (caches, priming).
 *
 * The platform has a create of every kind and a fetch of endpoints by id; its lists answer under
 * `_embedded.<singular>List` (networks, endpoints, edge routers, services, edge router policies;
 * AppWANs by the same pattern). Fetches by id of the other kinds follow the same path pattern
 * (`{collection}/{id}`).
 */
import type { JsonObject } from '../../core/parse';
import * as r from './records';
import { segment } from '../path-segment';

export interface V2RecordTypes {
  network: r.V2NetworkRecord;
  edgeRouter: r.EdgeRouterRecord;
  edgeRouterPolicy: r.EdgeRouterPolicyRecord;
  service: r.V2ServiceRecord;
  appWan: r.V2AppWanRecord;
  endpoint: r.V2EndpointRecord;
}
export type V2Kind = keyof V2RecordTypes;
export type V2RecordFor<K extends V2Kind> = V2RecordTypes[K];

export interface V2ResourceDef<R> {
  /** Type name for messages. */
  what: string;
  /** Path below /core/v2. */
  collection: string;
  /** `_embedded` key of list answers. */
  listKey: string;
  /** Belongs to a network (`networkId`). */
  scoped: boolean;
  parse: (value: unknown) => R;
}

const def = <R>(row: V2ResourceDef<R>): V2ResourceDef<R> => row;

export const v2Resources: { readonly [K in V2Kind]: V2ResourceDef<V2RecordTypes[K]> } = {
  network: def({ what: 'V2Network', collection: '/networks', listKey: 'networkList', scoped: false, parse: r.parseV2Network }),
  edgeRouter: def({ what: 'EdgeRouter', collection: '/edge-routers', listKey: 'edgeRouterList', scoped: true, parse: r.parseEdgeRouter }),
  edgeRouterPolicy: def({ what: 'EdgeRouterPolicy', collection: '/edge-router-policies', listKey: 'edgeRouterPolicyList', scoped: true, parse: r.parseEdgeRouterPolicy }),
  service: def({ what: 'V2Service', collection: '/services', listKey: 'serviceList', scoped: true, parse: r.parseV2Service }),
  appWan: def({ what: 'V2AppWan', collection: '/app-wans', listKey: 'appWanList', scoped: true, parse: r.parseV2AppWan }),
  endpoint: def({ what: 'V2Endpoint', collection: '/endpoints', listKey: 'endpointList', scoped: true, parse: r.parseV2Endpoint }),
};

export const V2_KINDS = Object.keys(v2Resources) as V2Kind[];

/**
 * How to find out whether a create was applied, said after an unknown outcome: every kind's list
 * takes a `name` filter. A create makes stale the cached reads of its own kind only (loaders.ts):
 * records of other kinds name it by attributes, which are matched when the lists are read.
 */
export function v2CreateHint(kind: V2Kind, body: JsonObject): string {
  const name = typeof body['name'] === 'string' ? ` named ${JSON.stringify(body['name'])}` : '';
  return `Before creating it again, list the ${v2Resources[kind].what} records${name}: it may exist now`;
}

export function v2ItemPath(kind: V2Kind, id: string): string {
  return `${v2Resources[kind].collection}/${segment(id)}`;
}
