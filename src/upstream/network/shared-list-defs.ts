/**
 * The rows of the shared-list table (shared-lists.ts): which shared list can answer which
 * parent's list, and how a partition is checked (list-plan.ts gives the reasons).
 */
import type { PageWindow } from '../paging';
import type { ListTarget } from './client';
import { hrefTarget } from './hal';
import { endpointsInOrder, totalOrder } from './list-order';
import type { NetworkLoaders } from './loaders';
import type { EndpointRecord, NetworkGroupRecord, NetworkRecord } from './records';
import type { SharedListDef } from './shared-lists';
import { segment } from '../path-segment';

/** The list readers of the loaders (cached per request) that the rows read through. */
export type SharedListReaders = Pick<NetworkLoaders, 'list' | 'listAt'>;

const WHOLE: PageWindow = { offset: 0, count: Infinity };

/** The one shared list of `NetworkGroup.networks`: every group's networks in `/networks`. */
export const ALL_NETWORKS = 'all';

/** The group's own networks list: its `networks` link, or the networks list filtered by its id. */
function groupNetworksTarget(group: NetworkGroupRecord): ListTarget {
  const href = group.links['networks'];
  return href === undefined ? { path: '/networks', query: { organizationId: group.id } } : hrefTarget(href);
}

/** True when the target is the `/networks` collection filtered by this group's id and nothing else. */
function isFilteredNetworks(target: ListTarget, groupId: string): boolean {
  const keys = Object.keys(target.query ?? {});
  return /(^|\/rest\/v1)\/networks\/?$/.test(target.path) && keys.length === 1 && target.query?.['organizationId'] === groupId;
}

export function groupNetworksDef(read: SharedListReaders): SharedListDef<NetworkGroupRecord, NetworkRecord> {
  return {
    name: 'networks',
    parentId: (g) => g.id,
    sharedOf: (g) => (isFilteredNetworks(groupNetworksTarget(g), g.id) ? ALL_NETWORKS : null),
    ownList: (g, sort, window) => read.listAt('network', { ...groupNetworksTarget(g), sort }, window),
    sharedList: async (_all, sort) => (await read.list('network', WHOLE, { sort })).items,
    ownerOf: (n) => n.organizationId,
    // The same collection, filtered or not: a filter keeps the collection's order.
    inOrder: () => true,
    absentAsksOwn: true,
  };
}

export function networkEndpointsDef(read: SharedListReaders): SharedListDef<NetworkRecord, EndpointRecord> {
  return {
    name: 'endpoints',
    parentId: (n) => n.id,
    sharedOf: (n) => n.organizationId,
    ownList: (n, sort, window) => read.list('endpoint', window, { networkId: n.id, sort: totalOrder(sort) }),
    sharedList: async (groupId, sort) =>
      (await read.listAt('endpoint', { path: `/networkgroups/${segment(groupId)}/endpoints`, sort: totalOrder(sort) }, WHOLE)).items,
    ownerOf: (e) => e.networkId,
    inOrder: (items, sort) => endpointsInOrder(items, totalOrder(sort)),
    // The group list holds every endpoint of the group's networks: a network absent from it has none.
    absentAsksOwn: false,
  };
}
