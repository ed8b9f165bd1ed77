/**
 * Everything one request's network loaders remember, in one place: the cached calls (by key), the
 * by-id DataLoaders and the keys primed into them, and every other request-scoped map, set or
 * loader the reads below keep. `forget` is the one place a change makes them forget what it
 * touched (changes.ts); a module that keeps state asks for it here (`map`, `set`, `lazy`) and
 * never has to be named in `forget`.
 *
 * With batching off (the naive plan the benchmark compares against) nothing is cached: `memo`
 * runs every call afresh.
 */
import type DataLoader from 'dataloader';
import { writes, type WritableKind } from './changes';
import type { RecordFor, ResourceKind } from './resources';

export type ByIdTable = { [K in ResourceKind]: DataLoader<string, RecordFor<K>> };

interface Clearable {
  clear(): void;
}

/** Reads of one kind alone besides its lists: forgotten with the kind's own reads. */
const OWN_READS: Partial<Record<ResourceKind, string>> = { networkConfigMetadata: 'ncm-of:', cloudSubscription: 'sites:' };

export function recordKey(id: string, networkId?: string | null): string {
  return networkId ? `${networkId}/${id}` : id;
}

export function splitKey(key: string): { id: string; networkId?: string } {
  const slash = key.indexOf('/');
  return slash < 0 ? { id: key } : { networkId: key.slice(0, slash), id: key.slice(slash + 1) };
}

export class RequestCache {
  private readonly calls = new Map<string, Promise<unknown>>();
  /** The by-id loader of each kind read so far (made on first use: a request reads a few kinds of the sixteen). */
  readonly byKind: Partial<ByIdTable> = {};
  /** Keys of every record primed in this request, by kind: what a by-id load answers without a call. */
  readonly primed = new Map<ResourceKind, Set<string>>();
  private readonly state: Clearable[] = [];
  private readonly loaders: { clearAll(): unknown }[] = [];

  constructor(readonly batching: boolean) {}

  /** What `memo` cached under `key` (nothing with batching off). */
  cached<T>(key: string): Promise<T> | undefined {
    return this.batching ? (this.calls.get(key) as Promise<T> | undefined) : undefined; // only `memo` writes this map, with the same key → same T
  }

  has(key: string): boolean {
    return this.calls.has(key);
  }

  /** Cached per request when batching; a fresh call every time otherwise. */
  memo<T>(key: string, run: () => Promise<T>): Promise<T> {
    if (!this.batching) return run();
    const hit = this.cached<T>(key);
    if (hit !== undefined) return hit;
    const started = run();
    this.calls.set(key, started);
    started.catch(() => this.calls.delete(key)); // a failure is not remembered: a later field may retry
    return started;
  }

  /** A request-scoped map, emptied when the graph is forgotten. */
  map<K, V>(): Map<K, V> {
    const made = new Map<K, V>();
    this.state.push(made);
    return made;
  }

  /** A request-scoped set, emptied when the graph is forgotten. */
  set<T>(): Set<T> {
    const made = new Set<T>();
    this.state.push(made);
    return made;
  }

  /** A loader made on first use (a one-record query needs none), cleared when the graph is forgotten. */
  lazy<L extends { clearAll(): unknown }>(make: () => L): () => L {
    let made: L | null = null;
    return () => {
      if (made === null) {
        made = make();
        this.loaders.push(made);
      }
      return made;
    };
  }

  /**
   * After a change of `kind` (answered, or maybe applied), as its `forgets` says (changes.ts):
   * `graph` forgets everything cached in this request (a change can touch lists, memberships,
   * indexes and counts far from its record; the cache lives for one operation, so re-reading is
   * cheap and always right); `own` forgets the kind's records and lists. Process lists go either
   * way: a change may start a process.
   */
  forget(kind: WritableKind): void {
    if (writes[kind].forgets === 'graph') {
      this.calls.clear();
      this.primed.clear();
      for (const clearable of this.state) clearable.clear();
      for (const loader of Object.values(this.byKind)) loader?.clearAll();
      for (const loader of this.loaders) loader.clearAll();
      return;
    }
    const stale = [`list:${kind}:`, `listAt:${kind}:`, 'processes:'];
    const own = OWN_READS[kind];
    if (own !== undefined) stale.push(own);
    for (const key of this.calls.keys()) if (stale.some((prefix) => key.startsWith(prefix))) this.calls.delete(key);
    this.byKind[kind]?.clearAll();
    this.primed.delete(kind);
  }
}
