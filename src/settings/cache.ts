/** Sharing and caching of upstream reads across requests (src/upstream/cache). */
import { ConfigError, area, custom, int, onOff, type SettingsOf } from './setting';

export const UPSTREAM_SHARING = onOff({
  name: 'UPSTREAM_SHARING',
  meaning: 'identical upstream GETs (same service, URL, `Accept` and credential) in flight at once share one call, across requests',
  fallback: true,
});
export const UPSTREAM_CACHE_MAX_BYTES = int({
  name: 'UPSTREAM_CACHE_MAX_BYTES',
  meaning: "memory the private upstream cache may hold on each replica (never in Redis); it keeps what the platform's `Cache-Control`/`Expires` allow, per credential. `0` turns it off",
  min: 0,
  max: 16 * 1024 * 1024 * 1024,
  fallback: 64 * 1024 * 1024,
  defaultText: '`67108864` (64 MiB)',
});
export const UPSTREAM_CACHE_MAX_ENTRIES = int({
  name: 'UPSTREAM_CACHE_MAX_ENTRIES',
  meaning:
    'entries the private upstream cache may hold on each replica, however small (least recently used go first); a second bound beside `UPSTREAM_CACHE_MAX_BYTES`, whose count includes each entry\'s key, policy and index slots. The cache reserves about 25 bytes per allowed entry up front',
  min: 1,
  max: 5_000_000,
  fallback: 100_000,
});
export const UPSTREAM_CACHE_TTLS = custom<ReadonlyMap<string, number>>({
  name: 'UPSTREAM_CACHE_TTLS',
  meaning:
    'how long responses of a resource kind (the collection its path ends in: `dataCenters`, `geoRegions`, `networkConfigMetadata`) that carry no caching header stay fresh ([Caching](caching.md))',
  defaultText: 'none: header-less responses are never cached',
  rangeText: '`kind=seconds` pairs, comma-separated',
  read(env) {
    const value = env.text('UPSTREAM_CACHE_TTLS');
    const ttls = new Map<string, number>();
    if (value === undefined) return ttls;
    for (const pair of value.split(',')) {
      const match = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*(\d{1,7})\s*$/.exec(pair);
      if (match === null || match[1] === undefined || match[2] === undefined) {
        throw new ConfigError(`UPSTREAM_CACHE_TTLS must be kind=seconds pairs separated by commas (e.g. dataCenters=300,geoRegions=300); got ${JSON.stringify(pair.trim())}`);
      }
      ttls.set(match[1], Number(match[2]));
    }
    return ttls;
  },
});
export const UPSTREAM_CACHE_STALE_IF_ERROR_SECONDS = int({
  name: 'UPSTREAM_CACHE_STALE_IF_ERROR_SECONDS',
  meaning: "while an API's circuit breaker is open, a cached answer past its freshness by at most this long answers instead of the error, and the response says how old it is (`extensions.staleUpstream`); `0`: off",
  min: 0,
  max: 7 * 86_400,
  fallback: 0,
});

export const CACHE = area({
  title: 'Upstream cache',
  intro: 'Without settings the gateway answers exactly as fresh as the platform allows: only responses with caching headers are kept, per credential ([Caching](caching.md)).',
  settings: {
    sharing: UPSTREAM_SHARING,
    maxBytes: UPSTREAM_CACHE_MAX_BYTES,
    maxEntries: UPSTREAM_CACHE_MAX_ENTRIES,
    ttls: UPSTREAM_CACHE_TTLS,
    staleIfErrorSeconds: UPSTREAM_CACHE_STALE_IF_ERROR_SECONDS,
  },
});

export type CacheSettings = SettingsOf<typeof CACHE>;
