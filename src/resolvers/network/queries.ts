/** Root query fields of rest/v1 and identity/v1. Thin: arguments → loaders. */
import type { QueryResolvers } from '../../generated/graphql';
import { nodesSelectionOf, selectionOf } from '../lookahead';
import { listConnection, SORTABLE, sortSpecs } from './lists';
import { prefetchBelow, prefetchingNetworks } from './prefetch';

export const networkQueries: QueryResolvers = {
  networkGroups: (_root, args, { loaders }, info) =>
    listConnection(args, (w) => {
      prefetchBelow('groups', loaders.network, nodesSelectionOf(info), { window: w.count });
      return loaders.network.listAt('networkGroup', { path: '/network-groups/' }, w);
    }),
  networkGroup: (_root, { id }, { loaders }) => loaders.network.byId('networkGroup', id),
  networkGroupByBillingAccount: (_root, { billingAccountId }, { loaders }) => loaders.network.networkGroupByBillingAccount(billingAccountId),
  myOrganization: (_root, _args, { loaders }) => loaders.network.myOrganization(),

  networks: (_root, args, { loaders }, info) => {
    const sort = sortSpecs(args.sort, SORTABLE.network);
    return listConnection(args, (w) => prefetchingNetworks(loaders.network, info, loaders.network.list('network', w, { sort })));
  },
  network: (_root, { id }, { loaders }, info) => {
    prefetchBelow('networks', loaders.network, selectionOf(info), { ids: [id] });
    return loaders.network.byId('network', id);
  },
  endpoint: (_root, { networkId, id }, { loaders }) => loaders.network.byId('endpoint', id, networkId),
  service: (_root, { networkId, id }, { loaders }) => loaders.network.byId('service', id, networkId),
  appWan: (_root, { networkId, id }, { loaders }) => loaders.network.byId('appWan', id, networkId),

  dataCenters: (_root, { locationCode, ...args }, { loaders }) =>
    listConnection(args, (w) => loaders.network.list('dataCenter', w, locationCode == null ? {} : { query: { locationCode } })),
  dataCenter: (_root, { id }, { loaders }) => loaders.network.byId('dataCenter', id),
  geoRegions: (_root, args, { loaders }) => listConnection(args, (w) => loaders.network.list('geoRegion', w)),
  geoRegion: (_root, { id }, { loaders }) => loaders.network.byId('geoRegion', id),
  hosts: (_root, args, { loaders }) => listConnection(args, (w) => loaders.network.list('host', w)),
  host: (_root, { id }, { loaders }) => loaders.network.byId('host', id),
  networkConfigMetadatas: (_root, args, { loaders }) => listConnection(args, (w) => loaders.network.list('networkConfigMetadata', w)),
  networkConfigMetadata: (_root, { id }, { loaders }) => loaders.network.byId('networkConfigMetadata', id),
  cloudSubscriptions: (_root, args, { loaders }) => listConnection(args, (w) => loaders.network.list('cloudSubscription', w)),
  cloudSubscription: (_root, { id }, { loaders }) => loaders.network.byId('cloudSubscription', id),
};
