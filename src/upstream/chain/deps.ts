/** What the chain's steps are built from: one object, so a step that needs more adds a field here. */
import type { Registry } from 'prom-client';
import type { UpstreamHealth } from '../health';
import type { RetryPolicy } from '../retry';
import type { UpstreamReads } from '../cache';
import type { CacheVerdicts } from '../cache/cache-step';

export interface ChainDeps {
  readonly retry: RetryPolicy;
  /** Where the chain's metrics are exposed (none: kept but not exposed). */
  readonly metrics: Registry | undefined;
  /** Sharing and caching of reads across requests (../cache); none: every call goes to the network. */
  readonly reads?: UpstreamReads | undefined;
  /** The caller verifier the cache asks before a cached copy answers a token; none: not asked. */
  readonly verdicts?: CacheVerdicts | undefined;
  /** Each platform API's breaker, Retry-After window and retry budget. */
  readonly health: UpstreamHealth;
}
