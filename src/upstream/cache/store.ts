/**
 * The private upstream cache: responses to GETs, per credential (a keyed hash of it, never the
 * credential), with RFC 9111 semantics as a private cache (http-cache-semantics): `no-store` is
 * never kept, `no-cache` and stale entries are revalidated with their ETag / Last-Modified, `Vary`
 * is checked against the stored request. A response with neither `Cache-Control` nor `Expires` is
 * kept only when the operator gave its resource kind a TTL (`UPSTREAM_CACHE_TTLS`); nothing is
 * guessed from `Last-Modified` alone. Held in this process's memory, bounded in bytes (lru-cache),
 * never in Redis: cached records may hold secrets.
 *
 * Changes make entries stale for every credential (`invalidate`, change-scope.ts); a read that was
 * in flight when a change it touches came is not kept, so a caller reads its own write.
 */
import CachePolicy from 'http-cache-semantics';
import { LRUCache } from 'lru-cache';
import type { UpstreamService } from '../../errors/codes';
import { kindOf, segmentsOf, servicePath, staleTest, type ChangeNotice, type StaleTest } from './change-scope';

export interface UpstreamCacheSettings {
  /** Bytes the entries may take (bodies and headers, roughly); 0 turns the cache off. */
  readonly maxBytes: number;
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

export class UpstreamCache {
  private readonly entries: LRUCache<string, CacheEntry>;
  private readonly Policy: typeof CachePolicy;
  private changeSeq = 0;
  private readonly changes: Array<{ seq: number; test: StaleTest }> = [];
  private readonly listeners = new Set<(test: StaleTest) => void>();

  constructor(private readonly settings: UpstreamCacheSettings) {
    this.entries = new LRUCache<string, CacheEntry>({ maxSize: Math.max(1, settings.maxBytes), sizeCalculation: (entry) => entry.bytes });
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

  /** Entries held and their bytes (metrics, tests). */
  get size(): { entries: number; bytes: number } {
    return { entries: this.entries.size, bytes: this.entries.calculatedSize };
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
    if (this.changedSince(mark, service, segments)) return null;
    return this.put(key, { policy, answer, service, segments, bytes: sizeOf(answer) });
  }

  /** After a 304: the stored answer with the 304's headers merged in, fresh again. */
  revalidated(key: string, entry: CacheEntry, request: CacheRequest, notModified: Readonly<Record<string, string>>, mark: number): CacheEntry {
    const { policy, modified } = entry.policy.revalidatedPolicy(this.requestOf(request), { status: 304, headers: notModified });
    const updated: CacheEntry = { ...entry, policy, answer: modified ? entry.answer : { ...entry.answer, headers: { ...entry.answer.headers, ...without(notModified, ['content-length']) } } };
    if (!policy.storable() || this.changedSince(mark, entry.service, entry.segments)) {
      this.entries.delete(key);
      return updated;
    }
    return this.put(key, updated);
  }

  /** Makes stale, for every credential, what the change touched; tells the listeners (in-flight sharing). */
  invalidate(change: ChangeNotice): number {
    const test = staleTest(change);
    this.changeSeq += 1;
    this.changes.push({ seq: this.changeSeq, test });
    if (this.changes.length > CHANGE_LOG) this.changes.shift();
    let dropped = 0;
    for (const [key, entry] of this.entries.entries()) {
      if (test(entry.service, entry.segments)) {
        this.entries.delete(key);
        dropped += 1;
      }
    }
    for (const listener of this.listeners) listener(test);
    return dropped;
  }

  onInvalidate(listener: (test: StaleTest) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  clear(): void {
    this.entries.clear();
  }

  requestOf(request: CacheRequest): CachePolicy.Request {
    return { method: 'GET', url: request.pathAndQuery, headers: { ...request.headers } };
  }

  private policyFor(request: CacheRequest, status: number, headers: Readonly<Record<string, string>>): CachePolicy {
    return new this.Policy(this.requestOf(request), { status, headers: { ...headers } }, { shared: false, cacheHeuristic: 0 });
  }

  private changedSince(mark: number, service: UpstreamService, segments: readonly string[]): boolean {
    if (mark === this.changeSeq) return false;
    const oldest = this.changes[0];
    // Changes older than the log may have touched it: not kept.
    if (oldest === undefined || oldest.seq > mark + 1) return true;
    return this.changes.some((c) => c.seq > mark && c.test(service, segments));
  }

  private put(key: string, entry: CacheEntry): CacheEntry {
    // An entry larger than the whole cache is not kept (lru-cache would refuse it anyway).
    if (entry.bytes <= this.settings.maxBytes) this.entries.set(key, entry);
    return entry;
  }
}

/** Bytes an entry holds, roughly: the text as UTF-16, the headers, and a fixed share for the policy. */
function sizeOf(answer: StoredAnswer): number {
  let bytes = answer.text.length * 2 + 512;
  for (const key in answer.headers) bytes += (key.length + (answer.headers[key]?.length ?? 0)) * 2;
  return bytes;
}

function without(headers: Readonly<Record<string, string>>, names: readonly string[]): Record<string, string> {
  const copy = { ...headers };
  for (const name of names) delete copy[name];
  return copy;
}
