/**
 * Per-request loaders over rest/v1 and identity/v1 (created by the context, never shared between
 * requests or callers). Resolvers use these; these use the clients; the clients use the HTTP layer.
 * This module only puts the parts together:
 *
 * - request-cache.ts: everything the request remembers (cached calls, by-id loaders, every
 *   request-scoped map) and `forget`, the one place a change makes it forget what it touched.
 * - by-id.ts: `byId`, one DataLoader per resource kind; every list primes it, so a record seen
 *   once is never fetched again.
 * - lists.ts: `list`/`listAt`/`all`, `members`, and the shared lists behind `networksOf` and
 *   `endpointsOf` (`chooseSharedListPlan`, list-plan.ts).
 * - memberships.ts: `appWansOf`, batched per network and answered by the plan
 *   `chooseRelationPlan` (plan.ts) picks.
 * - prefetch.ts: selection look-ahead (prefetch-plan.ts): reads those plans will make, started
 *   while their parents are still loading, through the same cached calls.
 *
 * With `options.batching === false` nothing is batched, cached or prefetched and every parent
 * takes its own call: the naive plan the benchmark compares against.
 */
import type { HttpClient } from '../http-types';
import type { LoaderOptions } from '../loader-options';
import type { PagedResult, PageWindow } from '../paging';
import { IdentityV1Client } from '../identity/client';
import type { OrganizationRecord } from '../identity/records';
import { Writer } from '../writes';
import { createByIdReads, type ByIdReads } from './by-id';
import { RestV1Client, type ListTarget, type RelationParent, type SortSpec } from './client';
import { createNetworkChanges, type NetworkChanges } from './changes';
import { createListReads, type ListOptions } from './lists';
import { createMemberships, type MemberSide, type PlanRecord } from './memberships';
import { createPrefetch, type NetworkPrefetch } from './prefetch';
import type { ProcessRecord } from './processes';
import type { AppWanRecord, EndpointRecord, NetworkConfigMetadataRecord, NetworkGroupRecord, NetworkRecord, VirtualWanSiteRecord } from './records';
import { RequestCache } from './request-cache';
import type { ListPlanRecord } from './shared-lists';
import type { RecordFor, RelationDef, ResourceKind } from './resources';

export type { ListOptions, MemberSide, NetworkPrefetch, PlanRecord };

export interface NetworkLoaders {
  readonly rest: RestV1Client;
  /** rest/v1 changes (made on first use), sent through the one sender (../writes.ts); each makes these loaders forget what it touched. */
  changes(): NetworkChanges;
  byId<K extends ResourceKind>(kind: K, id: string, networkId?: string): Promise<RecordFor<K>>;
  list<K extends ResourceKind>(kind: K, window: PageWindow, opts?: ListOptions): Promise<PagedResult<RecordFor<K>>>;
  /** `list` page by page for a `@stream`ed field: a later page is fetched only when the executor asks for more items; not cached. */
  listPages<K extends ResourceKind>(kind: K, window: PageWindow, opts?: ListOptions): AsyncGenerator<PagedResult<RecordFor<K>>, void, undefined>;
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

export function createNetworkLoaders(http: HttpClient, options: LoaderOptions): NetworkLoaders {
  const rest = new RestV1Client(http);
  const identity = new IdentityV1Client(http);
  const cache = new RequestCache(options.batching);
  const plans: PlanRecord[] = [];
  const listPlans: ListPlanRecord[] = [];
  // by-id and lists need each other (a catalog's ids read as one list; every list primes by id).
  const lists = createListReads(rest, cache, () => byId, listPlans);
  const byId: ByIdReads = createByIdReads(rest, cache, (kind) => lists.all(kind));
  const memberships = createMemberships(rest, cache, lists, plans);
  const forget = cache.forget.bind(cache);

  let changes: NetworkChanges | null = null;
  return {
    rest,
    // A method, not a getter: an accessor in an object literal gives every request's object a map
    // of its own, which keeps the whole request alive through young collections (eslint.config.mjs).
    changes: () => (changes ??= createNetworkChanges(rest, new Writer(http, 'rest-v1', forget), byId.prime)),
    plans,
    listPlans,
    prefetch: createPrefetch(options.batching, lists, memberships),
    networksOf: (group, sort, window) => lists.shared().networks.load(group, sort, window),
    endpointsOf: (network, sort, window) => lists.shared().endpoints.load(network, sort, window),
    byId: byId.byId,
    list: lists.list,
    listPages: lists.listPages,
    listAt: lists.listAt,
    all: lists.all,
    members: lists.members,
    appWansOf: memberships.appWansOf,
    sites: lists.sites,
    networkConfigMetadataOf: lists.networkConfigMetadataOf,
    networkGroupByBillingAccount: lists.networkGroupByBillingAccount,
    text: lists.text,
    processes: lists.processes,
    workflow: lists.workflow,
    // Identity's one read: cached per request like the others (a fresh call with batching off).
    myOrganization: () => cache.memo('organization', () => identity.myOrganization()),
  };
}
