/**
 * Sharing and caching of upstream reads across requests (see README.md): what the chain's "cache"
 * and "in-flight sharing" steps are built from, made once per HTTP layer.
 */
import { createChangeFeed, type ChangeBus, type ChangeFeed } from './changes';
import { UpstreamCache } from './store';

export type { ChangeBus, ChangeFeed } from './changes';
export type { ChangeNotice } from './change-scope';

export interface UpstreamReadSettings {
  /** Identical GETs in flight at once share one call (`UPSTREAM_SHARING`). */
  readonly sharing: boolean;
  /** The private cache's byte bound; 0: no cache (`UPSTREAM_CACHE_MAX_BYTES`). */
  readonly maxBytes: number;
  /** The private cache's entry cap (`UPSTREAM_CACHE_MAX_ENTRIES`). @default 100_000 */
  readonly maxEntries?: number;
  /** Freshness of header-less responses per resource kind (`UPSTREAM_CACHE_TTLS`). */
  readonly ttls: ReadonlyMap<string, number>;
  /** How long past freshness an entry may answer while its API's breaker is open; 0: never (`UPSTREAM_CACHE_STALE_IF_ERROR_SECONDS`). @default 0 */
  readonly staleIfErrorSeconds?: number;
  /** The cache's clock (tests inject one). @default Date.now */
  readonly now?: () => number;
}

export interface UpstreamReads {
  readonly sharing: boolean;
  readonly cache: UpstreamCache;
  /** Changes sent through the gateway (this replica's and, with a bus, the fleet's). */
  readonly changes: ChangeFeed;
  readonly now: () => number;
  readonly staleIfErrorSeconds: number;
}

export function createUpstreamReads(settings: UpstreamReadSettings, bus: ChangeBus | null = null): UpstreamReads {
  const now = settings.now ?? Date.now;
  const cache = new UpstreamCache({ maxBytes: settings.maxBytes, ...(settings.maxEntries === undefined ? {} : { maxEntries: settings.maxEntries }), ttls: settings.ttls, now });
  return { sharing: settings.sharing, cache, changes: createChangeFeed(cache, bus), now, staleIfErrorSeconds: settings.staleIfErrorSeconds ?? 0 };
}
