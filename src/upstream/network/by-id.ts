/**
 * Reads by id: one DataLoader per resource kind, keyed `networkId/id` (or `id` for root kinds),
 * kept in the request cache. Every list and member list primes it (`prime`), so a record seen once
 * is never fetched again; a catalog kind asked for several ids is read as one list.
 */
import DataLoader from 'dataloader';
import type { RestV1Client } from './client';
import { recordKey, splitKey, type ByIdTable, type RequestCache } from './request-cache';
import { resources, type RecordFor, type ResourceKind } from './resources';

export interface ByIdReads {
  byId<K extends ResourceKind>(kind: K, id: string, networkId?: string): Promise<RecordFor<K>>;
  loader<K extends ResourceKind>(kind: K): ByIdTable[K];
  /** Puts listed records in their kind's loader (nothing with batching off, or for a kind with no item path). */
  prime<K extends ResourceKind>(kind: K, records: readonly RecordFor<K>[], networkId?: string): void;
}

/** `all` reads a whole list of a kind (lists.ts): a catalog's several ids take that one call. */
export function createByIdReads(rest: RestV1Client, cache: RequestCache, all: <K extends ResourceKind>(kind: K) => Promise<RecordFor<K>[]>): ByIdReads {
  const batching = cache.batching;
  const dlOptions = batching ? {} : { batch: false, cache: false };

  function makeLoader<K extends ResourceKind>(kind: K): DataLoader<string, RecordFor<K>> {
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

  // The mapped type keeps each kind's record type.
  function loader<K extends ResourceKind>(kind: K): ByIdTable[K] {
    const made: Partial<ByIdTable>[K] = cache.byKind[kind];
    if (made !== undefined) return made;
    // makeLoader(kind) is exactly ByIdTable[K]; TypeScript cannot relate a generic key's write to the mapped type.
    const fresh = makeLoader(kind) as ByIdTable[K];
    cache.byKind[kind] = fresh;
    return fresh;
  }

  function prime<K extends ResourceKind>(kind: K, records: readonly RecordFor<K>[], networkId?: string): void {
    if (!batching || resources[kind].item === null) return;
    const into = loader(kind);
    const scoped = resources[kind].scope === 'network';
    let keys = cache.primed.get(kind);
    if (keys === undefined) cache.primed.set(kind, (keys = new Set()));
    for (const record of records) {
      // Lists across networks (a group's endpoints) carry each record's own network id.
      const own = 'networkId' in record && typeof record.networkId === 'string' ? record.networkId : undefined;
      const key = recordKey(record.id, scoped ? (own ?? networkId) : undefined);
      into.prime(key, record);
      keys.add(key);
    }
  }

  return {
    byId: (kind, id, networkId) => loader(kind).load(recordKey(id, resources[kind].scope === 'network' ? networkId : undefined)),
    loader,
    prime,
  };
}

export function toError(err: unknown): Error {
  return err instanceof Error ? err : new Error(String(err));
}
