/**
 * Per-request loaders over rest/v1 and identity/v1 (created by the context, never shared between
 * requests or callers). Resolvers use these; these use the clients; the clients use the HTTP layer.
 *
 * - `byId`: one DataLoader per resource kind, keyed `networkId/id` (or `id` for root kinds);
 *   every list and member list primes it (not the endpoint lists the membership index reads
 *   ids from), so a record seen once is never fetched again.
 * - `list`/`listAt`/`all`: windows of lists (paging.ts picks the upstream pages), cached by
 *   their full key (kind, parent, window, sort, filters).
 * - `members`: one member list of one parent (AppWAN endpoints, …), cached.
 * - `appWansOf`: `Endpoint.appWans`/`Service.appWans`, batched per network and answered by the
 *   plan `chooseRelationPlan` (plan.ts) picks; a membership index that turns out inexact (a held
 *   endpoint group without a members link) hands its parents to the per-parent plan.
 * - `networksOf`/`endpointsOf`: `NetworkGroup.networks` and `Network.endpoints`, batched and
 *   answered from one shared list (all networks; a group's endpoints) partitioned by owner when
 *   `chooseSharedListPlan` (list-plan.ts) says so, per parent otherwise (shared-lists.ts).
 *
 * - `prefetch`: selection look-ahead (prefetch-plan.ts): reads those plans will make, started
 *   while their parents are still loading, through the same cached calls.
 *
 * With `options.batching === false` nothing is batched, cached or prefetched and every parent
 * takes its own call: the naive plan the benchmark compares against.
 */
import { appendTo } from '../multimap';
import DataLoader from 'dataloader';
import type { HttpClient } from '../http-types';
import type { LoaderOptions } from '../loader-options';
import type { PagedResult, PageWindow } from '../paging';
import { IdentityV1Client } from '../identity/client';
import type { OrganizationRecord } from '../identity/records';
import { relationTarget, RestV1Client, type ListTarget, type RelationParent, type SortSpec } from './client';
import { hrefTarget } from './hal';
import { Writer } from '../writes';
import { createNetworkChanges, writes, type NetworkChanges, type WritableKind } from './changes';
import { chooseGroupMemberPlan, chooseRelationPlan, type RelationPlan } from './plan';
import { choosePrefetch } from './prefetch-plan';
import { mergeProcesses, type ProcessRecord } from './processes';
import {
  parseEndpointId,
  parseVirtualWanSite,
  type AppWanRecord,
  type EndpointGroupRecord,
  type EndpointRecord,
  type NetworkConfigMetadataRecord,
  type NetworkGroupRecord,
  type NetworkRecord,
  type VirtualWanSiteRecord,
} from './records';
import { ALL_NETWORKS, groupNetworksDef, networkEndpointsDef } from './shared-list-defs';
import { createSharedListLoader, type ListPlanRecord, type SharedListLoader } from './shared-lists';
import { relations, resources, type RecordFor, type RelationDef, type ResourceKind } from './resources';
import { segment } from '../path-segment';

export interface ListOptions {
  networkId?: string;
  sort?: readonly SortSpec[];
  query?: Record<string, string>;
}

/** Which side of the AppWAN membership a parent is on. */
export type MemberSide = 'endpoint' | 'service';

/** What the plan rule decided in this request (for logs, tests and the benchmark). */
export interface PlanRecord {
  side: MemberSide;
  networkId: string;
  parents: number;
  plan: RelationPlan;
  /** The index was loaded but is not exact (a held endpoint group without a members link): answered per parent. */
  indexInexact?: true;
}

/** What `membershipIndex` builds: memberId → AppWANs, and whether that is the upstream's whole answer. */
interface MembershipIndex {
  exact: boolean;
  byMember: Map<string, AppWanRecord[]>;
}

/**
 * Reads a plan will make, started before the fields that make them are asked (selection
 * look-ahead, driven by `resolvers/network/prefetch.ts`; `choosePrefetch` in prefetch-plan.ts says
 * when). They go through the same cached calls those fields then make, so no field calls twice
 * and no answer changes. Nothing starts with batching off; a failure is not remembered and is
 * left to the field that reads the list.
 */
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

export interface NetworkLoaders {
  readonly rest: RestV1Client;
  /** rest/v1 changes (made on first use), sent through the one sender (../writes.ts); each makes these loaders forget what it touched. */
  changes(): NetworkChanges;
  byId<K extends ResourceKind>(kind: K, id: string, networkId?: string): Promise<RecordFor<K>>;
  list<K extends ResourceKind>(kind: K, window: PageWindow, opts?: ListOptions): Promise<PagedResult<RecordFor<K>>>;
  /** A window of a list at a followed HAL href (or any built path), items of `kind`. */
  listAt<K extends ResourceKind>(kind: K, target: ListTarget, window: PageWindow, networkId?: string): Promise<PagedResult<RecordFor<K>>>;
  /** The whole list of a kind (e.g. all AppWANs of a network). */
  all<K extends ResourceKind>(kind: K, networkId?: string): Promise<RecordFor<K>[]>;
  members<C extends ResourceKind>(rel: RelationDef<C>, parent: RelationParent): Promise<RecordFor<C>[]>;
  appWansOf(side: MemberSide, parent: RelationParent): Promise<AppWanRecord[]>;
  /** Virtual WAN sites of one cloud subscription. */
  sites(subscriptionId: string, window: PageWindow): Promise<PagedResult<VirtualWanSiteRecord>>;
  networkConfigMetadataOf(networkId: string): Promise<NetworkConfigMetadataRecord>;
  networkGroupByBillingAccount(billingAccountId: string): Promise<NetworkGroupRecord>;
  text(path: string): Promise<string>;
  processes(path: string): Promise<ProcessRecord[]>;
  /**
   * The workflow of a business key (`/workflow-status/{key}`, entries merged); null when the
   * upstream lists none. For mutation payloads and the workflow subscription too.
   */
  workflow(businessKey: string): Promise<ProcessRecord | null>;
  myOrganization(): Promise<OrganizationRecord>;
  /** `NetworkGroup.networks`: a window of a group's networks; list-plan.ts picks one list for all groups or one per group. */
  networksOf(group: NetworkGroupRecord, sort: readonly SortSpec[], window: PageWindow): Promise<PagedResult<NetworkRecord>>;
  /**
   * `Network.endpoints`: a window of a network's endpoints in `totalOrder(sort)` (list-order.ts);
   * list-plan.ts picks the group-wide list or one list per network.
   */
  endpointsOf(network: NetworkRecord, sort: readonly SortSpec[], window: PageWindow): Promise<PagedResult<EndpointRecord>>;
  readonly prefetch: NetworkPrefetch;
  /** Decisions of the plan rule so far in this request. */
  readonly plans: readonly PlanRecord[];
  /** Decisions of the shared-list rule (list-plan.ts) so far in this request. */
  readonly listPlans: readonly ListPlanRecord[];
}

export function recordKey(id: string, networkId?: string | null): string {
  return networkId ? `${networkId}/${id}` : id;
}

const WHOLE: PageWindow = { offset: 0, count: Infinity };

const listAtKey = (kind: ResourceKind, target: ListTarget, window: PageWindow): string => `listAt:${kind}:${JSON.stringify([target, window.offset, window.count])}`;
const membersKey = (rel: RelationDef<ResourceKind>, parent: RelationParent): string => `members:${rel.parent}.${rel.rel}:${recordKey(parent.id, parent.networkId)}`;

function splitKey(key: string): { id: string; networkId?: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { id: key } : { networkId: key.slice(0, slash), id: key.slice(slash + 1) };
}

type ByIdTable = { [K in ResourceKind]: DataLoader<string, RecordFor<K>> };

export function createNetworkLoaders(http: HttpClient, options: LoaderOptions): NetworkLoaders {
  const rest = new RestV1Client(http);
  const identity = new IdentityV1Client(http);
  const batching = options.batching;
  const dlOptions = batching ? {} : { batch: false, cache: false };
  const cache = new Map<string, Promise<unknown>>();
  const plans: PlanRecord[] = [];
  const listPlans: ListPlanRecord[] = [];

  /** What `memo` cached under `key` (nothing with batching off). */
  function cached<T>(key: string): Promise<T> | undefined {
    return batching ? (cache.get(key) as Promise<T> | undefined) : undefined; // only `memo` writes this map, with the same key → same T
  }

  /** Cached per request when batching; a fresh call every time otherwise. */
  function memo<T>(key: string, run: () => Promise<T>): Promise<T> {
    if (!batching) return run();
    const hit = cached<T>(key);
    if (hit !== undefined) return hit;
    const started = run();
    cache.set(key, started);
    started.catch(() => cache.delete(key)); // a failure is not remembered: a later field may retry
    return started;
  }

  function makeByIdLoader<K extends ResourceKind>(kind: K): DataLoader<string, RecordFor<K>> {
    const one = (key: string): Promise<RecordFor<K> | Error> => {
      const { id, networkId } = splitKey(key);
      return rest.get(kind, id, networkId).catch(toError);
    };
    return new DataLoader<string, RecordFor<K>>(async (keys) => {
      // A catalog asked for several ids: one list call (it primes this loader), ids missing from it fetched alone.
      if (batching && resources[kind].catalog === true && keys.length >= 2) {
        const listed = await all(kind).catch(() => null);
        if (listed !== null) {
          const byId = new Map(listed.map((r) => [r.id, r] as const));
          return Promise.all(keys.map((key) => byId.get(key) ?? one(key)));
        }
      }
      // No batch endpoint exists upstream: the batch fans out, DataLoader still dedupes and caches.
      return Promise.all(keys.map(one));
    }, dlOptions);
  }
  // Made on first use: a request reads a few kinds of the sixteen. The mapped type keeps each kind's record type.
  const byIdTable: Partial<ByIdTable> = {};
  const byIdLoader = <K extends ResourceKind>(kind: K): ByIdTable[K] => {
    const made: Partial<ByIdTable>[K] = byIdTable[kind];
    if (made !== undefined) return made;
    // makeByIdLoader(kind) is exactly ByIdTable[K]; TypeScript cannot relate a generic key's write to the mapped type.
    const loader = makeByIdLoader(kind) as ByIdTable[K];
    byIdTable[kind] = loader;
    return loader;
  };

  /** Keys of every record primed in this request, by kind: what a by-id load answers without a call. */
  const primed = new Map<ResourceKind, Set<string>>();
  function prime<K extends ResourceKind>(kind: K, records: readonly RecordFor<K>[], networkId?: string): void {
    if (!batching || resources[kind].item === null) return;
    const loader = byIdLoader(kind);
    const scoped = resources[kind].scope === 'network';
    let keys = primed.get(kind);
    if (keys === undefined) primed.set(kind, (keys = new Set()));
    for (const record of records) {
      // Lists across networks (a group's endpoints) carry each record's own network id.
      const own = 'networkId' in record && typeof record.networkId === 'string' ? record.networkId : undefined;
      const key = recordKey(record.id, scoped ? (own ?? networkId) : undefined);
      loader.prime(key, record);
      keys.add(key);
    }
  }

  function list<K extends ResourceKind>(kind: K, window: PageWindow, opts: ListOptions = {}): Promise<PagedResult<RecordFor<K>>> {
    const key = `list:${kind}:${JSON.stringify([opts.networkId ?? null, window.offset, window.count, opts.sort ?? [], opts.query ?? {}])}`;
    return memo(key, async () => {
      const result = await rest.listWindow(kind, window, opts);
      prime(kind, result.items, opts.networkId);
      return result;
    });
  }

  function listAt<K extends ResourceKind>(kind: K, target: ListTarget, window: PageWindow, networkId?: string): Promise<PagedResult<RecordFor<K>>> {
    return memo(listAtKey(kind, target, window), async () => {
      const row = resources[kind];
      const result = await rest.listWindowAt(target, row.embedded, row.parse, window);
      prime(kind, result.items, networkId);
      return result;
    });
  }

  async function all<K extends ResourceKind>(kind: K, networkId?: string): Promise<RecordFor<K>[]> {
    const opts: ListOptions = networkId === undefined ? {} : { networkId };
    return (await list(kind, { offset: 0, count: Infinity }, opts)).items;
  }

  function members<C extends ResourceKind>(rel: RelationDef<C>, parent: RelationParent): Promise<RecordFor<C>[]> {
    const key = membersKey(rel, parent);
    return memo(key, () => readMembers(rel, parent, key));
  }

  async function readMembers<C extends ResourceKind>(rel: RelationDef<C>, parent: RelationParent, key: string): Promise<RecordFor<C>[]> {
    const known = await fromIds(rel.child, key, parent.networkId);
    if (known !== null) return known;
    const items = await rest.relationAll(rel, parent);
    prime(rel.child, items, parent.networkId);
    return items;
  }

  /**
   * A list whose ids the membership index has read (`endpointIds`, cached as `ids:{key}`), answered
   * from the by-id cache when every one of its records is there (the network's own list primed
   * them): a query asking both `Endpoint.appWans` and `AppWan.endpoints` reads each member list
   * once. Null when no ids are cached or a record is missing: the caller then reads the list.
   */
  async function fromIds<C extends ResourceKind>(kind: C, key: string, networkId: string | undefined): Promise<RecordFor<C>[] | null> {
    const ids = await cached<readonly string[]>(`ids:${key}`)?.catch(() => null);
    if (ids === undefined || ids === null) return null;
    const scoped = resources[kind].scope === 'network';
    const keys = ids.map((id) => recordKey(id, scoped ? networkId : undefined));
    const known = primed.get(kind);
    if (known === undefined || !keys.every((k) => known.has(k))) return null;
    const loader = byIdLoader(kind);
    return Promise.all(keys.map((k) => loader.load(k)));
  }

  /**
   * The ids of an endpoint list the membership index inverts (an AppWAN's endpoints, a group's
   * members). Only the ids are read: no record is built, primed or kept, so the body dies young
   * (these lists repeat endpoints the network's own list holds: a third of a large graph's
   * bytes). Each item is still checked as `parseEndpoint` checks it. The full list, when a field
   * has already asked it (`fullKey`), answers instead of a call; a field asking it later is answered
   * from these ids when the by-id cache knows every record (`fromIds`).
   */
  function endpointIds(target: ListTarget, fullKey: string, full: () => Promise<readonly EndpointRecord[]> | undefined): Promise<readonly string[]> {
    const records = full();
    if (records !== undefined) return records.then((items) => items.map((e) => e.id));
    return memo(`ids:${fullKey}`, async () => (await rest.listWindowAt(target, resources.endpoint.embedded, parseEndpointId, WHOLE)).items);
  }
  const appWanEndpointIds = (parent: RelationParent): Promise<readonly string[]> => {
    const key = membersKey(relations.appWanEndpoints, parent);
    return endpointIds(relationTarget(relations.appWanEndpoints, parent), key, () => cached<EndpointRecord[]>(key));
  };
  const groupEndpointIds = (href: string): Promise<readonly string[]> => {
    const target = hrefTarget(href);
    const key = listAtKey('endpoint', target, WHOLE);
    return endpointIds(target, key, () => cached<PagedResult<EndpointRecord>>(key)?.then((r) => r.items));
  };

  /** Exactness of the indexes loaded so far in this request (absent while loading). */
  const indexExact = new Map<string, boolean>();
  /** Networks whose AppWANs' service lists start with their endpoint index (`prefetch.appWanServices`). */
  const servicesAhead = new Set<string>();

  /**
   * memberId → AppWANs holding it, for one network and one side; built from cached calls (plan.ts
   * says what makes it exact). The endpoint side adds the members of the endpoint groups each
   * AppWAN holds, read at the group's `_links.endpoints`; a held group without that link makes
   * the index inexact, and the loader answers per parent instead.
   */
  function membershipIndex(side: MemberSide, networkId: string): Promise<MembershipIndex> {
    return memo(indexKey(side, networkId), async () => {
      // AppWANs hold services directly: only the endpoint side has groups to expand.
      const [appWans, networkGroups] = await Promise.all([
        all('appWan', networkId),
        side === 'endpoint' ? all('endpointGroup', networkId) : Promise.resolve<EndpointGroupRecord[]>([]),
      ]);
      const groupPlan = side === 'endpoint' ? chooseGroupMemberPlan({ networkGroups: networkGroups.length, appWans: appWans.length }) : 'no-groups';
      const parentOf = (a: AppWanRecord): RelationParent => ({ id: a.id, networkId, links: a.links });
      // `AppWan.services` is asked below: the same cached lists, a round trip before the executor asks them.
      if (side === 'endpoint' && servicesAhead.has(networkId)) for (const a of appWans) members(relations.appWanServices, parentOf(a)).catch(ignore);
      const prefetch = groupPlan === 'prefetch-all' ? networkGroups.flatMap((g) => linkedGroup(g.id, g.links['endpoints'])) : [];
      const [memberLists, groupLists, prefetched] = await Promise.all([
        Promise.all(
          appWans.map((a) =>
            side === 'endpoint' ? appWanEndpointIds(parentOf(a)) : members(relations.appWanServices, parentOf(a)).then((services) => services.map((s) => s.id)),
          ),
        ),
        groupPlan === 'no-groups'
          ? Promise.resolve(appWans.map((): EndpointGroupRecord[] => []))
          : Promise.all(appWans.map((a) => members(relations.appWanEndpointGroups, parentOf(a)))),
        Promise.all(prefetch.map(async ({ id, href }) => [id, await groupEndpointIds(href)] as const)),
      ]);

      // Each distinct group held, once, at its members link; none of them fetched if one has no link.
      const listed = new Map(networkGroups.map((g) => [g.id, g.links['endpoints'] ?? null] as const));
      const hrefs = new Map<string, string | null>();
      for (const group of groupLists.flat()) if (!hrefs.has(group.id)) hrefs.set(group.id, group.links['endpoints'] ?? listed.get(group.id) ?? null);
      if ([...hrefs.values()].some((href) => href === null)) {
        indexExact.set(indexKey(side, networkId), false);
        return { exact: false, byMember: new Map() };
      }
      const groupMembers = new Map<string, readonly string[]>(prefetched);
      await Promise.all(
        [...hrefs].map(async ([groupId, href]) => {
          if (href === null || groupMembers.has(groupId)) return;
          groupMembers.set(groupId, await groupEndpointIds(href));
        }),
      );

      // In AppWAN list order, each AppWAN once per member however many ways it reaches it.
      const byMember = new Map<string, AppWanRecord[]>();
      appWans.forEach((appWan, i) => {
        const reach = new Set(memberLists[i]);
        for (const group of groupLists[i] ?? []) for (const id of groupMembers.get(group.id) ?? []) reach.add(id);
        for (const id of reach) appendTo(byMember, id, appWan);
      });
      indexExact.set(indexKey(side, networkId), true);
      return { exact: true, byMember };
    });
  }
  const indexKey = (side: MemberSide, networkId: string): string => `index:${side}:${networkId}`;

  const parentsByKey = new Map<string, RelationParent>();
  function appWansLoader(side: MemberSide): DataLoader<string, AppWanRecord[]> {
    const rel = side === 'endpoint' ? relations.endpointAppWans : relations.serviceAppWans;
    return new DataLoader<string, AppWanRecord[]>(async (keys) => {
      const results = new Map<string, AppWanRecord[] | Error>();
      const byNetwork = new Map<string, string[]>();
      for (const key of keys) {
        const networkId = parentsByKey.get(`${side}:${key}`)?.networkId ?? '';
        appendTo(byNetwork, networkId, key);
      }
      await Promise.all(
        [...byNetwork].map(async ([networkId, group]) => {
          const key = indexKey(side, networkId);
          const input = { batching, parentsInBatch: group.length, indexLoaded: cache.has(key), indexExact: indexExact.get(key) ?? null };
          const record: PlanRecord = { side, networkId, parents: group.length, plan: chooseRelationPlan(input) };
          plans.push(record);
          if (record.plan === 'membership-index') {
            try {
              const index = await membershipIndex(side, networkId);
              if (index.exact) {
                for (const k of group) results.set(k, index.byMember.get(splitKey(k).id) ?? []);
                return;
              }
              // The rule again, now that the index is known to be inexact: per parent.
              record.plan = chooseRelationPlan({ ...input, indexLoaded: true, indexExact: false });
              record.indexInexact = true;
            } catch (err) {
              for (const k of group) results.set(k, toError(err));
              return;
            }
          }
          await Promise.all(
            group.map(async (key) => {
              const parent = parentsByKey.get(`${side}:${key}`);
              if (parent === undefined) return;
              try {
                results.set(key, await members(rel, parent));
              } catch (err) {
                results.set(key, toError(err));
              }
            }),
          );
        }),
      );
      return keys.map((key) => results.get(key) ?? new Error(`no AppWAN answer for ${key}`));
    }, dlOptions);
  }
  // The loaders below are made on first use, like the by-id ones: a one-record query needs none of them.
  type AppWanLoaders = Record<MemberSide, DataLoader<string, AppWanRecord[]>>;
  let appWanLoaders: AppWanLoaders | null = null;
  const relationLoaders = (): AppWanLoaders => (appWanLoaders ??= { endpoint: appWansLoader('endpoint'), service: appWansLoader('service') });
  type SharedLists = { networks: SharedListLoader<NetworkGroupRecord, NetworkRecord>; endpoints: SharedListLoader<NetworkRecord, EndpointRecord> };
  let shared: SharedLists | null = null;
  const sharedLists = (): SharedLists =>
    (shared ??= {
      networks: createSharedListLoader(groupNetworksDef({ list, listAt }), batching, listPlans),
      endpoints: createSharedListLoader(networkEndpointsDef({ list, listAt }), batching, listPlans),
    });

  const prefetch: NetworkPrefetch = {
    groupNetworks(sort, groups) {
      if (choosePrefetch({ batching, parentWindow: groups })) sharedLists().networks.prefetch(ALL_NETWORKS, sort);
    },
    endpointAppWans(networkId, endpoints) {
      if (!choosePrefetch({ batching, parentWindow: endpoints })) return;
      // The index's own first reads (`membershipIndex`), cached under the same keys.
      all('appWan', networkId).catch(ignore);
      all('endpointGroup', networkId).catch(ignore);
    },
    appWanServices(networkId, endpoints) {
      if (choosePrefetch({ batching, parentWindow: endpoints })) servicesAhead.add(networkId);
    },
  };

  let organization: Promise<OrganizationRecord> | null = null;

  /** Reads of one kind alone besides its lists: forgotten with the kind's own reads. */
  const ownReads: Partial<Record<ResourceKind, string>> = { networkConfigMetadata: 'ncm-of:', cloudSubscription: 'sites:' };

  /**
   * After a change of `kind` (answered, or maybe applied), as its `forgets` says (changes.ts):
   * `graph` forgets everything cached in this request (a change can touch lists, memberships,
   * indexes and counts far from its record; the cache lives for one operation, so re-reading is
   * cheap and always right); `own` forgets the kind's records and lists. Process lists go either
   * way: a change may start a process.
   */
  function forget(kind: WritableKind): void {
    if (writes[kind].forgets === 'graph') {
      cache.clear();
      indexExact.clear();
      servicesAhead.clear();
      parentsByKey.clear();
      primed.clear();
      for (const loader of Object.values(byIdTable)) loader?.clearAll();
      appWanLoaders?.endpoint.clearAll();
      appWanLoaders?.service.clearAll();
      shared?.networks.clearAll();
      shared?.endpoints.clearAll();
      return;
    }
    const stale = [`list:${kind}:`, `listAt:${kind}:`, 'processes:'];
    const own = ownReads[kind];
    if (own !== undefined) stale.push(own);
    for (const key of cache.keys()) if (stale.some((prefix) => key.startsWith(prefix))) cache.delete(key);
    byIdTable[kind]?.clearAll();
    primed.delete(kind);
  }

  let changes: NetworkChanges | null = null;
  return {
    rest,
    // A method, not a getter: an accessor in an object literal gives every request's object a map
    // of its own, which keeps the whole request alive through young collections (eslint.config.mjs).
    changes: () => (changes ??= createNetworkChanges(rest, new Writer(http, 'rest-v1', forget), prime)),
    plans,
    listPlans,
    prefetch,
    networksOf: (group, sort, window) => sharedLists().networks.load(group, sort, window),
    endpointsOf: (network, sort, window) => sharedLists().endpoints.load(network, sort, window),
    byId: (kind, id, networkId) => byIdLoader(kind).load(recordKey(id, resources[kind].scope === 'network' ? networkId : undefined)),
    list,
    listAt,
    all,
    members,
    appWansOf(side, parent) {
      const key = recordKey(parent.id, parent.networkId);
      parentsByKey.set(`${side}:${key}`, parent);
      return relationLoaders()[side].load(key);
    },
    sites: (subscriptionId, window) =>
      memo(`sites:${JSON.stringify([subscriptionId, window.offset, window.count])}`, () =>
        rest.listWindowAt({ path: `/azureSubscriptions/${segment(subscriptionId)}/virtualWanSites` }, 'virtualWanSites', parseVirtualWanSite, window),
      ),
    networkConfigMetadataOf: (networkId) => memo(`ncm-of:${networkId}`, () => rest.networkConfigMetadataOf(networkId)),
    networkGroupByBillingAccount: (id) => memo(`billing:${id}`, () => rest.networkGroupByBillingAccount(id)),
    text: (path) => memo(`text:${path}`, () => rest.text(path)),
    processes: (path) => memo(`processes:${path}`, () => rest.processes(path)),
    workflow: async (businessKey) =>
      mergeProcesses(businessKey, await memo(`processes:/workflow-status/${businessKey}`, () => rest.processes(`/workflow-status/${segment(businessKey)}`))),
    myOrganization() {
      if (!batching) return identity.myOrganization();
      organization ??= identity.myOrganization();
      return organization;
    },
  };
}

/** A group whose members can be read before anyone asks (it has a members link), as a list of 0 or 1. */
function linkedGroup(id: string, href: string | undefined): { id: string; href: string }[] {
  return href === undefined ? [] : [{ id, href }];
}

/** A prefetch's failure is left to the field that reads the list (the cache forgets it). */
function ignore(): void {}

function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
