/**
 * Automatic persisted queries (APQ): a document registered under its SHA-256 once, then asked
 * for by hash alone. Documents are not caller data (any caller may send any document), so one
 * store serves everybody. Bounded both ways: a size cap per document and in all, and an expiry.
 */
import type { PersistedQueryStore } from '../persisted/store';
import { PREFIX, type RedisLink } from './redis';

export type { PersistedQueryStore };

export interface PersistedQueryLimits {
  /** Largest document kept, in characters (the gateway's `MAX_DOCUMENT_BYTES`). */
  maxDocumentBytes: number;
  /** How long a registration lives after its last use. */
  ttlMs: number;
  /** Characters kept in all (memory store): the least recently used go first. @default 32 MiB */
  maxTotalBytes?: number;
}

const DEFAULT_TOTAL_BYTES = 32 * 1024 * 1024;

/**
 * One process's store: a Map in use order (a hit moves its entry to the end), trimmed from the
 * front past the total size, each entry expiring `ttlMs` after its last use.
 */
export class MemoryPersistedQueries implements PersistedQueryStore {
  private readonly entries = new Map<string, { query: string; expires: number }>();
  private total = 0;

  constructor(private readonly limits: PersistedQueryLimits) {}

  get(sha256Hex: string): Promise<string | null> {
    return Promise.resolve(this.lookup(sha256Hex));
  }

  set(sha256Hex: string, query: string): Promise<void> {
    this.store(sha256Hex, query);
    return Promise.resolve();
  }

  /** The synchronous read, for a store layered over this one. */
  lookup(sha256Hex: string): string | null {
    const entry = this.entries.get(sha256Hex);
    if (entry === undefined) return null;
    const now = Date.now();
    if (entry.expires <= now) {
      this.remove(sha256Hex);
      return null;
    }
    this.entries.delete(sha256Hex);
    entry.expires = now + this.limits.ttlMs;
    this.entries.set(sha256Hex, entry);
    return entry.query;
  }

  store(sha256Hex: string, query: string): void {
    if (query.length > this.limits.maxDocumentBytes) return;
    this.remove(sha256Hex);
    this.entries.set(sha256Hex, { query, expires: Date.now() + this.limits.ttlMs });
    this.total += query.length;
    const max = this.limits.maxTotalBytes ?? DEFAULT_TOTAL_BYTES;
    for (const key of this.entries.keys()) {
      if (this.total <= max) break;
      this.remove(key);
    }
  }

  size(): number {
    return this.entries.size;
  }

  private remove(key: string): void {
    const entry = this.entries.get(key);
    if (entry === undefined) return;
    this.entries.delete(key);
    this.total -= entry.query.length;
  }
}

/**
 * The fleet's store: registrations in Redis (`SET … PX`, refreshed on use), so a hash registered
 * on one replica is served by every other; in front of it, this replica's memory store, which
 * also answers alone while Redis is not reachable (a registration made meanwhile reaches Redis
 * when it is used again).
 */
export class RedisPersistedQueries implements PersistedQueryStore {
  private readonly local: MemoryPersistedQueries;

  constructor(
    private readonly link: RedisLink,
    private readonly limits: PersistedQueryLimits,
  ) {
    this.local = new MemoryPersistedQueries({ ...limits, maxTotalBytes: Math.min(limits.maxTotalBytes ?? DEFAULT_TOTAL_BYTES, 8 * 1024 * 1024) });
  }

  async get(sha256Hex: string): Promise<string | null> {
    const local = this.local.lookup(sha256Hex);
    if (!this.link.isUp) return local;
    const key = keyOf(sha256Hex);
    try {
      // Read and refresh its expiry in one trip.
      const query = await this.link.client.eval(GET_AND_REFRESH, 1, key, this.limits.ttlMs);
      if (typeof query === 'string') {
        if (local === null) this.local.store(sha256Hex, query);
        return query;
      }
      if (local !== null) await this.link.client.set(key, local, 'PX', this.limits.ttlMs);
      return local;
    } catch {
      return local;
    }
  }

  async set(sha256Hex: string, query: string): Promise<void> {
    if (query.length > this.limits.maxDocumentBytes) return;
    this.local.store(sha256Hex, query);
    if (!this.link.isUp) return;
    await this.link.client.set(keyOf(sha256Hex), query, 'PX', this.limits.ttlMs).catch(() => undefined);
  }
}

const keyOf = (sha256Hex: string): string => `${PREFIX}apq:${sha256Hex}`;
const GET_AND_REFRESH = `local v = redis.call('GET', KEYS[1]) if v then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end return v`;
