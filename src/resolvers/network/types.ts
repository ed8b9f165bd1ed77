/**
 * Field resolvers of the rest/v1 types: names of numeric codes and typed links. Links go through
 * the loaders (by id, lists, member lists, the AppWAN plan rule), never to the client directly.
 */
import type { Resolvers } from '../../generated/graphql';
import { hrefTarget } from '../../upstream/network/hal';
import { relations } from '../../upstream/network/resources';
import type { OpaqueRecord } from '../../upstream/network/records';
import type { GatewayContext } from '../../context';
import { appWanMembers, arrayConnection, endpointMembers, listConnection, networkListPages, networkLists, relationParent, serviceMembers, SORTABLE, sortSpecs } from './lists';
import { streamedConnection } from '../stream';
import { prefetchingNetworks } from './prefetch';
import { currentStateName, sessionStatusName, statusName } from './status-names';
import { segment } from '../../upstream/path-segment';

const enc = segment;

/** Resolves to null without a call when the referenced id is absent. */
function maybe<T>(id: string | null, load: (id: string) => Promise<T>): Promise<T> | null {
  return id === null || id === '' ? null : load(id);
}

/** The fields every resource with a field list not in the contract shares. */
function opaqueFields() {
  return {
    statusName: (r: OpaqueRecord) => statusName(r.status),
    network: (r: OpaqueRecord, _args: unknown, { loaders }: GatewayContext) => maybe(r.networkId, (id) => loaders.network.byId('network', id)),
  };
}

export const networkTypes: Resolvers = {
  NetworkGroup: {
    networks: (group, args, { loaders }, info) => {
      const sort = sortSpecs(args.sort, SORTABLE.network);
      return listConnection(args, (w) => prefetchingNetworks(loaders.network, info, loaders.network.networksOf(group, sort, w)));
    },
    endpoints: (group, args, { loaders }) =>
      listConnection(args, (w) => loaders.network.listAt('endpoint', { path: `/networkgroups/${enc(group.id)}/endpoints` }, w)),
    services: (group, args, { loaders }) =>
      listConnection(args, (w) => loaders.network.listAt('service', { path: `/networkgroups/${enc(group.id)}/services` }, w)),
    cloudSubscriptions: (group, args, { loaders }) => {
      const href = group.links['cloudbSubscription'];
      const target = href === undefined ? { path: '/azureSubscriptions', query: { organizationId: group.id } } : hrefTarget(href);
      return listConnection(args, (w) => loaders.network.listAt('cloudSubscription', target, w));
    },
  },

  Network: {
    statusName: (n) => statusName(n.status),
    networkGroup: (n, _a, { loaders }) => maybe(n.organizationId, (id) => loaders.network.byId('networkGroup', id)),
    // Many networks share a template: by id is cached across them; the per-network path is the fallback.
    networkConfigMetadata: (n, _a, { loaders }) =>
      n.networkConfigMetadataId !== null
        ? loaders.network.byId('networkConfigMetadata', n.networkConfigMetadataId)
        : loaders.network.networkConfigMetadataOf(n.id),
    // Batched with the other networks of its group (a group-wide list may answer them all); a lone
    // network's list is the same cached call `network(id:)` started (lists.ts networkLists.endpoints).
    // With `@stream` on `nodes`: page by page (../stream.ts); otherwise as always.
    endpoints: (n, args, ctx, info) => {
      const sort = sortSpecs(args.sort, SORTABLE.endpoint);
      return (
        streamedConnection(info, ctx, args, networkListPages.endpoints(ctx.loaders.network, n.id, args)) ??
        listConnection(args, (w) => ctx.loaders.network.endpointsOf(n, sort, w))
      );
    },
    services: (n, args, ctx, info) =>
      streamedConnection(info, ctx, args, networkListPages.services(ctx.loaders.network, n.id, args)) ?? networkLists.services(ctx.loaders.network, n.id, args),
    appWans: (n, args, ctx, info) =>
      streamedConnection(info, ctx, args, networkListPages.appWans(ctx.loaders.network, n.id, args)) ?? networkLists.appWans(ctx.loaders.network, n.id, args),
    endpointGroups: (n, args, ctx, info) =>
      streamedConnection(info, ctx, args, networkListPages.endpointGroups(ctx.loaders.network, n.id, args)) ??
      networkLists.endpointGroups(ctx.loaders.network, n.id, args),
    endpointGroup: (n, { id }, { loaders }) => loaders.network.byId('endpointGroup', id, n.id),
    gatewayClusters: (n, args, { loaders }) => listConnection(args, (w) => loaders.network.list('gatewayCluster', w, { networkId: n.id })),
    gatewayCluster: (n, { id }, { loaders }) => loaders.network.byId('gatewayCluster', id, n.id),
    certificateAuthorities: (n, args, { loaders }) =>
      listConnection(args, (w) => loaders.network.list('certificateAuthority', w, { networkId: n.id })),
    certificateAuthority: (n, { id }, { loaders }) => loaders.network.byId('certificateAuthority', id, n.id),
    serviceGroups: (n, args, { loaders }) => listConnection(args, (w) => loaders.network.list('serviceGroup', w, { networkId: n.id })),
    serviceGroup: (n, { id }, { loaders }) => loaders.network.byId('serviceGroup', id, n.id),
    transferNodePools: (n, args, { loaders }) => listConnection(args, (w) => loaders.network.list('transferNodePool', w, { networkId: n.id })),
    transferNodePool: (n, { id }, { loaders }) => loaders.network.byId('transferNodePool', id, n.id),
    networkControllerHosts: (n, args, { loaders }) =>
      listConnection(args, (w) => loaders.network.list('networkControllerHost', w, { networkId: n.id })),
    blueprint: (n, _a, { loaders }) => loaders.network.text(`/networks/${enc(n.id)}/blueprint`),
  },

  Endpoint: {
    statusName: (e) => statusName(e.status),
    currentStateName: (e) => currentStateName(e.currentState),
    sessionStatusName: (e) => sessionStatusName(e.sessionStatus),
    network: (e, _a, { loaders }) => maybe(e.networkId, (id) => loaders.network.byId('network', id)),
    geoRegion: (e, _a, { loaders }) => maybe(e.geoRegionId, (id) => loaders.network.byId('geoRegion', id)),
    dataCenter: (e, _a, { loaders }) => maybe(e.dataCenterId, (id) => loaders.network.byId('dataCenter', id)),
    gatewayCluster: (e, _a, { loaders }) =>
      maybe(e.gatewayClusterId, (id) => loaders.network.byId('gatewayCluster', id, e.networkId ?? undefined)),
    appWans: (e, args, { loaders }) => endpointMembers.appWans(loaders.network, relationParent(e), args),
    services: (e, args, { loaders }) => endpointMembers.services(loaders.network, relationParent(e), args),
    endpointGroups: (e, args, { loaders }) => endpointMembers.endpointGroups(loaders.network, relationParent(e), args),
    registrationToken: (e, _a, { loaders }) => {
      const { networkId, id } = relationParent(e);
      return loaders.network.text(`/networks/${enc(networkId)}/endpoints/${enc(id)}/downloadRegistrationKey`);
    },
  },

  Service: {
    serviceClass: (s) => (s.serviceClass === 'CS' || s.serviceClass === 'GW' || s.serviceClass === 'ICMP' ? s.serviceClass : null),
    serviceClassCode: (s) => s.serviceClass,
    statusName: (s) => statusName(s.status),
    network: (s, _a, { loaders }) => maybe(s.networkId, (id) => loaders.network.byId('network', id)),
    endpoint: (s, _a, { loaders }) => maybe(s.endpointId, (id) => loaders.network.byId('endpoint', id, s.networkId ?? undefined)),
    gatewayCluster: (s, _a, { loaders }) =>
      maybe(s.gatewayClusterId, (id) => loaders.network.byId('gatewayCluster', id, s.networkId ?? undefined)),
    appWans: (s, args, { loaders }) => serviceMembers.appWans(loaders.network, relationParent(s), args),
  },

  AppWan: {
    statusName: (a) => statusName(a.status),
    network: (a, _x, { loaders }) => maybe(a.networkId, (id) => loaders.network.byId('network', id)),
    endpoints: (a, args, { loaders }) => appWanMembers.endpoints(loaders.network, relationParent(a), args),
    services: (a, args, { loaders }) => appWanMembers.services(loaders.network, relationParent(a), args),
    endpointGroups: (a, args, { loaders }) => appWanMembers.endpointGroups(loaders.network, relationParent(a), args),
    blueprint: (a, _x, { loaders }) => {
      const { networkId, id } = relationParent(a);
      return loaders.network.text(`/networks/${enc(networkId)}/appWans/${enc(id)}/blueprint`);
    },
  },

  EndpointGroup: opaqueFields(),
  CertificateAuthority: opaqueFields(),
  ServiceGroup: opaqueFields(),
  TransferNodePool: opaqueFields(),
  NetworkControllerHost: opaqueFields(),
  GatewayCluster: {
    ...opaqueFields(),
    endpoints: (g, args, { loaders }) => arrayConnection(args, () => loaders.network.members(relations.gatewayClusterEndpoints, relationParent(g))),
    services: (g, args, { loaders }) => arrayConnection(args, () => loaders.network.members(relations.gatewayClusterServices, relationParent(g))),
  },
  Host: { statusName: (h) => statusName(h.status) },

  CloudSubscription: {
    virtualWanSites: (c, args, { loaders }) =>
      listConnection(args, (w) => loaders.network.sites(c.id, w)),
  },
  VirtualWanSite: {
    dataCenter: (v, _a, { loaders }) => maybe(v.dataCenterId, (id) => loaders.network.byId('dataCenter', id)),
  },
};
