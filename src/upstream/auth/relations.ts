/**
 * `children` and `actions` of resource types, by the plan rule in plan.ts, so a domain's type
 * tree with every type's actions costs the same few calls whatever the number of types.
 */
import DataLoader from 'dataloader';
import { appendTo, grouper, type Grouping } from '../multimap';
import { chooseRelationPlan } from './plan';
import { settle, type AuthRequest } from './request';
import { AUTH_RESOURCES, filterKey, type AuthResource, type ListFilter } from './resources';
import type { ResourceActionRecord, ResourceTypeRecord } from './types';

type ListLoader<T> = DataLoader<ListFilter, T[], string>;

/** Direct children of a type, in `childrenIds` order when known. */
export function childrenLoader(req: AuthRequest, resourceTypes: ListLoader<ResourceTypeRecord>): DataLoader<ResourceTypeRecord, ResourceTypeRecord[], string> {
  const answer = relation<ResourceTypeRecord>(req, AUTH_RESOURCES.resourceType, resourceTypes, (t) => ({ parentId: t.id }), grouper((t: ResourceTypeRecord) => t.parentId));
  return new DataLoader<ResourceTypeRecord, ResourceTypeRecord[], string>(
    async (types) => {
      // A type whose childrenIds the upstream sent empty is a leaf: no call needed.
      const open = types.filter((t) => t.childrenIds === null || t.childrenIds.length > 0);
      const found = await answer(open);
      const byType = new Map(open.map((t, i) => [t.id, found[i] ?? []] as const));
      return types.map((t) => {
        const result = byType.get(t.id) ?? [];
        return result instanceof Error ? result : inChildrenOrder(result, t.childrenIds);
      });
    },
    { ...req.mode, cacheKeyFn: (t) => t.id },
  );
}

/** Actions defined on a type. */
export function actionsLoader(req: AuthRequest, resourceActions: ListLoader<ResourceActionRecord>): DataLoader<ResourceTypeRecord, ResourceActionRecord[], string> {
  return new DataLoader<ResourceTypeRecord, ResourceActionRecord[], string>(
    relation<ResourceActionRecord>(req, AUTH_RESOURCES.resourceAction, resourceActions, (t) => ({ resourceTypeId: t.id }), grouper((a: ResourceActionRecord) => a.resourceTypeId)),
    { ...req.mode, cacheKeyFn: (t) => t.id },
  );
}

/**
 * Answers a per-type relation for a batch of types: grouped by domain, each group planned by
 * chooseRelationPlan, then the unfiltered list, the domain's list, or one list per type (the
 * filter `perParent` gives).
 */
function relation<T>(
  req: AuthRequest,
  res: AuthResource<unknown>,
  list: ListLoader<T>,
  perParent: (type: ResourceTypeRecord) => ListFilter,
  byParent: (items: readonly T[]) => Grouping<string | null, T>,
) {
  return async (types: readonly ResourceTypeRecord[]): Promise<Array<T[] | Error>> => {
    const groups = new Map<string | null, ResourceTypeRecord[]>();
    for (const t of types) appendTo(groups, t.domainId, t);
    const answers = new Map<string, Promise<T[]>>();
    for (const [domainId, group] of groups) {
      const plan = chooseRelationPlan({
        batching: req.options.batching,
        domainId,
        typesInBatch: group.length,
        domainsInBatch: groups.size,
        domainListLoaded: domainId !== null && req.requested.has(filterKey(res, { domainId })),
        allListLoaded: req.requested.has(filterKey(res, {})),
      });
      const source = plan === 'all-list' ? list.load({}) : plan === 'domain-list' && domainId !== null ? list.load({ domainId }) : null;
      const grouped = source?.then(byParent) ?? null;
      for (const t of group) {
        answers.set(t.id, grouped === null ? list.load(perParent(t)) : grouped.then((groups) => [...(groups.get(t.id) ?? [])]));
      }
    }
    return settle(types.map((t) => answers.get(t.id) ?? Promise.resolve([])));
  };
}

function inChildrenOrder(items: ResourceTypeRecord[], childrenIds: string[] | null): ResourceTypeRecord[] {
  if (childrenIds === null) return items;
  const rank = new Map(childrenIds.map((id, i) => [id, i] as const));
  return [...items].sort((a, b) => (rank.get(a.id) ?? Infinity) - (rank.get(b.id) ?? Infinity));
}
