/**
 * The rest/v1 resource table: one row per resource type, read by the client (fetch by id, list)
 * and by the loaders (keys, priming). Paths and `_embedded` keys are the platform's; where it does
 * not name the plural, the HAL parser also accepts the only list in `_embedded`.
 *
 * Permission notes are the platform's and the sandbox's: reads need a read grant; the sandbox treats
 * hosts, network controller hosts and cloud subscriptions as admin-only (FORBIDDEN for readers).
 */
import * as r from './records';
import { segment } from '../path-segment';

export interface ResourceDef<R> {
  /** Type name for messages. */
  what: string;
  /** `root`: `/<collection>`; `network`: `/networks/{networkId}/<collection>`. */
  scope: 'root' | 'network';
  /** Collection path segment, as the platform spells it (trailing slash included where it does). */
  collection: string;
  /** Item path segment (`{collection}/{id}`); null when the upstream has no fetch by id. */
  item: string | null;
  /** `_embedded` key of the collection. */
  embedded: string;
  /** The list takes `page`/`size`/`sort`. */
  paginated: boolean;
  parse: (value: unknown) => R;
  /**
   * A small catalog (regions, data centers, templates): when two or more ids are asked in one
   * batch, one list call answers them all instead of one call per id.
   */
  catalog?: boolean;
  notes: string;
}

/** Record type of each resource kind (the table below must parse into exactly these). */
export interface RecordTypes {
  networkGroup: r.NetworkGroupRecord;
  network: r.NetworkRecord;
  dataCenter: r.DataCenterRecord;
  geoRegion: r.GeoRegionRecord;
  host: r.HostRecord;
  networkConfigMetadata: r.NetworkConfigMetadataRecord;
  cloudSubscription: r.CloudSubscriptionRecord;
  endpoint: r.EndpointRecord;
  service: r.ServiceRecord;
  appWan: r.AppWanRecord;
  endpointGroup: r.EndpointGroupRecord;
  gatewayCluster: r.GatewayClusterRecord;
  certificateAuthority: r.CertificateAuthorityRecord;
  serviceGroup: r.ServiceGroupRecord;
  transferNodePool: r.TransferNodePoolRecord;
  networkControllerHost: r.NetworkControllerHostRecord;
}
export type ResourceKind = keyof RecordTypes;
export type RecordFor<K extends ResourceKind> = RecordTypes[K];

const def = <R>(row: ResourceDef<R>): ResourceDef<R> => row;

export const resources: { readonly [K in ResourceKind]: ResourceDef<RecordTypes[K]> } = {
  networkGroup: def({ what: 'NetworkGroup', scope: 'root', collection: '/organizations', item: '/organizations', embedded: 'organizations', paginated: false, parse: r.parseNetworkGroup, notes: 'also listed at /network-groups/' }),
  network: def({ what: 'Network', scope: 'root', collection: '/networks', item: '/networks', embedded: 'networks', paginated: true, parse: r.parseNetwork, notes: 'networks of the caller\'s group' }),
  dataCenter: def({ what: 'DataCenter', catalog: true, scope: 'root', collection: '/dataCenters', item: '/dataCenters', embedded: 'dataCenters', paginated: false, parse: r.parseDataCenter, notes: 'filter: locationCode' }),
  geoRegion: def({ what: 'GeoRegion', catalog: true, scope: 'root', collection: '/geoRegions', item: '/geoRegions', embedded: 'geoRegions', paginated: false, parse: r.parseGeoRegion, notes: '' }),
  host: def({ what: 'Host', scope: 'root', collection: '/hosts', item: '/hosts', embedded: 'hosts', paginated: false, parse: r.opaqueParser('Host'), notes: 'admin-only in the sandbox' }),
  networkConfigMetadata: def({ what: 'NetworkConfigMetadata', catalog: true, scope: 'root', collection: '/networkConfigMetadata', item: '/networkConfigMetadata', embedded: 'networkConfigMetadatas', paginated: false, parse: r.parseNetworkConfigMetadata, notes: '' }),
  cloudSubscription: def({ what: 'CloudSubscription', scope: 'root', collection: '/azureSubscriptions', item: '/azureSubscriptions', embedded: 'azureSubscriptions', paginated: false, parse: r.parseCloudSubscription, notes: 'applicationKey omitted; admin-only in the sandbox' }),
  endpoint: def({ what: 'Endpoint', scope: 'network', collection: '/endpoints', item: '/endpoints', embedded: 'endpoints', paginated: true, parse: r.parseEndpoint, notes: '' }),
  service: def({ what: 'Service', scope: 'network', collection: '/services', item: '/services', embedded: 'services', paginated: true, parse: r.parseService, notes: '' }),
  appWan: def({ what: 'AppWan', scope: 'network', collection: '/appWans', item: '/appWans', embedded: 'appWans', paginated: true, parse: r.parseAppWan, notes: '' }),
  endpointGroup: def({ what: 'EndpointGroup', scope: 'network', collection: '/endpointGroups', item: '/endpointGroups', embedded: 'endpointGroups', paginated: false, parse: r.opaqueParser('EndpointGroup'), notes: '' }),
  gatewayCluster: def({ what: 'GatewayCluster', scope: 'network', collection: '/gatewayClusters', item: '/gatewayClusters', embedded: 'gatewayClusters', paginated: false, parse: r.opaqueParser('GatewayCluster'), notes: '' }),
  certificateAuthority: def({ what: 'CertificateAuthority', scope: 'network', collection: '/cas/', item: '/cas', embedded: 'cas', paginated: false, parse: r.opaqueParser('CertificateAuthority'), notes: '' }),
  serviceGroup: def({ what: 'ServiceGroup', scope: 'network', collection: '/serviceGroups', item: '/serviceGroups', embedded: 'serviceGroups', paginated: false, parse: r.opaqueParser('ServiceGroup'), notes: '' }),
  transferNodePool: def({ what: 'TransferNodePool', scope: 'network', collection: '/transferNodePools', item: '/transferNodePools', embedded: 'transferNodePools', paginated: false, parse: r.opaqueParser('TransferNodePool'), notes: '' }),
  networkControllerHost: def({ what: 'NetworkControllerHost', scope: 'network', collection: '/networkControllerHosts', item: null, embedded: 'networkControllerHosts', paginated: false, parse: r.opaqueParser('NetworkControllerHost'), notes: 'admin-only in the sandbox' }),
};
/** Kinds whose paths sit under `/networks/{networkId}` (kept in step with `scope` by a unit test). */
export type NetworkScopedKind =
  | 'endpoint'
  | 'service'
  | 'appWan'
  | 'endpointGroup'
  | 'gatewayCluster'
  | 'certificateAuthority'
  | 'serviceGroup'
  | 'transferNodePool'
  | 'networkControllerHost';

/**
 * Member lists under one parent record (`/networks/{n}/endpoints/{id}/appWans`, …): parent kind,
 * HAL relation to follow when the parent carries it, path suffix to build otherwise, child kind.
 */
export const relations = {
  endpointAppWans: { parent: 'endpoint', rel: 'appWans', suffix: '/appWans', child: 'appWan' },
  endpointServices: { parent: 'endpoint', rel: 'services', suffix: '/services', child: 'service' },
  endpointEndpointGroups: { parent: 'endpoint', rel: 'endpointGroups', suffix: '/endpointGroups', child: 'endpointGroup' },
  serviceAppWans: { parent: 'service', rel: 'appWans', suffix: '/appWans', child: 'appWan' },
  appWanEndpoints: { parent: 'appWan', rel: 'endpoints', suffix: '/endpoints', child: 'endpoint' },
  appWanServices: { parent: 'appWan', rel: 'services', suffix: '/services', child: 'service' },
  appWanEndpointGroups: { parent: 'appWan', rel: 'endpointGroups', suffix: '/endpointGroups', child: 'endpointGroup' },
  gatewayClusterEndpoints: { parent: 'gatewayCluster', rel: 'endpoints', suffix: '/endpoints', child: 'endpoint' },
  gatewayClusterServices: { parent: 'gatewayCluster', rel: 'services', suffix: '/services', child: 'service' },
} as const satisfies Record<string, { parent: NetworkScopedKind; rel: string; suffix: string; child: NetworkScopedKind }>;

export type RelationName = keyof typeof relations;
export interface RelationDef<C extends ResourceKind> {
  parent: NetworkScopedKind;
  rel: string;
  suffix: string;
  child: C;
}

export function itemPath(kind: ResourceKind, id: string, networkId?: string): string {
  const row = resources[kind];
  if (row.item === null) throw new Error(`${row.what} has no fetch by id`);
  return `${scopePrefix(kind, networkId)}${row.item}/${segment(id)}`;
}

export function collectionPath(kind: ResourceKind, networkId?: string): string {
  return `${scopePrefix(kind, networkId)}${resources[kind].collection}`;
}

function scopePrefix(kind: ResourceKind, networkId: string | undefined): string {
  if (resources[kind].scope === 'root') return '';
  if (networkId === undefined) throw new Error(`${resources[kind].what} needs a network id`);
  return `/networks/${segment(networkId, 'networkId')}`;
}
