/**
 * Automatic persisted queries (APQ) in one process: a document registered under its SHA-256 once,
 * then asked for by hash alone. Documents are not caller data (any caller may send any document),
 * so one store serves everybody. Bounded both ways: a size cap per document and in all, and an
 * expiry after the last use (`lru-cache`'s). The fleet's store (redis/persisted-queries.ts) keeps
 * one of these in front of Redis.
 */
import { LRUCache } from 'lru-cache';
import type { PersistedQueryStore } from '../../persisted/store';

export type { PersistedQueryStore };

export interface PersistedQueryLimits {
  /** Largest document kept, in characters (the gateway's `MAX_DOCUMENT_BYTES`). */
  maxDocumentBytes: number;
  /** How long a registration lives after its last use. */
  ttlMs: number;
  /** Characters kept in all (memory store): the least recently used go first. @default 32 MiB */
  maxTotalBytes?: number;
  /** Bytes the fleet's store may hold in Redis, documents and their bookkeeping (`APQ_SHARED_MAX_BYTES`). @default 16 MiB */
  maxSharedBytes?: number;
}

export const DEFAULT_TOTAL_BYTES = 32 * 1024 * 1024;

/** One process's store: least recently used out past the total size, each entry expiring `ttlMs` after its last use. */
export class MemoryPersistedQueries implements PersistedQueryStore {
  private readonly cache: LRUCache<string, string>;

  constructor(private readonly limits: PersistedQueryLimits) {
    this.cache = new LRUCache<string, string>({
      maxSize: limits.maxTotalBytes ?? DEFAULT_TOTAL_BYTES,
      sizeCalculation: (query) => Math.max(1, query.length),
      ttl: limits.ttlMs,
      updateAgeOnGet: true,
      // The wall clock, read on each use (an injected clock in tests moves it).
      perf: { now: () => Date.now() },
      ttlResolution: 0,
    });
  }

  get(sha256Hex: string): Promise<string | null> {
    return Promise.resolve(this.lookup(sha256Hex));
  }

  set(sha256Hex: string, query: string): Promise<void> {
    this.store(sha256Hex, query);
    return Promise.resolve();
  }

  /** The synchronous read, for a store layered over this one. */
  lookup(sha256Hex: string): string | null {
    return this.cache.get(sha256Hex) ?? null;
  }

  store(sha256Hex: string, query: string): void {
    if (query.length > this.limits.maxDocumentBytes) return;
    this.cache.set(sha256Hex, query);
  }

  size(): number {
    return this.cache.size;
  }
}
