/** Root query fields of rest/v1 and identity/v1. Thin: arguments → loaders. */
import type { QueryResolvers } from '../../generated/graphql';
import type { RelationParent } from '../../upstream/network/client';
import type { NetworkLoaders } from '../../upstream/network/loaders';
import type { GatewayContext } from '../../context';
import { nodesSelectionOf, prefetchChildren, selectionOf, type Selection } from '../lookahead';
import { appWanMembers, endpointMembers, listConnection, networkLists, serviceMembers, SORTABLE, sortSpecs, startersFor } from './lists';

/** A member-list parent known only from the arguments: its lists are read at their built paths. */
const builtParent = (networkId: string, id: string): RelationParent => ({ id, networkId, links: {} });

/** The `network` link of a network-scoped record, whose network id is an argument (`Endpoint.network` and the like). */
const networkLink = { network: (loaders: NetworkLoaders, parent: RelationParent) => loaders.byId('network', parent.networkId) };
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
  // By ids from the arguments: the selected lists that need only those ids start alongside
  // (lookahead.ts), and so do the reads further down that the prefetch plan brings forward (prefetch.ts).
  network: (_root, { id }, ctx, info) => readById.network(ctx, [id], selectionOf(info)),
  endpoint: (_root, { networkId, id }, ctx, info) => readById.endpoint(ctx, [networkId, id], selectionOf(info)),
  service: (_root, { networkId, id }, ctx, info) => readById.service(ctx, [networkId, id], selectionOf(info)),
  appWan: (_root, { networkId, id }, ctx, info) => readById.appWan(ctx, [networkId, id], selectionOf(info)),

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

/**
 * The root reads by ids of kinds whose children the look-ahead starts early, by their keys (`[id]`
 * or `[networkId, id]`) and the selection below: the typed lookups above and `node(nodeId:)`
 * (resolvers/node) read through these, so both take the same calls in the same round trips.
 */
export const readById = {
  network: ({ loaders, options }: GatewayContext, [id]: readonly string[], selection: Selection) => {
    const networkId = id ?? '';
    prefetchChildren(options.batching, selection, startersFor(loaders.network, networkId, networkLists));
    prefetchBelow('networks', loaders.network, selection, { ids: [networkId] });
    return loaders.network.byId('network', networkId);
  },
  endpoint: ({ loaders, options }: GatewayContext, [networkId = '', id = '']: readonly string[], selection: Selection) => {
    prefetchChildren(options.batching, selection, startersFor(loaders.network, builtParent(networkId, id), endpointMembers, networkLink));
    return loaders.network.byId('endpoint', id, networkId);
  },
  service: ({ loaders, options }: GatewayContext, [networkId = '', id = '']: readonly string[], selection: Selection) => {
    prefetchChildren(options.batching, selection, startersFor(loaders.network, builtParent(networkId, id), serviceMembers, networkLink));
    return loaders.network.byId('service', id, networkId);
  },
  appWan: ({ loaders, options }: GatewayContext, [networkId = '', id = '']: readonly string[], selection: Selection) => {
    prefetchChildren(options.batching, selection, startersFor(loaders.network, builtParent(networkId, id), appWanMembers, networkLink));
    return loaders.network.byId('appWan', id, networkId);
  },
};
