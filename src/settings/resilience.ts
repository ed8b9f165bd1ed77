/** When the platform struggles: each upstream API's circuit breaker and retry budget. */
import { MAX_MS, area, int, type SettingsOf } from './setting';

export const UPSTREAM_BREAKER_FAILURES = int({
  name: 'UPSTREAM_BREAKER_FAILURES',
  meaning: "failures in a row (5xx, timeouts, connection errors, attempts past `UPSTREAM_SLOW_CALL_MS`; never a 4xx) that open an API's breaker: its calls then fail fast with `UPSTREAM_UNAVAILABLE` and `retryAfter`",
  min: 1,
  max: 100_000,
  fallback: 10,
});
export const UPSTREAM_BREAKER_FAILURE_PERCENT = int({
  name: 'UPSTREAM_BREAKER_FAILURE_PERCENT',
  meaning: 'share of failed calls in the window (in percent) that opens the breaker',
  min: 1,
  max: 100,
  fallback: 75,
});
export const UPSTREAM_BREAKER_MIN_CALLS = int({ name: 'UPSTREAM_BREAKER_MIN_CALLS', meaning: 'calls in the window before that share is judged', min: 1, max: 100_000, fallback: 20 });
export const UPSTREAM_BREAKER_WINDOW_MS = int({
  name: 'UPSTREAM_BREAKER_WINDOW_MS',
  meaning: 'the sliding window of the failure share and of the retry budget',
  min: 1000,
  max: MAX_MS,
  fallback: 10_000,
});
export const UPSTREAM_BREAKER_PROBE_MS = int({
  name: 'UPSTREAM_BREAKER_PROBE_MS',
  meaning: 'how long an open breaker fails fast before one probe goes (one at a time; its success closes the breaker)',
  min: 1,
  max: MAX_MS,
  fallback: 1000,
});
export const UPSTREAM_SLOW_CALL_MS = int({
  name: 'UPSTREAM_SLOW_CALL_MS',
  meaning: "an attempt still in flight this long counts as a failure of its API's breaker at once, while it hangs (0: never); a slow outage opens the breaker in seconds, not once its calls time out",
  min: 0,
  max: MAX_MS,
  fallback: 2000,
});
export const UPSTREAM_RETRY_BUDGET_PERCENT = int({
  name: 'UPSTREAM_RETRY_BUDGET_PERCENT',
  meaning: "retries of GETs at most this share of an API's first attempts over the window (in percent)",
  min: 0,
  max: 100,
  fallback: 20,
});
export const UPSTREAM_RETRY_BUDGET_MIN_PER_SECOND = int({
  name: 'UPSTREAM_RETRY_BUDGET_MIN_PER_SECOND',
  meaning: 'retries allowed per second whatever the share',
  min: 0,
  max: 10_000,
  fallback: 1,
});

export const RESILIENCE = area({
  title: 'When the platform struggles',
  intro: 'Per upstream API (auth/v1, rest/v1, identity/v1, core/v2, search); see [Operations](operations.md#when-the-platform-struggles).',
  settings: {
    breakerFailures: UPSTREAM_BREAKER_FAILURES,
    breakerFailurePercent: UPSTREAM_BREAKER_FAILURE_PERCENT,
    breakerMinCalls: UPSTREAM_BREAKER_MIN_CALLS,
    breakerWindowMs: UPSTREAM_BREAKER_WINDOW_MS,
    breakerProbeMs: UPSTREAM_BREAKER_PROBE_MS,
    slowCallMs: UPSTREAM_SLOW_CALL_MS,
    retryBudgetPercent: UPSTREAM_RETRY_BUDGET_PERCENT,
    retryBudgetMinPerSecond: UPSTREAM_RETRY_BUDGET_MIN_PER_SECOND,
  },
});

export type ResilienceSettings = SettingsOf<typeof RESILIENCE>;

/** The breaker and retry budget each upstream API gets (src/upstream/health), percentages as ratios. */
export function resilienceOf(resilience: ResilienceSettings): {
  breaker: { consecutiveFailures: number; failureRatio: number; minimumCalls: number; windowMs: number; openMs: number; slowCallMs: number };
  retryBudget: { ratio: number; minPerSecond: number; windowMs: number };
} {
  return {
    breaker: {
      consecutiveFailures: resilience.breakerFailures,
      failureRatio: resilience.breakerFailurePercent / 100,
      minimumCalls: resilience.breakerMinCalls,
      windowMs: resilience.breakerWindowMs,
      openMs: resilience.breakerProbeMs,
      slowCallMs: resilience.slowCallMs,
    },
    retryBudget: { ratio: resilience.retryBudgetPercent / 100, minPerSecond: resilience.retryBudgetMinPerSecond, windowMs: resilience.breakerWindowMs },
  };
}
