/**
 * "Cache": the private HTTP cache per credential (keyed by `call.credentialKey`), ../cache/cache-step.ts.
 * A hit answers without reaching the retry step, so it is charged nothing (caller-quota.ts,
 * request-budget.ts); it sets `call.outcome`. It also hears every change the chain passes, so the
 * cached reads a change touched are forgotten on every replica.
 */
import { cacheStep } from '../cache/cache-step';
import { apiOf } from '../health';
import { passThrough, type Interceptor } from './call';
import type { ChainDeps } from './deps';

export function cache(deps: ChainDeps): Interceptor {
  const reads = deps.reads;
  if (reads === undefined) return passThrough('cache');
  const { health } = deps;
  return cacheStep({
    cache: reads.cache,
    changes: reads.changes,
    metrics: deps.metrics,
    now: reads.now,
    staleIfErrorSeconds: reads.staleIfErrorSeconds,
    breakerOpen: (service) => health.gate(apiOf(service)).current().state === 'open',
    ...(deps.verdicts ? { verdicts: deps.verdicts } : {}),
  });
}
