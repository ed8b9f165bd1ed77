/**
 * Per-request DataLoaders of the auth area (created by the context, one set per GraphQL request,
 * never shared between callers).
 *
 * - by-id loaders per resource (`domain` takes an id or a code, like `GET /domains/{idOrCode}`);
 * - list loaders keyed by the canonical filter: the same list asked twice costs one call, and every
 *   list primes the by-id loaders (a domain under both its id and its code);
 * - `grant`: one grant by the keys that find it (grants have no read by id): read from the grant
 *   list of its kind and identity, one list call per distinct filter, whatever the number of grants;
 * - `children` and `actions` of resource types follow the plan rule in plan.ts, so a domain's type
 *   tree with every type's actions costs the same few calls whatever the number of types;
 * - `write`: a change through the one sender (../writes.ts); afterwards the loaders of what it
 *   touches (AUTH_WRITES in resources.ts) forget what they cached, so later fields see the new state.
 */
import { appendTo, grouper, type Grouping } from '../multimap';
import DataLoader from 'dataloader';
import type { HttpClient } from '../http-types';
import type { LoaderOptions } from '../loader-options';
import { Writer } from '../writes';
import { GatewayError } from '../../errors/codes';
import { AuthClient } from './client';
import { byIdFromList, chooseRelationPlan, useUnfilteredList } from './plan';
import { AUTH_RESOURCES, type AuthResource, type AuthResourceName, type ListFilter, filterKey } from './resources';
import type {
  DomainRecord,
  GrantRecord,
  PublicGrantRecord,
  ResourceActionRecord,
  ResourceTypeRecord,
  SuperUserRecord,
} from './types';

/** What finds one grant: the list filter (its kind and identity) and its `grantId` in that list. */
export interface GrantKey {
  grantType: string;
  grantId: string;
  /** Null for grants of every client (public grants): the list is then not filtered by identity. */
  identityId: string | null;
}

export interface AuthLoaders {
  /** One change (AUTH_WRITES): sent once, how to check an unknown outcome, what it touched forgotten. */
  write: AuthClient['write'];
  /** By id or by code. */
  domain: DataLoader<string, DomainRecord>;
  resourceType: DataLoader<string, ResourceTypeRecord>;
  resourceAction: DataLoader<string, ResourceActionRecord>;
  superUser: DataLoader<string, SuperUserRecord>;
  publicGrant: DataLoader<string, PublicGrantRecord>;
  /** A grant found in `/grants?grantType=&identityId=` by its `grantId`; NOT_FOUND when the list lacks it. */
  grant: DataLoader<GrantKey, GrantRecord, string>;
  domains: DataLoader<ListFilter, DomainRecord[], string>;
  resourceTypes: DataLoader<ListFilter, ResourceTypeRecord[], string>;
  resourceActions: DataLoader<ListFilter, ResourceActionRecord[], string>;
  grants: DataLoader<ListFilter, GrantRecord[], string>;
  superUsers: DataLoader<ListFilter, SuperUserRecord[], string>;
  publicGrants: DataLoader<ListFilter, PublicGrantRecord[], string>;
  /** Direct children of a type, in `childrenIds` order when known. */
  children: DataLoader<ResourceTypeRecord, ResourceTypeRecord[], string>;
  /** Actions defined on a type. */
  actions: DataLoader<ResourceTypeRecord, ResourceActionRecord[], string>;
  /**
   * Starts the unfiltered type and/or action lists now, for a `domains` query whose nested fields
   * will need them (the plan rule then answers every domain's types and every type's actions from
   * them): the whole tree costs one round trip instead of one per level. A failure surfaces on
   * the fields that use the list. No-op with batching off.
   */
  prefetch(lists: { resourceTypes: boolean; resourceActions: boolean }): void;
}

export function createAuthLoaders(http: HttpClient, options: LoaderOptions): AuthLoaders {
  const client = new AuthClient(http, new Writer(http, 'auth-v1', (touched) => forget(touched)));
  // With batching off, loaders neither batch nor cache (the benchmark's baseline).
  const mode = options.batching ? {} : { batch: false, cache: false };
  /** Filter keys of the lists this request has asked for (feeds the plan rule). */
  const requested = new Set<string>();

  /**
   * A by-id loader. Two or more ids in one batch are answered from the resource's unfiltered list
   * (plan.ts `byIdFromList`; `publicGrants { resourceAction }` costs one call, not one per grant);
   * an id the list lacks (or a failed list) falls back to `GET {path}/{id}`.
   */
  function byId<T extends { id: string }>(
    res: AuthResource<T>,
    wholeList: () => Promise<T[]>,
    keysOf: (item: T) => ReadonlyArray<string | null> = (item) => [item.id],
    onLoad: (item: T) => void = () => undefined,
  ): DataLoader<string, T> {
    const getOne = async (id: string): Promise<T> => {
      const item = await client.get(res, id);
      onLoad(item);
      return item;
    };
    return new DataLoader<string, T>(async (ids) => {
      if (!byIdFromList({ batching: options.batching, idsInBatch: ids.length })) return settle(ids.map(getOne));
      const all = await wholeList().catch(() => []);
      // One index per batch (the first item wins, as a search would): ids × items comparisons are quadratic.
      const index = new Map<string, T>();
      for (const item of all) for (const key of keysOf(item)) if (key !== null && !index.has(key)) index.set(key, item);
      return settle(ids.map((id) => {
        const found = index.get(id);
        return found === undefined ? getOne(id) : Promise.resolve(found);
      }));
    }, mode);
  }

  /**
   * A list loader. With `domainOf`, filters on `domainId` alone may be served from the unfiltered
   * list grouped in memory (plan.ts `useUnfilteredList`): `domains { resourceTypes }` costs one call.
   */
  function list<T>(
    res: AuthResource<T>,
    prime: (item: T) => void,
    domainOf?: (item: T) => string | null,
  ): DataLoader<ListFilter, T[], string> {
    const byDomainOf = domainOf === undefined ? null : grouper(domainOf);
    const fetchList = async (filter: ListFilter): Promise<T[]> => {
      const items = await client.list(res, filter);
      items.forEach(prime);
      return items;
    };
    const loader: DataLoader<ListFilter, T[], string> = new DataLoader<ListFilter, T[], string>(
      (filters) => {
        const byDomain = filters.filter(isDomainOnly);
        const unfiltered =
          domainOf !== undefined &&
          useUnfilteredList({
            batching: options.batching,
            domainFiltersInBatch: byDomain.length,
            allListLoaded: requested.has(filterKey(res, {})),
          });
        return settle(
          filters.map((filter) => {
            const domainId = filter['domainId'];
            if (!unfiltered || byDomainOf === null || !isDomainOnly(filter) || typeof domainId !== 'string') return fetchList(filter);
            return loader.load({}).then((all) => [...(byDomainOf(all).get(domainId) ?? [])]);
          }),
        );
      },
      { ...mode, cacheKeyFn: (filter) => trackedKey(res, filter) },
    );
    return loader;
  }

  function trackedKey(res: AuthResource<unknown>, filter: ListFilter): string {
    const key = filterKey(res, filter);
    requested.add(key);
    return key;
  }

  const R = AUTH_RESOURCES;
  // A domain fetched by code is primed under its id too, and the other way round.
  // Lists are declared below; the closures run only once a batch is dispatched.
  const domain: DataLoader<string, DomainRecord> = byId(
    R.domain,
    () => domains.load({}),
    (d) => [d.id, d.code],
    (d) => primeDomain(d),
  );
  const resourceType = byId(R.resourceType, () => resourceTypes.load({}));
  const resourceAction = byId(R.resourceAction, () => resourceActions.load({}));
  const superUser = byId(R.superUser, () => superUsers.load({}));
  const publicGrant = byId(R.publicGrant, () => publicGrants.load({}));

  function primeDomain(d: DomainRecord): void {
    domain.prime(d.id, d);
    if (d.code !== null) domain.prime(d.code, d);
  }
  const domains = list(R.domain, primeDomain);
  const resourceTypes = list(R.resourceType, (t) => resourceType.prime(t.id, t), (t) => t.domainId);
  const resourceActions = list(R.resourceAction, (a) => resourceAction.prime(a.id, a));
  const grants = list(R.grant, (g) => {
    if (g.grantId !== null) grant.prime({ grantType: g.grantType, grantId: g.grantId, identityId: g.identityId }, g);
  });
  const superUsers = list(R.superUser, (s) => superUser.prime(s.id, s));
  const publicGrants = list(R.publicGrant, (p) => publicGrant.prime(p.id, p));

  /**
   * Grants by key: keys of one filter share one list call (the list loader's cache) and one index
   * of that list built once, so a batch of grants costs a call per distinct (kind, identity).
   */
  const grant = new DataLoader<GrantKey, GrantRecord, string>(
    (keys) => {
      const indexes = new Map<string, Promise<Map<string, GrantRecord>>>();
      const indexOf = (key: GrantKey): Promise<Map<string, GrantRecord>> => {
        const filter = { grantType: key.grantType, identityId: key.identityId };
        const listKey = filterKey(R.grant, filter);
        let index = indexes.get(listKey);
        if (index === undefined) {
          index = grants.load(filter).then((all) => {
            const byKey = new Map<string, GrantRecord>();
            for (const g of all) {
              if (g.grantId === null) continue;
              const k = grantCacheKey({ grantType: g.grantType, grantId: g.grantId, identityId: g.identityId });
              if (!byKey.has(k)) byKey.set(k, g);
            }
            return byKey;
          });
          indexes.set(listKey, index);
        }
        return index;
      };
      return settle(
        keys.map(async (key) => {
          const found = (await indexOf(key)).get(grantCacheKey(key));
          if (found === undefined) {
            const of = key.identityId === null ? '' : ` of identity ${key.identityId}`;
            throw new GatewayError('NOT_FOUND', `no ${key.grantType} grant ${key.grantId}${of} in the grant list`);
          }
          return found;
        }),
      );
    },
    { ...mode, cacheKeyFn: grantCacheKey },
  );

  /**
   * Answers a per-type relation for a batch of types: grouped by domain, each group planned
   * by chooseRelationPlan, then the unfiltered list, the domain's list, or one list per type.
   */
  function relation<T>(
    res: AuthResource<unknown>,
    lists: {
      all: () => Promise<T[]>;
      byDomain: (domainId: string) => Promise<T[]>;
      perParent: (type: ResourceTypeRecord) => Promise<T[]>;
    },
    byParent: (items: readonly T[]) => Grouping<string | null, T>,
  ) {
    return async (types: readonly ResourceTypeRecord[]): Promise<Array<T[] | Error>> => {
      const groups = new Map<string | null, ResourceTypeRecord[]>();
      for (const t of types) appendTo(groups, t.domainId, t);
      const answers = new Map<string, Promise<T[]>>();
      for (const [domainId, group] of groups) {
        const plan = chooseRelationPlan({
          batching: options.batching,
          domainId,
          typesInBatch: group.length,
          domainsInBatch: groups.size,
          domainListLoaded: domainId !== null && requested.has(filterKey(res, { domainId })),
          allListLoaded: requested.has(filterKey(res, {})),
        });
        const source = plan === 'all-list' ? lists.all() : plan === 'domain-list' && domainId !== null ? lists.byDomain(domainId) : null;
        const grouped = source?.then(byParent) ?? null;
        for (const t of group) {
          answers.set(t.id, grouped === null ? lists.perParent(t) : grouped.then((groups) => [...(groups.get(t.id) ?? [])]));
        }
      }
      return settle(types.map((t) => answers.get(t.id) ?? Promise.resolve([])));
    };
  }

  const typesByParent = grouper((t: ResourceTypeRecord) => t.parentId);
  const actionsByType = grouper((a: ResourceActionRecord) => a.resourceTypeId);
  const children = new DataLoader<ResourceTypeRecord, ResourceTypeRecord[], string>(
    async (types) => {
      // A type whose childrenIds the upstream sent empty is a leaf: no call needed.
      const open = types.filter((t) => t.childrenIds === null || t.childrenIds.length > 0);
      const answer = relation<ResourceTypeRecord>(
        R.resourceType,
        {
          all: () => resourceTypes.load({}),
          byDomain: (domainId) => resourceTypes.load({ domainId }),
          perParent: (t) => resourceTypes.load({ parentId: t.id }),
        },
        typesByParent,
      );
      const found = await answer(open);
      const byType = new Map(open.map((t, i) => [t.id, found[i] ?? []] as const));
      return types.map((t) => {
        const result = byType.get(t.id) ?? [];
        return result instanceof Error ? result : inChildrenOrder(result, t.childrenIds);
      });
    },
    { ...mode, cacheKeyFn: (t) => t.id },
  );

  const actions = new DataLoader<ResourceTypeRecord, ResourceActionRecord[], string>(
    relation<ResourceActionRecord>(
      R.resourceAction,
      {
        all: () => resourceActions.load({}),
        byDomain: (domainId) => resourceActions.load({ domainId }),
        perParent: (t) => resourceActions.load({ resourceTypeId: t.id }),
      },
      actionsByType,
    ),
    { ...mode, cacheKeyFn: (t) => t.id },
  );

  /** The loaders holding each resource's records and lists (and the relations read from those lists). */
  const cachesOf: Readonly<Record<AuthResourceName, ReadonlyArray<{ clearAll(): unknown }>>> = {
    domain: [domain, domains],
    resourceType: [resourceType, resourceTypes, children],
    resourceAction: [resourceAction, resourceActions, actions],
    grant: [grant, grants],
    superUser: [superUser, superUsers],
    publicGrant: [publicGrant, publicGrants],
  };

  /** After a change: forget the touched resources' records and lists, and that their lists were asked. */
  function forget(touched: readonly AuthResourceName[]): void {
    for (const name of touched) {
      for (const loader of cachesOf[name]) loader.clearAll();
      const prefix = `${R[name].path}?`;
      for (const key of requested) if (key.startsWith(prefix)) requested.delete(key);
    }
  }

  return {
    write: (name, input) => client.write(name, input),
    domain,
    resourceType,
    resourceAction,
    superUser,
    publicGrant,
    grant,
    domains,
    resourceTypes,
    resourceActions,
    grants,
    superUsers,
    publicGrants,
    children,
    actions,
    prefetch(lists) {
      if (!options.batching) return;
      // Handled here so an early failure is not an unhandled rejection; the loaders keep it.
      if (lists.resourceTypes) resourceTypes.load({}).catch(() => undefined);
      if (lists.resourceActions) resourceActions.load({}).catch(() => undefined);
    },
  };
}

/** One string per grant key (the grant loader's cache key; the record's own keys when priming). */
function grantCacheKey(key: GrantKey): string {
  return JSON.stringify([key.grantType, key.identityId, key.grantId]);
}

/** True for a filter on `domainId` and nothing else. */
function isDomainOnly(filter: ListFilter): boolean {
  return (
    typeof filter['domainId'] === 'string' &&
    Object.entries(filter).every(([key, value]) => key === 'domainId' || value === null || value === undefined)
  );
}

/** Results in key order with an Error in the slot of a failed key (DataLoader's contract). */
async function settle<T>(promises: Array<Promise<T>>): Promise<Array<T | Error>> {
  const results = await Promise.allSettled(promises);
  return results.map((r) =>
    r.status === 'fulfilled' ? r.value : r.reason instanceof Error ? r.reason : new Error(String(r.reason)),
  );
}

function inChildrenOrder(items: ResourceTypeRecord[], childrenIds: string[] | null): ResourceTypeRecord[] {
  if (childrenIds === null) return items;
  const rank = new Map(childrenIds.map((id, i) => [id, i] as const));
  return [...items].sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity));
}
