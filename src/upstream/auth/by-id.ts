/**
 * A by-id loader. Two or more ids in one batch are answered from the resource's unfiltered list
 * (plan.ts `byIdFromList`; `publicGrants { resourceAction }` costs one call, not one per grant);
 * an id the list lacks (or a failed list) falls back to `GET {path}/{id}`.
 */
import DataLoader from 'dataloader';
import { byIdFromList } from './plan';
import { settle, type AuthRequest } from './request';
import type { AuthResource } from './resources';

export function byIdLoader<T extends { id: string }>(
  req: AuthRequest,
  res: AuthResource<T>,
  wholeList: () => Promise<T[]>,
  keysOf: (item: T) => ReadonlyArray<string | null> = (item) => [item.id],
  onLoad: (item: T) => void = () => undefined,
): DataLoader<string, T> {
  const getOne = async (id: string): Promise<T> => {
    const item = await req.client.get(res, id);
    onLoad(item);
    return item;
  };
  return new DataLoader<string, T>(async (ids) => {
    if (!byIdFromList({ batching: req.options.batching, idsInBatch: ids.length })) return settle(ids.map(getOne));
    const all = await wholeList().catch(() => []);
    // One index per batch (the first item wins, as a search would): ids × items comparisons are quadratic.
    const index = new Map<string, T>();
    for (const item of all) for (const key of keysOf(item)) if (key !== null && !index.has(key)) index.set(key, item);
    return settle(ids.map((id) => {
      const found = index.get(id);
      return found === undefined ? getOne(id) : Promise.resolve(found);
    }));
  }, req.mode);
}
