/**
 * `grant`: one grant by the keys that find it (grants have no read by id), read from the grant
 * list of its kind and identity. Keys of one filter share one list call (the list loader's cache)
 * and one index of that list built once, so a batch of grants costs a call per distinct (kind,
 * identity).
 */
import DataLoader from 'dataloader';
import { GatewayError } from '../../errors/codes';
import { settle, type AuthRequest } from './request';
import { AUTH_RESOURCES, filterKey, type ListFilter } from './resources';
import type { GrantRecord } from './types';

/** What finds one grant: the list filter (its kind and identity) and its `grantId` in that list. */
export interface GrantKey {
  grantType: string;
  grantId: string;
  /** Null for grants of every client (public grants): the list is then not filtered by identity. */
  identityId: string | null;
}

export function grantLoader(req: AuthRequest, grants: DataLoader<ListFilter, GrantRecord[], string>): DataLoader<GrantKey, GrantRecord, string> {
  return new DataLoader<GrantKey, GrantRecord, string>(
    (keys) => {
      const indexes = new Map<string, Promise<Map<string, GrantRecord>>>();
      const indexOf = (key: GrantKey): Promise<Map<string, GrantRecord>> => {
        const filter = { grantType: key.grantType, identityId: key.identityId };
        const listKey = filterKey(AUTH_RESOURCES.grant, filter);
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
    { ...req.mode, cacheKeyFn: grantCacheKey },
  );
}

/** One string per grant key (the grant loader's cache key; the record's own keys when priming). */
function grantCacheKey(key: GrantKey): string {
  return JSON.stringify([key.grantType, key.identityId, key.grantId]);
}
