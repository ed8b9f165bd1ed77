/**
 * "Retry": sends the call's attempts. GETs only are tried again, on 5xx, 429 and connection
 * errors, with backoff and full jitter (../retry.ts); a `Retry-After` on 429/503 is honoured, and
 * one longer than `maxRetryAfterMs` ends the retries. POST, PUT and DELETE: one attempt, ever.
 *
 * Each attempt that is about to leave is charged first (the charges outer steps left: quota,
 * budget; a refusal sends nothing), then gets its watchers (the trace span) — so only requests
 * that actually leave are counted and traced.
 */
import type { RetryPolicy } from '../retry';
import { backoffDelay, sleep } from '../retry';
import type { UpstreamResponse } from '../http-types';
import type { AttemptWatch, Interceptor, Send, UpstreamCall } from './call';
import { cancelled } from './stopped';

export function retry(policy: RetryPolicy): Interceptor {
  return {
    name: 'retry',
    wrap: (next) => async (call) => {
      const attempts = call.request.method === 'GET' ? Math.max(1, policy.attempts) : 1;
      for (let attempt = 1; ; attempt += 1) {
        try {
          return await attemptOnce(next, call, attempt);
        } catch (error) {
          const result = call.lastAttempt;
          // Not sent (refused, cancelled), not worth it, or the last one: the error stands.
          if (result === null || !result.retryable || attempt >= attempts) throw error;
          let delay = backoffDelay(policy, attempt);
          if (result.retryAfterMs !== null) {
            // Honour Retry-After; when it asks for longer than we may wait, give up now.
            if (result.retryAfterMs > policy.maxRetryAfterMs) throw error;
            delay = result.retryAfterMs;
          }
          try {
            await sleep(delay, call.signal);
          } catch {
            throw cancelled(call.target.info, call.signal);
          }
        }
      }
    },
  };
}

async function attemptOnce(next: Send, call: UpstreamCall, attempt: number): Promise<UpstreamResponse> {
  call.attempt = attempt;
  call.lastAttempt = null;
  if (call.signal.aborted) throw cancelled(call.target.info, call.signal);
  const charging = charge(call, attempt, 0);
  if (charging !== undefined) await charging;
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
