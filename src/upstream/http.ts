/**
 * The one HTTP layer every upstream client goes through. `forCaller` gives one caller's
 * `HttpClient`: its calls pass the upstream chain (chain/index.ts: target check, quota, budget,
 * trace, cache, sharing, breaker and window, pool share, retry, metrics, send), at most
 * `maxConcurrentPerRequest` of them at once.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { Registry } from 'prom-client';
import { UPSTREAM_APIS, type OwnAddressService, type UpstreamService } from '../core/upstream-apis';
import type { HttpClient } from './http-types';
import { onAbort, type CancelSignal } from '../core/cancellation';
import type { ServiceBase } from './link-target';
import type { RetryPolicy } from './retry';
import type { UpstreamReads } from './cache';
import type { CallerOptions, CallerScope, UpstreamQuota } from './chain/call';
import type { CacheVerdicts } from './cache/cache-step';
import { createUpstreamChain } from './chain';
import { createSender, DEFAULT_MAX_BODY_BYTES } from './chain/send';
import { DEFAULT_RESILIENCE, realTimers, UpstreamHealth, type ClosureBoard, type Clock, type HealthSettings, type Timers } from './health';
import { cancelled, requestInfo } from './chain/stopped';

export type { CallBudget, CallerOptions, UpstreamQuota } from './chain/call';

export interface HttpLayerConfig {
  /** The platform's `{base_url}` (may carry a path prefix). */
  upstreamBaseUrl: string;
  /** The search service's address; null when not configured. */
  searchUrl: string | null;
  searchCredentials: { username: string; password: string } | null;
  timeouts: { connectMs: number; headersMs: number; bodyMs: number };
  retry: RetryPolicy;
  /** Upstream calls one GraphQL request may have in flight at once. */
  maxConcurrentPerRequest: number;
  /** Where the upstream call histogram is exposed (none: it is kept but not exposed). */
  metrics?: Registry;
  /** A per-caller quota of upstream calls (`CALLER_UPSTREAM_CALLS_PER_MINUTE`); none when unset. */
  quota?: UpstreamQuota;
  /** Sharing and caching of reads across requests (src/upstream/cache); none: every call goes out. */
  reads?: UpstreamReads;
  /** The caller verifier: a cached read answers a token only while its acceptance is current (../cache/cache-step.ts). */
  verdicts?: CacheVerdicts;
  /** Breaker and retry budget settings per API (health/index.ts `DEFAULT_RESILIENCE` when unset). */
  resilience?: Omit<HealthSettings, 'maxWindowMs'>;
  /** Openings shared with the other replicas (src/state/redis/upstream-closures.ts); none: this process alone. */
  closures?: ClosureBoard;
  /** The clock of breakers, windows and budgets (tests move their own). */
  clock?: Clock;
  /** The timers of slow-call marks (tests fire their own). */
  timers?: Timers;
  /** Largest upstream body read, in bytes (`UPSTREAM_MAX_BODY_BYTES`). */
  maxBodyBytes?: number;
  /** Pass the caller's `tracestate` on to the platform (`UPSTREAM_FORWARD_TRACESTATE`); off: `traceparent` only. */
  forwardTracestate?: boolean;
}

export interface HttpLayer {
  forCaller(options: CallerOptions): HttpClient;
  /** Base URL of each configured service (for the readiness probe). */
  serviceUrls(): ReadonlyArray<{ service: UpstreamService; url: string }>;
  close(): Promise<void>;
}

/** The address of each service not at the platform's `{base_url}` (a row without a `path`); null: not configured. */
function ownAddresses(config: HttpLayerConfig): Record<OwnAddressService, string | null> {
  return { search: config.searchUrl };
}

/** The layer, and each platform API's breaker, window and retry budget (for /readyz, the map, the metrics). */
export type HttpLayerWithHealth = HttpLayer & { readonly health: UpstreamHealth };

export function createHttpLayer(config: HttpLayerConfig): HttpLayerWithHealth {
  const bases = serviceBases(config);
  const searchAuthorization = config.searchCredentials
    ? `Basic ${Buffer.from(`${config.searchCredentials.username}:${config.searchCredentials.password}`).toString('base64')}`
    : null;
  const now = config.clock ?? Date.now;
  const sender = createSender({ timeouts: config.timeouts, maxBodyBytes: config.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES, forwardTracestate: config.forwardTracestate ?? false, now });
  const health = new UpstreamHealth({ ...(config.resilience ?? DEFAULT_RESILIENCE), maxWindowMs: config.retry.maxRetryAfterMs }, now, config.metrics, config.closures ?? null, config.timers ?? realTimers);
  const chain = createUpstreamChain({ retry: config.retry, metrics: config.metrics, health, reads: config.reads, verdicts: config.verdicts }, { bases, searchAuthorization }, sender.send);
  // Credential keys are keyed hashes under a key that never leaves the process: the fleet's
  // (derived from FLEET_TOKEN_KEY, so a 429's window is the same credential's on every replica), or this process's own.
  const credentialKeyOf = credentialKeyer(config.closures?.credentialSecret ?? randomBytes(32));

  function forCaller(caller: CallerOptions): HttpClient {
    const limit = createLimiter(config.maxConcurrentPerRequest);
    let key: string | undefined;
    const scope: CallerScope = {
      options: caller,
      spendQuota: caller.unmetered === true ? null : (config.quota?.forCaller(caller.authorization) ?? null),
      credentialKey: () => (key ??= credentialKeyOf(caller.authorization)),
    };
    return {
      send: (request) => {
        const signal = request.method === 'GET' && caller.budget ? caller.budget.signal : caller.signal;
        return limit(
          signal,
          () => chain.run(request, scope),
          // A call still queued when the request stops fails as one stopped in flight does.
          () => cancelled(requestInfo(request), signal),
        );
      },
    };
  }

  return {
    forCaller,
    health,
    serviceUrls: () => [...bases].map(([service, base]) => ({ service, url: `${base.origin}${base.basePath}/` })),
    close: () => sender.close(),
  };
}

/** HMAC-SHA256 of a credential under `key` (128 bits, hex); `anonymous` for none. */
export function credentialKeyer(key: Buffer): (authorization: string | undefined) => string {
  return (authorization) => (authorization === undefined ? 'anonymous' : createHmac('sha256', key).update(authorization).digest('hex').slice(0, 32));
}

function serviceBases(config: HttpLayerConfig): Map<UpstreamService, ServiceBase> {
  const bases = new Map<UpstreamService, ServiceBase>();
  const upstream = new URL(config.upstreamBaseUrl);
  const prefix = upstream.pathname.replace(/\/+$/, '');
  const own = ownAddresses(config);
  for (const api of UPSTREAM_APIS) {
    if (api.path !== null) {
      bases.set(api.name, { origin: upstream.origin, basePath: `${prefix}${api.path}`, servicePath: api.path });
      continue;
    }
    const address = own[api.name];
    if (address === null) continue;
    const url = new URL(address);
    bases.set(api.name, { origin: url.origin, basePath: url.pathname.replace(/\/+$/, ''), servicePath: null });
  }
  return bases;
}

/** A small semaphore: at most `max` tasks run at once; queued tasks leave, with `stopped()`'s error, when the signal aborts. */
function createLimiter(max: number): <T>(signal: CancelSignal, task: () => Promise<T>, stopped: () => Error) => Promise<T> {
  let running = 0;
  const queue: Array<() => void> = [];
  // A finishing task hands its slot straight to the next queued one, so `running` never overshoots.
  const release = (): void => {
    const next = queue.shift();
    if (next) next();
    else running -= 1;
  };
  return async (signal, task, stopped) => {
    if (running < max) running += 1;
    else {
      await new Promise<void>((resolve, reject) => {
        const start = (): void => {
          stopListening();
          resolve();
        };
        const stopListening = onAbort(signal, () => {
          const i = queue.indexOf(start);
          if (i >= 0) queue.splice(i, 1);
          reject(stopped());
        });
        queue.push(start);
      });
    }
    try {
      return await task();
    } finally {
      release();
    }
  };
}
