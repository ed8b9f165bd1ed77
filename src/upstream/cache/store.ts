/**
 * The private upstream cache: responses to GETs, per credential (a keyed hash of it, never the
 * credential), with RFC 9111 semantics as a private cache (http-cache-semantics): `no-store` is
 * never kept, `no-cache` and stale entries are revalidated with their ETag / Last-Modified, `Vary`
 * is checked against the stored request. A response with neither `Cache-Control` nor `Expires` is
 * kept only when the operator gave its resource kind a TTL (`UPSTREAM_CACHE_TTLS`); nothing is
 * guessed from `Last-Modified` alone. Held in this process's memory, never in Redis: cached records
 * may hold secrets. Bounded twice (lru-cache, least recently used first): in bytes, counting each
 * entry's key, policy, path and index slots as well as its answer (`bytesOf`), and in entries.
 *
 * Changes make entries stale for every credential (`invalidate`, change-scope.ts); the entries are
 * filed by scope (scope-index.ts), so a change visits only what it touched. A read that was in
 * flight when a change it touches came is not kept, so a caller reads its own write.
 */
import CachePolicy from 'http-cache-semantics';
import { LRUCache } from 'lru-cache';
import type { UpstreamService } from '../../errors/codes';
import { kindOf, reachOf, scopesOf, segmentsOf, servicePath, staleTestOf, type ChangeNotice, type StaleTest } from './change-scope';
import { ScopeIndex } from './scope-index';

export interface UpstreamCacheSettings {
  /** Bytes the entries may take (`bytesOf`: keys, answers, policies, index slots); 0 turns the cache off. */
  readonly maxBytes: number;
  /** Entries it may hold, however small. @default 100_000 */
  readonly maxEntries?: number;
  /** Seconds a header-less response of a resource kind is fresh (`dataCenters` → 300). */
  readonly ttls: ReadonlyMap<string, number>;
  /** Milliseconds since the epoch (tests inject a clock). */
  readonly now?: () => number;
}

/** A stored answer: what a hit hands out (each caller its own parsed copy). */
export interface StoredAnswer {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

export interface CacheEntry {
  readonly policy: CachePolicy;
  readonly answer: StoredAnswer;
  readonly service: UpstreamService;
  readonly segments: readonly string[];
  /** Where the index files it (change-scope.ts `scopesOf`). */
  readonly scopes: readonly string[];
  /** What the byte bound counts for it (`bytesOf`), computed once. */
  readonly bytes: number;
}

/** What the cache step asks about one read. */
export interface CacheRequest {
  readonly service: UpstreamService;
  /** Path and query as sent (the base's prefix included). */
  readonly pathAndQuery: string;
  readonly pathname: string;
  readonly credentialKey: string;
  /** Request headers as the policy sees them (accept, cache-control, conditionals); never the credential. */
  readonly headers: Readonly<Record<string, string>>;
}

/** Changes remembered, so a read in flight across one is not kept. */
const CHANGE_LOG = 128;

export const DEFAULT_MAX_ENTRIES = 100_000;

export class UpstreamCache {
  private readonly entries: LRUCache<string, CacheEntry>;
  private readonly Policy: typeof CachePolicy;
  private changeSeq = 0;
  /** The scopes each recent change reached. */
  private readonly changes: Array<{ seq: number; reach: ReadonlySet<string> }> = [];
  private readonly listeners = new Set<(test: StaleTest) => void>();
  private readonly index = new ScopeIndex();
  /** Entries looked at by changes, since the start (tests: a change visits only what it touched). */
  private visits = 0;

  constructor(private readonly settings: UpstreamCacheSettings) {
    this.entries = new LRUCache<string, CacheEntry>({
      // lru-cache reserves its slots up front: one when the cache is off.
      max: settings.maxBytes > 0 ? Math.max(1, settings.maxEntries ?? DEFAULT_MAX_ENTRIES) : 1,
      maxSize: Math.max(1, settings.maxBytes),
      sizeCalculation: (entry) => entry.bytes,
      // The index follows the entries: filed when one comes in, unfiled whenever one leaves
      // (evicted, replaced, deleted, cleared).
      onInsert: (entry, key, reason) => {
        if (reason !== 'update') this.index.add(key, entry.scopes);
      },
      dispose: (entry, key) => this.index.remove(key, entry.scopes),
    });
    const now = settings.now ?? Date.now;
    // The policy reads the time through `now()` (its constructor does too): one class per clock.
    this.Policy = class extends CachePolicy {
      now(): number {
        return now();
      }
    };
  }

  get enabled(): boolean {
    return this.settings.maxBytes > 0;
  }

  /** Entries held, their bytes, and the index's scopes and (entry, scope) pairs (metrics, tests). */
  get size(): { entries: number; bytes: number; scopes: number; memberships: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize, ...this.index.size };
  }

  /** Entries the changes have looked at since the start. */
  get visited(): number {
    return this.visits;
  }

  keyOf(request: CacheRequest): string {
    return `${request.credentialKey}\n${request.service}\n${request.headers['accept'] ?? ''}\n${request.pathAndQuery}`;
  }

  get(key: string): CacheEntry | undefined {
    return this.entries.get(key);
  }

  /** Where changes stand now: hand it back to `store` so a read in flight across a change is not kept. */
  mark(): number {
    return this.changeSeq;
  }

  /**
   * Keeps `answer` (a 2xx to `request`) when it may be kept; returns the entry, or null when it was
   * not storable, had no caching headers and no TTL, or a change touched it while it was in flight.
   */
  store(key: string, request: CacheRequest, answer: StoredAnswer, mark: number): CacheEntry | null {
    if (!this.enabled) return null;
    const service = request.service;
    const segments = segmentsOf(servicePath(service, request.pathname));
    const explicit = answer.headers['cache-control'] !== undefined || answer.headers['expires'] !== undefined;
    const kind = kindOf(segments);
    const ttl = explicit || kind === undefined ? undefined : this.settings.ttls.get(kind);
    if (!explicit && ttl === undefined) return null;
    const headers = ttl === undefined ? answer.headers : { ...answer.headers, 'cache-control': `private, max-age=${ttl}` };
    const policy = this.policyFor(request, answer.status, headers);
    const validators = headers['etag'] !== undefined || headers['last-modified'] !== undefined;
    if (!policy.storable() || (policy.timeToLive() <= 0 && !validators)) {
      this.entries.delete(key);
      return null;
    }
    const scopes = scopesOf(service, segments);
    if (this.changedSince(mark, scopes)) return null;
    return this.put(key, entryOf(key, policy, answer, service, segments, scopes));
  }

  /** After a 304: the stored answer with the 304's headers merged in, fresh again. */
  revalidated(key: string, entry: CacheEntry, request: CacheRequest, notModified: Readonly<Record<string, string>>, mark: number): CacheEntry {
    const { policy, modified } = entry.policy.revalidatedPolicy(this.requestOf(request), { status: 304, headers: notModified });
    const answer = modified ? entry.answer : { ...entry.answer, headers: { ...entry.answer.headers, ...without(notModified, ['content-length']) } };
    const updated = entryOf(key, policy, answer, entry.service, entry.segments, entry.scopes);
    if (!policy.storable() || this.changedSince(mark, entry.scopes)) {
      this.entries.delete(key);
      return updated;
    }
    return this.put(key, updated);
  }

  /** Makes stale, for every credential, what the change touched; tells the listeners (in-flight sharing). */
  invalidate(change: ChangeNotice): number {
    const reach = reachOf(change);
    this.changeSeq += 1;
    this.changes.push({ seq: this.changeSeq, reach: new Set(reach) });
    if (this.changes.length > CHANGE_LOG) this.changes.shift();
    // Only the entries filed under a scope the change reaches: each of them is stale.
    let dropped = 0;
    for (const scope of reach) {
      for (const key of this.index.keysIn(scope)) {
        this.visits += 1;
        if (this.entries.delete(key)) dropped += 1;
      }
    }
    if (this.listeners.size > 0) {
      const test = staleTestOf(reach);
      for (const listener of this.listeners) listener(test);
    }
    return dropped;
  }

  onInvalidate(listener: (test: StaleTest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.entries.clear();
    this.index.clear();
  }

  requestOf(request: CacheRequest): CachePolicy.Request {
    return { method: 'GET', url: request.pathAndQuery, headers: { ...request.headers } };
  }

  private policyFor(request: CacheRequest, status: number, headers: Readonly<Record<string, string>>): CachePolicy {
    return new this.Policy(this.requestOf(request), { status, headers: { ...headers } }, { shared: false, cacheHeuristic: 0 });
  }

  private changedSince(mark: number, scopes: readonly string[]): boolean {
    if (mark === this.changeSeq) return false;
    const oldest = this.changes[0];
    // Changes older than the log may have touched it: not kept.
    if (oldest === undefined || oldest.seq > mark + 1) return true;
    return this.changes.some((c) => c.seq > mark && scopes.some((scope) => c.reach.has(scope)));
  }

  private put(key: string, entry: CacheEntry): CacheEntry {
    // An entry larger than the whole cache is not kept, nor the older answer it replaces.
    if (entry.bytes <= this.settings.maxBytes) this.entries.set(key, entry);
    else this.entries.delete(key);
    return entry;
  }
}

function entryOf(
  key: string,
  policy: CachePolicy,
  answer: StoredAnswer,
  service: UpstreamService,
  segments: readonly string[],
  scopes: readonly string[],
): CacheEntry {
  return { policy, answer, service, segments, scopes, bytes: bytesOf(key, policy, answer, segments, scopes) };
}

/** Per entry, besides its strings: its slots in lru-cache, the entry and answer objects, its arrays. */
const ENTRY_OVERHEAD = 512;
/** Per string held apart (a segment, a scope): V8's string header. */
const STRING_OVERHEAD = 16;
/** Per scope an entry is filed under: its slot in the scope's set, or a set of its own when it is the only one there. */
const INDEX_SLOT = 80;

/**
 * What the byte bound counts for an entry, strings as UTF-16 (two bytes a character, an upper
 * bound): its key; the answer's text and headers; the policy, by its serialized size (it holds
 * copies of the request's and the response's headers and the parsed Cache-Control); its path
 * segments; its scopes and their slots in the index.
 */
function bytesOf(key: string, policy: CachePolicy, answer: StoredAnswer, segments: readonly string[], scopes: readonly string[]): number {
  let chars = key.length + answer.text.length + JSON.stringify(policy.toObject()).length;
  for (const name in answer.headers) chars += name.length + (answer.headers[name]?.length ?? 0);
  for (const segment of segments) chars += segment.length;
  for (const scope of scopes) chars += scope.length;
  return chars * 2 + ENTRY_OVERHEAD + (segments.length + scopes.length) * STRING_OVERHEAD + scopes.length * INDEX_SLOT;
}

function without(headers: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> {
  const copy = { ...headers };
  for (const name of names) delete copy[name];
  return copy;
}
