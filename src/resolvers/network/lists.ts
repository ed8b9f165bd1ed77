/**
 * Connection arguments → upstream windows and sort keys, and upstream results → connections.
 * Validation happens here, before any loader call: a bad `first`, `after` or `sort` costs no
 * upstream call.
 */
import { BadInputError } from '../../errors/codes';
import type { RelationParent, SortSpec } from '../../upstream/network/client';
import { totalOrder } from '../../upstream/network/list-order';
import type { NetworkLoaders } from '../../upstream/network/loaders';
import { relations } from '../../upstream/network/resources';
import type { AppWanRecord, EndpointGroupRecord, EndpointRecord, ServiceRecord } from '../../upstream/network/records';
import type { PagedResult, PageWindow } from '../../upstream/paging';
import { ShapeError } from '../../errors/shape-error';
import { arrayConnection, buildConnection, pageWindow, type Connection, type ConnectionArgs, type MaybePromise } from '../connection';
import type { ChildStarters } from '../lookahead';

export interface SortArg {
  field: string;
  direction?: 'ASC' | 'DESC' | null;
}

/** Fields every paginated rest/v1 list sorts by; lists add their own. */
const COMMON_SORT = ['id', 'name', 'status', 'createdAt', 'updatedAt'] as const;
export const SORTABLE = {
  network: [...COMMON_SORT],
  endpoint: [...COMMON_SORT, 'endpointType', 'currentState'],
  service: [...COMMON_SORT, 'serviceClass'],
  appWan: [...COMMON_SORT],
} as const;

/** `sort` → upstream `sort=field,DIRECTION` keys; an unknown field is BAD_USER_INPUT on `sort[i].field`. */
export function sortSpecs(sort: readonly SortArg[] | null | undefined, allowed: readonly string[]): SortSpec[] {
  return (sort ?? []).map((key, i) => {
    if (!allowed.includes(key.field)) {
      throw new BadInputError(`sort[${i}].field`, `cannot sort by ${JSON.stringify(key.field)}; allowed: ${allowed.join(', ')}`);
    }
    return { field: key.field, direction: key.direction === 'DESC' ? 'DESC' : 'ASC' };
  });
}

/** Validates the arguments, then fetches exactly the window they select. */
export async function listConnection<T>(args: ConnectionArgs, fetch: (window: PageWindow) => Promise<PagedResult<T>>): Promise<Connection<T>> {
  const window = pageWindow(args);
  const result = await fetch({ offset: window.offset, count: window.limit });
  return buildConnection(result.items, window, result.totalCount);
}

type LinkedRecord = { id: string; networkId: string | null; links: Readonly<Record<string, string>> };

/**
 * A record as a relation parent. Its links are read when a call needs them (`links` builds an
 * object from the upstream's `_links`): most member lists are answered from the cache or the
 * membership index, so the 2,400 endpoints of a large graph never need theirs.
 */
class RecordParent implements RelationParent {
  constructor(
    private readonly record: LinkedRecord,
    readonly id: string,
    readonly networkId: string,
  ) {}

  get links(): Readonly<Record<string, string>> {
    return this.record.links;
  }
}

/** A record as the parent of a member list; its network id is required to build paths. */
export function relationParent(record: LinkedRecord): RelationParent {
  const networkId = record.networkId;
  if (networkId === null) throw new ShapeError(`record ${record.id}: networkId missing`);
  return new RecordParent(record, record.id, networkId);
}

export { arrayConnection } from '../connection';

/** The arguments of a list field (`first`, `after`, `sort`). */
export interface ListArgs extends ConnectionArgs {
  sort?: readonly SortArg[] | null;
}

function isSortArg(value: unknown): value is SortArg {
  if (typeof value !== 'object' || value === null || !('field' in value) || typeof value.field !== 'string') return false;
  const direction = 'direction' in value ? value.direction : undefined;
  return direction === undefined || direction === null || direction === 'ASC' || direction === 'DESC';
}

/** A list field's arguments as graphql-js coerced them (`selectionOf`), narrowed without casts. */
export function listArgs(raw: Readonly<Record<string, unknown>>): ListArgs {
  const { first, after, sort } = raw;
  return {
    first: typeof first === 'number' ? first : null,
    after: typeof after === 'string' ? after : null,
    sort: Array.isArray(sort) ? sort.filter(isSortArg) : null,
  };
}

/**
 * A network's own lists, by field name: `Network`'s fields, and what `network(id:)` starts
 * alongside its own call (the id is an argument). One function per field, so both make the same
 * loader call and the field finds the prefetched one in the request's cache.
 */
export const networkLists = {
  // In the explicit order a group-wide list can also answer (list-order.ts), so this call and the shared-list plan's per-network call are one cached call.
  endpoints: (loaders: NetworkLoaders, networkId: string, args: ListArgs) => {
    const sort = totalOrder(sortSpecs(args.sort, SORTABLE.endpoint));
    return listConnection(args, (w) => loaders.list('endpoint', w, { networkId, sort }));
  },
  services: (loaders: NetworkLoaders, networkId: string, args: ListArgs) => {
    const sort = sortSpecs(args.sort, SORTABLE.service);
    return listConnection(args, (w) => loaders.list('service', w, { networkId, sort }));
  },
  appWans: (loaders: NetworkLoaders, networkId: string, args: ListArgs) => {
    const sort = sortSpecs(args.sort, SORTABLE.appWan);
    return listConnection(args, (w) => loaders.list('appWan', w, { networkId, sort }));
  },
  endpointGroups: (loaders: NetworkLoaders, networkId: string, args: ListArgs) =>
    listConnection(args, (w) => loaders.list('endpointGroup', w, { networkId })),
} as const;

/**
 * The same lists page by page, for a `@stream`ed `nodes` (../stream.ts): same arguments checked,
 * same upstream order; a later page is fetched only when the executor asks for more items.
 */
export const networkListPages = {
  endpoints: (loaders: NetworkLoaders, networkId: string, args: ListArgs) => {
    const sort = totalOrder(sortSpecs(args.sort, SORTABLE.endpoint));
    return (w: PageWindow) => loaders.listPages('endpoint', w, { networkId, sort });
  },
  services: (loaders: NetworkLoaders, networkId: string, args: ListArgs) => {
    const sort = sortSpecs(args.sort, SORTABLE.service);
    return (w: PageWindow) => loaders.listPages('service', w, { networkId, sort });
  },
  appWans: (loaders: NetworkLoaders, networkId: string, args: ListArgs) => {
    const sort = sortSpecs(args.sort, SORTABLE.appWan);
    return (w: PageWindow) => loaders.listPages('appWan', w, { networkId, sort });
  },
  endpointGroups: (loaders: NetworkLoaders, networkId: string, _args: ListArgs) => (w: PageWindow) => loaders.listPages('endpointGroup', w, { networkId }),
} as const;

/**
 * The member lists of an endpoint, a service and an AppWAN, by field name: the types' fields, and
 * what `endpoint(networkId:, id:)`, `service(…)` and `appWan(…)` start alongside their own call
 * (both ids are arguments; with no record yet, the list is read at its built path).
 */
export const endpointMembers = {
  appWans: (loaders: NetworkLoaders, parent: RelationParent, args: ConnectionArgs): MaybePromise<Connection<AppWanRecord>> =>
    arrayConnection(args, () => loaders.appWansOf('endpoint', parent)),
  services: (loaders: NetworkLoaders, parent: RelationParent, args: ConnectionArgs): MaybePromise<Connection<ServiceRecord>> =>
    arrayConnection(args, () => loaders.members(relations.endpointServices, parent)),
  endpointGroups: (loaders: NetworkLoaders, parent: RelationParent, args: ConnectionArgs): MaybePromise<Connection<EndpointGroupRecord>> =>
    arrayConnection(args, () => loaders.members(relations.endpointEndpointGroups, parent)),
} as const;

export const serviceMembers = {
  appWans: (loaders: NetworkLoaders, parent: RelationParent, args: ConnectionArgs): MaybePromise<Connection<AppWanRecord>> =>
    arrayConnection(args, () => loaders.appWansOf('service', parent)),
} as const;

export const appWanMembers = {
  endpoints: (loaders: NetworkLoaders, parent: RelationParent, args: ConnectionArgs): MaybePromise<Connection<EndpointRecord>> =>
    arrayConnection(args, () => loaders.members(relations.appWanEndpoints, parent)),
  services: (loaders: NetworkLoaders, parent: RelationParent, args: ConnectionArgs): MaybePromise<Connection<ServiceRecord>> =>
    arrayConnection(args, () => loaders.members(relations.appWanServices, parent)),
  endpointGroups: (loaders: NetworkLoaders, parent: RelationParent, args: ConnectionArgs): MaybePromise<Connection<EndpointGroupRecord>> =>
    arrayConnection(args, () => loaders.members(relations.appWanEndpointGroups, parent)),
} as const;

/** A table of child loads by field name, each for one parent (networkLists, endpointMembers, …). */
type ChildLoads<P> = Readonly<Record<string, (loaders: NetworkLoaders, parent: P, args: ListArgs) => unknown>>;

/**
 * Starters for `prefetchChildren`: a selected field's load from the first table that has it,
 * applied to one parent known from the arguments. A starter is made only for a field the query
 * selects, so a one-record query makes none.
 */
export function startersFor<P>(loaders: NetworkLoaders, parent: P, ...tables: ReadonlyArray<ChildLoads<P>>): ChildStarters {
  return (field) => {
    const table = tables.find((t) => Object.hasOwn(t, field));
    const load = table?.[field];
    return load === undefined ? undefined : (raw) => load(loaders, parent, listArgs(raw));
  };
}
