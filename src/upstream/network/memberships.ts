/**
 * `Endpoint.appWans`/`Service.appWans`: batched per network and answered by the plan
 * `chooseRelationPlan` (plan.ts) picks, either from one membership index per network and side
 * (memberId → AppWANs, built from cached lists) or per parent from its own member list. A
 * membership index that turns out inexact (a held endpoint group without a members link) hands
 * its parents to the per-parent plan.
 */
import DataLoader from 'dataloader';
import { appendTo } from '../multimap';
import type { PagedResult } from '../paging';
import { toError } from './by-id';
import { relationTarget, type ListTarget, type RelationParent, type RestV1Client } from './client';
import { hrefTarget } from './hal';
import { idsKey, listAtKey, membersKey, WHOLE, type ListReads } from './lists';
import { chooseGroupMemberPlan, chooseRelationPlan, type RelationPlan } from './plan';
import { parseEndpointId, type AppWanRecord, type EndpointGroupRecord, type EndpointRecord } from './records';
import { recordKey, splitKey, type RequestCache } from './request-cache';
import { relations, resources } from './resources';

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

export interface Memberships {
  appWansOf(side: MemberSide, parent: RelationParent): Promise<AppWanRecord[]>;
  /** `AppWan.services` will be asked below this network's endpoints: its index starts those lists too. */
  servicesWithIndex(networkId: string): void;
}

const indexKey = (side: MemberSide, networkId: string): string => `index:${side}:${networkId}`;

export function createMemberships(rest: RestV1Client, cache: RequestCache, lists: ListReads, plans: PlanRecord[]): Memberships {
  const { all, members } = lists;
  /** Exactness of the indexes loaded so far in this request (absent while loading). */
  const indexExact = cache.map<string, boolean>();
  /** Networks whose AppWANs' service lists start with their endpoint index (`servicesWithIndex`). */
  const servicesAhead = cache.set<string>();
  const parentsByKey = cache.map<string, RelationParent>();

  /**
   * The ids of an endpoint list the membership index inverts (an AppWAN's endpoints, a group's
   * members). Only the ids are read: no record is built, primed or kept, so the body dies young
   * (these lists repeat endpoints the network's own list holds: a third of a large graph's
   * bytes). Each item is still checked as `parseEndpoint` checks it. The full list, when a field
   * has already asked it (`fullKey`), answers instead of a call; a field asking it later is answered
   * from these ids when the by-id cache knows every record (lists.ts, `fromIds`).
   */
  function endpointIds(target: ListTarget, fullKey: string, full: () => Promise<readonly EndpointRecord[]> | undefined): Promise<readonly string[]> {
    const records = full();
    if (records !== undefined) return records.then((items) => items.map((e) => e.id));
    return cache.memo(idsKey(fullKey), async () => (await rest.listWindowAt(target, resources.endpoint.embedded, parseEndpointId, WHOLE)).items);
  }
  const appWanEndpointIds = (parent: RelationParent): Promise<readonly string[]> => {
    const key = membersKey(relations.appWanEndpoints, parent);
    return endpointIds(relationTarget(relations.appWanEndpoints, parent), key, () => cache.cached<EndpointRecord[]>(key));
  };
  const groupEndpointIds = (href: string): Promise<readonly string[]> => {
    const target = hrefTarget(href);
    const key = listAtKey('endpoint', target, WHOLE);
    return endpointIds(target, key, () => cache.cached<PagedResult<EndpointRecord>>(key)?.then((r) => r.items));
  };

  /**
   * memberId → AppWANs holding it, for one network and one side; built from cached calls (plan.ts
   * says what makes it exact). The endpoint side adds the members of the endpoint groups each
   * AppWAN holds, read at the group's `_links.endpoints`; a held group without that link makes
   * the index inexact, and the loader answers per parent instead.
   */
  function membershipIndex(side: MemberSide, networkId: string): Promise<MembershipIndex> {
    return cache.memo(indexKey(side, networkId), async () => {
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

      const hrefs = heldGroupLinks(networkGroups, groupLists);
      if (hrefs === null) {
        indexExact.set(indexKey(side, networkId), false);
        return { exact: false, byMember: new Map() };
      }
      const groupMembers = new Map<string, readonly string[]>(prefetched);
      await Promise.all(
        [...hrefs].map(async ([groupId, href]) => {
          if (!groupMembers.has(groupId)) groupMembers.set(groupId, await groupEndpointIds(href));
        }),
      );
      indexExact.set(indexKey(side, networkId), true);
      return { exact: true, byMember: invert(appWans, memberLists, groupLists, groupMembers) };
    });
  }

  const dlOptions = cache.batching ? {} : { batch: false, cache: false };
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
          const input = { batching: cache.batching, parentsInBatch: group.length, indexLoaded: cache.has(key), indexExact: indexExact.get(key) ?? null };
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
  const loaders = cache.lazy(() => {
    const endpoint = appWansLoader('endpoint');
    const service = appWansLoader('service');
    const clearAll = (): void => {
      endpoint.clearAll();
      service.clearAll();
    };
    return { endpoint, service, clearAll };
  });

  return {
    appWansOf(side, parent) {
      const key = recordKey(parent.id, parent.networkId);
      parentsByKey.set(`${side}:${key}`, parent);
      return loaders()[side].load(key);
    },
    servicesWithIndex: (networkId) => void servicesAhead.add(networkId),
  };
}

/**
 * Each distinct group the AppWANs hold, once, at its members link (its own, else the network
 * list's); null when one has no link: then none of them is fetched and the index is inexact.
 */
function heldGroupLinks(networkGroups: readonly EndpointGroupRecord[], groupLists: readonly (readonly EndpointGroupRecord[])[]): Map<string, string> | null {
  const listed = new Map(networkGroups.map((g) => [g.id, g.links['endpoints'] ?? null] as const));
  const hrefs = new Map<string, string>();
  for (const group of groupLists.flat()) {
    if (hrefs.has(group.id)) continue;
    const href = group.links['endpoints'] ?? listed.get(group.id) ?? null;
    if (href === null) return null;
    hrefs.set(group.id, href);
  }
  return hrefs;
}

/** memberId → AppWANs, in AppWAN list order, each AppWAN once per member however many ways it reaches it. */
function invert(
  appWans: readonly AppWanRecord[],
  memberLists: readonly (readonly string[])[],
  groupLists: readonly (readonly EndpointGroupRecord[])[],
  groupMembers: ReadonlyMap<string, readonly string[]>,
): Map<string, AppWanRecord[]> {
  const byMember = new Map<string, AppWanRecord[]>();
  appWans.forEach((appWan, i) => {
    const reach = new Set(memberLists[i]);
    for (const group of groupLists[i] ?? []) for (const id of groupMembers.get(group.id) ?? []) reach.add(id);
    for (const id of reach) appendTo(byMember, id, appWan);
  });
  return byMember;
}

/** A group whose members can be read before anyone asks (it has a members link), as a list of 0 or 1. */
function linkedGroup(id: string, href: string | undefined): { id: string; href: string }[] {
  return href === undefined ? [] : [{ id, href }];
}

/** A prefetch's failure is left to the field that reads the list (the cache forgets it). */
export function ignore(): void {}
