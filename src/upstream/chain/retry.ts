/**
 * "Retry": sends the call's attempts. GETs only are tried again, on 5xx, 429 and connection
 * errors, with backoff and full jitter (../retry.ts), while their API's retry budget allows
 * (../health/retry-budget.ts: about a fifth of first attempts) and the API is not closed. An
 * answer with a `Retry-After` is not retried: the breaker step closes the API for that window.
 * POST, PUT and DELETE: one attempt, ever.
 *
 * Each attempt that is about to leave is charged first (the charges outer steps left: quota,
 * budget; a refusal sends nothing), then gets its watchers (the trace span) — so only requests
 * that actually leave are counted and traced.
 */
import type { RetryPolicy } from '../retry';
import { backoffDelay, sleep } from '../retry';
import type { UpstreamResponse } from '../http-types';
import { apiOf, type UpstreamHealth } from '../health';
import type { AttemptWatch, Interceptor, Send, UpstreamCall } from './call';
import { cancelled } from './stopped';

export function retry(policy: RetryPolicy, health: UpstreamHealth): Interceptor {
  return {
    name: 'retry',
    wrap: (next) => async (call) => {
      const isRead = call.request.method === 'GET';
      const attempts = isRead ? Math.max(1, policy.attempts) : 1;
      const api = apiOf(call.request.service);
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await attemptOnce(next, call, attempt, attempt === 1 && isRead ? () => health.budget(api).recordFirst() : null);
        } catch (error) {
          const result = call.lastAttempt;
          // Not sent (refused, cancelled), not worth it, the last one, or the platform named its pause: the error stands.
          if (result === null || !result.retryable || attempt >= attempts || (result.retryAfterMs !== null && result.retryAfterMs > 0)) throw error;
          // The API closed meanwhile (this call's failure or others'): no more load on it.
          if (health.gate(api).current().state !== 'closed') throw error;
          if (!health.budget(api).tryRetry()) {
            health.countBudgetRefusal(api);
            throw error;
          }
          health.countRetry(api);
          try {
            await sleep(backoffDelay(policy, attempt), call.signal);
          } catch {
            throw cancelled(call.target.info, call.signal);
          }
        }
      }
    },
  };
}

async function attemptOnce(next: Send, call: UpstreamCall, attempt: number, leaving: (() => void) | null): Promise<UpstreamResponse> {
  call.attempt = attempt;
  call.lastAttempt = null;
  if (call.signal.aborted) throw cancelled(call.target.info, call.signal);
  const charging = charge(call, attempt, 0);
  if (charging !== undefined) await charging;
  leaving?.();
  const watches = call.watchers.map((open) => open(attempt));
  call.attemptHeaders = headersOf(watches);
  try {
    const response = await next(call);
    for (const watch of watches) watch.end({ status: response.status });
    return response;
  } catch (error) {
    const status = lastStatus(call);
    const errorCode = typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
    for (const watch of watches) watch.end({ status, errorCode });
    throw error;
  }
}

/** The last attempt's status, read through a function: the send step sets it while TS still sees the `null` above. */
function lastStatus(call: UpstreamCall): number | null {
  return call.lastAttempt?.status ?? null;
}

/** Runs the call's charges in order; synchronous unless one of them is not (a fleet quota). */
function charge(call: UpstreamCall, attempt: number, from: number): Promise<void> | undefined {
  for (let i = from; i < call.charges.length; i += 1) {
    const pending = call.charges[i]!(attempt);
    if (pending !== undefined) return pending.then(() => charge(call, attempt, i + 1));
  }
  return undefined;
}

function headersOf(watches: readonly AttemptWatch[]): Readonly<Record<string, string>> | undefined {
  if (watches.length === 0) return undefined;
  if (watches.length === 1) return watches[0]!.headers;
  return Object.assign({}, ...watches.map((w) => w.headers ?? {})) as Record<string, string>;
}
