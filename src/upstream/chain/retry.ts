/**
 * "Retry", the attempts step: turns the call into its attempts (`UpstreamAttempt`, attempt.ts),
 * one after another. GETs only are tried again, on 5xx, 429 and connection errors, with backoff
 * and full jitter (../retry.ts), while their API's retry budget allows
 * (../health/retry-budget.ts: about a fifth of first attempts) and the API is not closed. An
 * answer with a `Retry-After` is not retried: the breaker step closes the API for that window.
 * POST, PUT and DELETE: one attempt, ever.
 *
 * Each attempt is charged before it is made (the charges outer steps left: quota, budget; a
 * refusal sends nothing), then gets its watchers (the trace span, the breaker's record) — so only
 * requests that actually leave are counted and traced. The steps after this one see the attempt.
 */
import type { RetryPolicy } from '../retry';
import { backoffDelay, sleep } from '../retry';
import type { UpstreamResponse } from '../http-types';
import { apiOf, type UpstreamApi, type UpstreamHealth } from '../health';
import { endAttempt, openAttempt } from './attempt';
import type { AttemptsStep, SendAttempt, UpstreamCall } from './call';
import { cancelled } from './stopped';

export function retry(policy: RetryPolicy, health: UpstreamHealth): AttemptsStep {
  return {
    kind: 'attempts',
    name: 'retry',
    wrap: (next) => async (call) => {
      const isRead = call.request.method === 'GET';
      const attempts = isRead ? Math.max(1, policy.attempts) : 1;
      const api = apiOf(call.request.service);
      for (let number = 1; ; number += 1) {
        try {
          return await attemptOnce(next, call, number, number >= attempts, number === 1 && isRead ? api : null, health);
        } catch (error) {
          const result = call.lastAttempt;
          // Not sent (refused, cancelled), not worth it, the last one, or the platform named its pause: the error stands.
          if (result === null || !result.retryable || number >= attempts || (result.retryAfterMs !== null && result.retryAfterMs > 0)) throw error;
          // The API closed meanwhile (this call's failure or others'): no more load on it.
          if (health.gate(api).current().state !== 'closed') throw error;
          if (!health.budget(api).tryRetry()) {
            health.countBudgetRefusal(api);
            throw error;
          }
          health.countRetry(api);
          try {
            await sleep(backoffDelay(policy, number), call.signal);
          } catch {
            throw cancelled(call.target.info, call.signal);
          }
        }
      }
    },
  };
}

/** One attempt: opened (charged, watched), sent through the attempt's steps, ended. `first`: the API whose retry budget counts it. */
async function attemptOnce(next: SendAttempt, call: UpstreamCall, number: number, final: boolean, first: UpstreamApi | null, health: UpstreamHealth): Promise<UpstreamResponse> {
  const opening = openAttempt(call, number, final);
  const attempt = opening instanceof Promise ? await opening : opening;
  if (first !== null) health.budget(first).recordFirst();
  let response: UpstreamResponse;
  try {
    response = await next(attempt);
  } catch (error) {
    endAttempt(attempt, null, error);
    throw error;
  }
  endAttempt(attempt, response);
  return response;
}
