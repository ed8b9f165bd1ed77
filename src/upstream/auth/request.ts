/**
 * What the auth loaders of one request share: the client, the loader mode, and the filter keys of
 * the lists asked so far (the plan rules read them; a change forgets them).
 */
import type { LoaderOptions } from '../loader-options';
import type { AuthClient } from './client';
import { filterKey, type AuthResource, type ListFilter } from './resources';

export interface AuthRequest {
  client: AuthClient;
  options: LoaderOptions;
  /** With batching off, loaders neither batch nor cache (the benchmark's baseline). */
  mode: { batch?: false; cache?: false };
  /** Filter keys of the lists this request has asked for (feeds the plan rule). */
  requested: Set<string>;
}

export function authRequest(client: AuthClient, options: LoaderOptions): AuthRequest {
  return { client, options, mode: options.batching ? {} : { batch: false, cache: false }, requested: new Set<string>() };
}

/** A list's cache key, noted as asked. */
export function trackedKey(req: AuthRequest, res: AuthResource<unknown>, filter: ListFilter): string {
  const key = filterKey(res, filter);
  req.requested.add(key);
  return key;
}

/** Results in key order with an Error in the slot of a failed key (DataLoader's contract). */
export async function settle<T>(promises: Array<Promise<T>>): Promise<Array<T | Error>> {
  const results = await Promise.allSettled(promises);
  return results.map((r) =>
    r.status === 'fulfilled' ? r.value : r.reason instanceof Error ? r.reason : new Error(String(r.reason)),
  );
}
