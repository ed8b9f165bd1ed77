/**
 * Per-request loaders over core/v2 (created by the context, never shared between requests or
 * callers). Resolvers use these; these use the client; the client uses the HTTP layer.
 *
 * - `byId`: one DataLoader per kind keyed by id, primed by every list answer;
 * - `all(kind, networkId)`: every record of a kind in one network (the list filtered by
 *   `networkId`, and filtered again in memory, so an upstream that ignores the filter still gives
 *   the right answer), cached for the request: the explainer and the network's own connections
 *   share it;
 * - `list`: a window of a kind's whole list (root connections), cached by window and filters;
 * - `create`: one POST through the one sender (../writes.ts); the answer read with the rest/v1
 *   answer readers (entity in the body, `_links.self`, `Location`) plus the execution link; the
 *   caches of the created kind are dropped so fields read after it see the new state.
 */
import DataLoader from 'dataloader';
import { UpstreamError } from '../../errors/codes';
import { Writer } from '../writes';
import type { HttpClient } from '../http-types';
import type { LoaderOptions } from '../loader-options';
import type { PagedResult, PageWindow } from '../paging';
import type { JsonObject } from '../../core/parse';
import { entityOf, idOf } from '../network/change-answer';
import { CoreV2Client } from './client';
import { executionHrefOf, type V2ExecutionRecord } from './executions';
import { v2Resources, type V2Kind, type V2RecordFor } from './resources';

/** What a create answered (the v2 payload types' mapper). */
export interface V2ChangeResult<R> {
  httpStatus: number;
  /** 202: the resource is being provisioned (follow `resourceStatus` or the execution). */
  accepted: boolean;
  /** Id of the new resource (the answer's body, `_links.self` or `Location`). */
  id: string | null;
  /** The execution's href (`_links.execution`, older `_links.process`); null without one. */
  executionHref: string | null;
  /** The resource as the answer held it; null when it held none we could read. */
  record: R | null;
}

export interface CoreV2Loaders {
  readonly client: CoreV2Client;
  byId<K extends V2Kind>(kind: K, id: string): Promise<V2RecordFor<K>>;
  all<K extends V2Kind>(kind: K, networkId: string): Promise<V2RecordFor<K>[]>;
  list<K extends V2Kind>(kind: K, window: PageWindow, query?: Record<string, string>): Promise<PagedResult<V2RecordFor<K>>>;
  create<K extends V2Kind>(kind: K, body: JsonObject): Promise<V2ChangeResult<V2RecordFor<K>>>;
  /**
   * Starts the lists of one network that nested fields will need, alongside the caller's own call
   * (selection lookahead). A failure is left to the field that reads the list; without caching
   * (batching off) nothing is started.
   */
  prefetch(networkId: string, kinds: Iterable<V2Kind>): void;
  /** The execution behind a create; null while the upstream does not know it yet (403/404 right after). */
  execution(href: string): Promise<V2ExecutionRecord | null>;
}

type AnyRecord = V2RecordFor<V2Kind>;

export function createCoreV2Loaders(http: HttpClient, options: LoaderOptions): CoreV2Loaders {
  const cache = options.batching;
  const byIdLoaders = new Map<V2Kind, DataLoader<string, AnyRecord>>();
  /** Keyed `${kind}|…`, so a kind's entries can be forgotten alone. */
  const lists = new Map<string, Promise<PagedResult<AnyRecord>>>();
  const alls = new Map<string, Promise<AnyRecord[]>>();
  const executions = new Map<string, Promise<V2ExecutionRecord | null>>();

  /** After a create of `kind`: its records and lists (v2CreateHint in resources.ts says why only those). */
  function forget(kind: V2Kind): void {
    byIdLoaders.get(kind)?.clearAll();
    for (const map of [lists, alls]) for (const key of map.keys()) if (key.startsWith(`${kind}|`)) map.delete(key);
  }
  const client = new CoreV2Client(http, new Writer(http, 'core-v2', forget));

  function loaderOf(kind: V2Kind): DataLoader<string, AnyRecord> {
    let loader = byIdLoaders.get(kind);
    if (!loader) {
      loader = new DataLoader<string, AnyRecord>((ids) => Promise.all(ids.map((id) => client.get(kind, id).catch((e: unknown) => (e instanceof Error ? e : new Error(String(e)))))), { cache, batch: cache });
      byIdLoaders.set(kind, loader);
    }
    return loader;
  }

  function prime(kind: V2Kind, records: readonly AnyRecord[]): void {
    if (!cache) return;
    const loader = loaderOf(kind);
    for (const record of records) loader.clear(record.id).prime(record.id, record);
  }

  function cached<T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>): Promise<T> {
    if (!cache) return load();
    let hit = map.get(key);
    if (!hit) {
      hit = load();
      map.set(key, hit);
      // A failed call is not cached.
      hit.catch(() => map.delete(key));
    }
    return hit;
  }

  // The maps hold records of every kind; each kind's entries come from that kind's parser.
  const typed = <K extends V2Kind>(_kind: K, value: Promise<AnyRecord>): Promise<V2RecordFor<K>> => value as Promise<V2RecordFor<K>>;

  return {
    client,
    byId: (kind, id) => typed(kind, loaderOf(kind).load(id)),
    all(kind, networkId) {
      const load = async (): Promise<AnyRecord[]> => {
        const { items } = await client.listWindow(kind, { offset: 0, count: Infinity }, { networkId });
        const mine = items.filter((r) => 'networkId' in r && r.networkId === networkId);
        prime(kind, mine);
        return mine;
      };
      return cached(alls, `${kind}|${networkId}`, load) as Promise<V2RecordFor<typeof kind>[]>;
    },
    prefetch(networkId, kinds) {
      if (!cache) return;
      for (const kind of kinds) this.all(kind, networkId).catch(() => undefined);
    },
    list(kind, window, query = {}) {
      const key = `${kind}|${window.offset}|${window.count}|${JSON.stringify(query)}`;
      const load = async (): Promise<PagedResult<AnyRecord>> => {
        const result = await client.listWindow(kind, window, query);
        prime(kind, result.items);
        return result;
      };
      return cached(lists, key, load) as Promise<PagedResult<V2RecordFor<typeof kind>>>;
    },
    async create(kind, body) {
      const answer = await client.create(kind, body);
      const record = entityOf(answer, kind, v2Resources[kind].parse);
      if (record !== null) prime(kind, [record]);
      return { httpStatus: answer.status, accepted: answer.status === 202, id: record?.id ?? idOf(answer), executionHref: executionHrefOf(answer), record };
    },
    execution(href) {
      const load = () =>
        client.execution(href).catch((error: unknown) => {
          if (error instanceof UpstreamError && (error.code === 'NOT_FOUND' || error.code === 'FORBIDDEN')) return null;
          throw error;
        });
      return cached(executions, href, load);
    },
  };
}


/** The payload types' mappers (codegen.yml): one per created kind. */
export type V2NetworkChange = V2ChangeResult<V2RecordFor<'network'>>;
export type EdgeRouterChange = V2ChangeResult<V2RecordFor<'edgeRouter'>>;
export type EdgeRouterPolicyChange = V2ChangeResult<V2RecordFor<'edgeRouterPolicy'>>;
export type V2ServiceChange = V2ChangeResult<V2RecordFor<'service'>>;
export type V2AppWanChange = V2ChangeResult<V2RecordFor<'appWan'>>;
export type V2EndpointChange = V2ChangeResult<V2RecordFor<'endpoint'>>;
/** Any create (the `V2ChangePayload` interface). */
export type AnyV2Change = V2ChangeResult<{ id: string }>;
