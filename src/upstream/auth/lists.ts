/**
 * A list loader, keyed by the canonical filter (the same list asked twice costs one call); every
 * list primes the by-id loaders. With `domainOf`, filters on `domainId` alone may be served from
 * the unfiltered list grouped in memory (plan.ts `useUnfilteredList`): `domains { resourceTypes }`
 * costs one call.
 */
import DataLoader from 'dataloader';
import { grouper } from '../multimap';
import { useUnfilteredList } from './plan';
import { settle, trackedKey, type AuthRequest } from './request';
import { filterKey, type AuthResource, type ListFilter } from './resources';

export function listLoader<T>(
  req: AuthRequest,
  res: AuthResource<T>,
  prime: (item: T) => void,
  domainOf?: (item: T) => string | null,
): DataLoader<ListFilter, T[], string> {
  const byDomainOf = domainOf === undefined ? null : grouper(domainOf);
  const fetchList = async (filter: ListFilter): Promise<T[]> => {
    const items = await req.client.list(res, filter);
    items.forEach(prime);
    return items;
  };
  const loader: DataLoader<ListFilter, T[], string> = new DataLoader<ListFilter, T[], string>(
    (filters) => {
      const byDomain = filters.filter(isDomainOnly);
      const unfiltered =
        domainOf !== undefined &&
        useUnfilteredList({
          batching: req.options.batching,
          domainFiltersInBatch: byDomain.length,
          allListLoaded: req.requested.has(filterKey(res, {})),
        });
      return settle(
        filters.map((filter) => {
          const domainId = filter['domainId'];
          if (!unfiltered || byDomainOf === null || !isDomainOnly(filter) || typeof domainId !== 'string') return fetchList(filter);
          return loader.load({}).then((all) => [...(byDomainOf(all).get(domainId) ?? [])]);
        }),
      );
    },
    { ...req.mode, cacheKeyFn: (filter) => trackedKey(req, res, filter) },
  );
  return loader;
}

/** True for a filter on `domainId` and nothing else. */
function isDomainOnly(filter: ListFilter): boolean {
  return (
    typeof filter['domainId'] === 'string' &&
    Object.entries(filter).every(([key, value]) => key === 'domainId' || value === null || value === undefined)
  );
}
