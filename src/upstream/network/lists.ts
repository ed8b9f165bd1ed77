/**
 * Reads of lists, all cached in the request cache by their full key: windows of lists
 * (`list`/`listAt`/`all`; paging.ts picks the upstream pages), member lists of one parent
 * (`members`), the group-wide shared lists behind `NetworkGroup.networks` and `Network.endpoints`
 * (shared-lists.ts), and the other reads of one path (sites, processes, text). Every list primes
 * the by-id loaders.
 */
import type { PagedResult, PageWindow } from '../paging';
import type { ByIdReads } from './by-id';
import type { ListTarget, RelationParent, RestV1Client, SortSpec } from './client';
import type { NetworkLoaders } from './loaders';
import { mergeProcesses } from './processes';
import { parseVirtualWanSite, type EndpointRecord, type NetworkGroupRecord, type NetworkRecord } from './records';
import { recordKey, type RequestCache } from './request-cache';
import { resources, type RecordFor, type RelationDef, type ResourceKind } from './resources';
import { segment } from '../path-segment';
import { groupNetworksDef, networkEndpointsDef } from './shared-list-defs';
import { createSharedListLoader, type ListPlanRecord, type SharedListLoader } from './shared-lists';

export interface ListOptions {
  networkId?: string;
  sort?: readonly SortSpec[];
  query?: Record<string, string>;
}

export const WHOLE: PageWindow = { offset: 0, count: Infinity };

export const listAtKey = (kind: ResourceKind, target: ListTarget, window: PageWindow): string => `listAt:${kind}:${JSON.stringify([target, window.offset, window.count])}`;
export const membersKey = (rel: RelationDef<ResourceKind>, parent: RelationParent): string => `members:${rel.parent}.${rel.rel}:${recordKey(parent.id, parent.networkId)}`;
/** Where the membership index caches the ids it read of a member list (memberships.ts). */
export const idsKey = (listKey: string): string => `ids:${listKey}`;

export interface SharedLists {
  networks: SharedListLoader<NetworkGroupRecord, NetworkRecord>;
  endpoints: SharedListLoader<NetworkRecord, EndpointRecord>;
}

/** The loaders' list reads (their types and meaning are NetworkLoaders'), and the shared-list loaders (made on first use). */
export type ListReads = Pick<NetworkLoaders, 'list' | 'listPages' | 'listAt' | 'all' | 'members' | 'sites' | 'networkConfigMetadataOf' | 'networkGroupByBillingAccount' | 'text' | 'processes' | 'workflow'> & {
  shared(): SharedLists;
};

export function createListReads(rest: RestV1Client, cache: RequestCache, byId: () => ByIdReads, listPlans: ListPlanRecord[]): ListReads {
  function list<K extends ResourceKind>(kind: K, window: PageWindow, opts: ListOptions = {}): Promise<PagedResult<RecordFor<K>>> {
    const key = `list:${kind}:${JSON.stringify([opts.networkId ?? null, window.offset, window.count, opts.sort ?? [], opts.query ?? {}])}`;
    return cache.memo(key, async () => {
      const result = await rest.listWindow(kind, window, opts);
      byId().prime(kind, result.items, opts.networkId);
      return result;
    });
  }

  /** Not cached (each page is consumed once, by the streamed field); every page primes by id as `list` does. */
  async function* listPages<K extends ResourceKind>(kind: K, window: PageWindow, opts: ListOptions = {}): AsyncGenerator<PagedResult<RecordFor<K>>, void, undefined> {
    for await (const page of rest.listWindowPages(kind, window, opts)) {
      byId().prime(kind, page.items, opts.networkId);
      yield page;
    }
  }

  function listAt<K extends ResourceKind>(kind: K, target: ListTarget, window: PageWindow, networkId?: string): Promise<PagedResult<RecordFor<K>>> {
    return cache.memo(listAtKey(kind, target, window), async () => {
      const row = resources[kind];
      const result = await rest.listWindowAt(target, row.embedded, row.parse, window);
      byId().prime(kind, result.items, networkId);
      return result;
    });
  }

  async function all<K extends ResourceKind>(kind: K, networkId?: string): Promise<RecordFor<K>[]> {
    const opts: ListOptions = networkId === undefined ? {} : { networkId };
    return (await list(kind, WHOLE, opts)).items;
  }

  function members<C extends ResourceKind>(rel: RelationDef<C>, parent: RelationParent): Promise<RecordFor<C>[]> {
    const key = membersKey(rel, parent);
    return cache.memo(key, () => readMembers(rel, parent, key));
  }

  async function readMembers<C extends ResourceKind>(rel: RelationDef<C>, parent: RelationParent, key: string): Promise<RecordFor<C>[]> {
    const known = await fromIds(rel.child, key, parent.networkId);
    if (known !== null) return known;
    const items = await rest.relationAll(rel, parent);
    byId().prime(rel.child, items, parent.networkId);
    return items;
  }

  /**
   * A list whose ids the membership index has read (cached under `idsKey`), answered from the
   * by-id cache when every one of its records is there (the network's own list primed them): a
   * query asking both `Endpoint.appWans` and `AppWan.endpoints` reads each member list once. Null
   * when no ids are cached or a record is missing: the caller then reads the list.
   */
  async function fromIds<C extends ResourceKind>(kind: C, key: string, networkId: string | undefined): Promise<RecordFor<C>[] | null> {
    const ids = await cache.cached<readonly string[]>(idsKey(key))?.catch(() => null);
    if (ids === undefined || ids === null) return null;
    const scoped = resources[kind].scope === 'network';
    const keys = ids.map((id) => recordKey(id, scoped ? networkId : undefined));
    const known = cache.primed.get(kind);
    if (known === undefined || !keys.every((k) => known.has(k))) return null;
    const loader = byId().loader(kind);
    return Promise.all(keys.map((k) => loader.load(k)));
  }

  const shared = cache.lazy(() => {
    const networks = createSharedListLoader(groupNetworksDef({ list, listAt }), cache.batching, listPlans);
    const endpoints = createSharedListLoader(networkEndpointsDef({ list, listAt }), cache.batching, listPlans);
    const clearAll = (): void => {
      networks.clearAll();
      endpoints.clearAll();
    };
    return { networks, endpoints, clearAll };
  });

  return {
    list,
    listPages,
    listAt,
    all,
    members,
    shared,
    sites: (subscriptionId, window) =>
      cache.memo(`sites:${JSON.stringify([subscriptionId, window.offset, window.count])}`, () =>
        rest.listWindowAt({ path: `/azureSubscriptions/${segment(subscriptionId)}/virtualWanSites` }, 'virtualWanSites', parseVirtualWanSite, window),
      ),
    networkConfigMetadataOf: (networkId) => cache.memo(`ncm-of:${networkId}`, () => rest.networkConfigMetadataOf(networkId)),
    networkGroupByBillingAccount: (id) => cache.memo(`billing:${id}`, () => rest.networkGroupByBillingAccount(id)),
    text: (path) => cache.memo(`text:${path}`, () => rest.text(path)),
    processes: (path) => cache.memo(`processes:${path}`, () => rest.processes(path)),
    workflow: async (businessKey) =>
      mergeProcesses(businessKey, await cache.memo(`processes:/workflow-status/${businessKey}`, () => rest.processes(`/workflow-status/${segment(businessKey)}`))),
  };
}
