/**
 * Reads a plan will make, started before the fields that make them are asked (selection
 * look-ahead, driven by `resolvers/network/prefetch.ts`; `choosePrefetch` in prefetch-plan.ts says
 * when). They go through the same cached calls those fields then make, so no field calls twice
 * and no answer changes. Nothing starts with batching off; a failure is not remembered and is
 * left to the field that reads the list.
 */
import type { SortSpec } from './client';
import type { ListReads } from './lists';
import { ignore, type Memberships } from './memberships';
import { choosePrefetch } from './prefetch-plan';
import { ALL_NETWORKS } from './shared-list-defs';

export interface NetworkPrefetch {
  /** `NetworkGroup.networks` in `sort`: the shared `/networks` list, while a window of `groups` groups loads. */
  groupNetworks(sort: readonly SortSpec[], groups: number): void;
  /**
   * `Endpoint.appWans` below `Network.endpoints`: the network's AppWAN list and endpoint-group
   * list (the membership index's first reads), while a window of `endpoints` endpoints loads.
   */
  endpointAppWans(networkId: string, endpoints: number): void;
  /**
   * `AppWan.services` below that: each AppWAN's service list, started by the network's endpoint
   * index (as soon as the plan chooses it and its AppWAN list is in) instead of once the
   * executor has the AppWANs of each endpoint.
   */
  appWanServices(networkId: string, endpoints: number): void;
}

export function createPrefetch(batching: boolean, lists: ListReads, memberships: Memberships): NetworkPrefetch {
  return {
    groupNetworks(sort, groups) {
      if (choosePrefetch({ batching, parentWindow: groups })) lists.shared().networks.prefetch(ALL_NETWORKS, sort);
    },
    endpointAppWans(networkId, endpoints) {
      if (!choosePrefetch({ batching, parentWindow: endpoints })) return;
      // The index's own first reads (memberships.ts), cached under the same keys.
      lists.all('appWan', networkId).catch(ignore);
      lists.all('endpointGroup', networkId).catch(ignore);
    },
    appWanServices(networkId, endpoints) {
      if (choosePrefetch({ batching, parentWindow: endpoints })) memberships.servicesWithIndex(networkId);
    },
  };
}
