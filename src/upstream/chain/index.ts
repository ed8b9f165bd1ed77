/**
 * The upstream chain: every upstream call passes these steps, in this order, declared here only.
 *
 *   target ─► caller quota ─► request budget ─► trace span ─► cache ─► in-flight sharing
 *          ─► breaker and window ─► pool share ─► retry ─► metrics ─► send
 *
 * `target` makes the call (target.ts); each step after it wraps the ones after it (`wrap`). The
 * steps up to retry see the call (`Interceptor`); retry, the attempts step, makes each attempt
 * that leaves a value of its own (`UpstreamAttempt`, attempt.ts), and the steps after it see that
 * attempt (`AttemptStep`); `send` puts one attempt on the wire. Charges (quota, budget) and
 * watchers (trace span, breaker record) are left on the call by their steps and applied by retry
 * to each attempt as it is made, so an answer from the cache or from a shared call costs nothing.
 */
import type { UpstreamRequest, UpstreamResponse } from '../http-types';
import { breaker } from './breaker';
import { cache } from './cache';
import { callerQuota } from './caller-quota';
import { compose, type CallerScope, type SendAttempt, type Step } from './call';
import type { ChainDeps } from './deps';
import { metrics } from './metrics';
import { poolShare } from './pool-share';
import { requestBudget } from './request-budget';
import { POOL_CONNECTIONS } from './send';
import { retry } from './retry';
import { sharing } from './sharing';
import { startCall, type TargetSettings } from './target';
import { traceSpan } from './trace-span';

export type { ChainDeps } from './deps';

/** The steps between the target and send, outermost first: the call's, the attempts step, the attempt's (compose checks that order). */
const STEPS: ReadonlyArray<(deps: ChainDeps) => Step> = [
  () => callerQuota,
  () => requestBudget,
  () => traceSpan,
  cache,
  sharing,
  breaker,
  (deps) => poolShare(POOL_CONNECTIONS, deps.metrics),
  (deps) => retry(deps.retry, deps.health),
  (deps) => metrics(deps.metrics),
];

export interface UpstreamChain {
  /** Names of the steps in order, `target` first and `send` last (for tests and docs). */
  readonly names: readonly string[];
  run(request: UpstreamRequest, scope: CallerScope): Promise<UpstreamResponse>;
}

export function createUpstreamChain(deps: ChainDeps, target: TargetSettings, send: SendAttempt): UpstreamChain {
  const steps = STEPS.map((make) => make(deps));
  const run = compose(steps, send);
  return {
    names: ['link target check', ...steps.map((step) => step.name), 'send'],
    run: (request, scope) => {
      try {
        return run(startCall(target, request, scope));
      } catch (error) {
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}
