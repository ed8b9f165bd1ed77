/**
 * "Breaker and window": a call to an API that is closed (its breaker open, or a `Retry-After`
 * window in force, ../health/api-gate.ts) fails at once, without a request: `RATE_LIMITED` inside
 * a 429's window, `UPSTREAM_UNAVAILABLE` otherwise, with `retryAfter` (seconds). While half-open
 * one call at a time goes as the probe. The outcome of every call that went is recorded: 5xx,
 * timeouts and connection errors are failures, any other answer a success; a 429 or 503 with a
 * `Retry-After` closes the API for that long (capped), for every call of the process (and of the
 * fleet, with Redis).
 */
import { ErrorCode, UpstreamError } from '../../errors/codes';
import { apiOf, type Admission, type CallResult, type UpstreamHealth } from '../health';
import type { AttemptResult, Interceptor, UpstreamCall } from './call';
import type { ChainDeps } from './deps';

export function breaker(deps: ChainDeps): Interceptor {
  const { health } = deps;
  return {
    name: 'breaker and window',
    wrap: (next) => async (call) => {
      const api = apiOf(call.request.service);
      const gate = health.gate(api);
      const admission = gate.admit();
      call.apiState = admission.pass ? (admission.probe ? 'probe' : 'closed') : 'open';
      if (!admission.pass) {
        health.countFastFailure(api, admission.reason);
        throw fastFailure(call, admission);
      }
      try {
        const response = await next(call);
        gate.record('success', admission.probe);
        return response;
      } catch (error) {
        const result = call.lastAttempt;
        const windowMs = result === null ? null : pauseFor(result, health);
        if (windowMs !== null) {
          gate.record('neutral', admission.probe);
          gate.pause(health.now() + windowMs, result?.status === 429 ? 'rate-limited' : 'unavailable');
          throw error instanceof UpstreamError ? withRetryAfter(error, windowMs) : error;
        }
        gate.record(resultOf(result), admission.probe);
        throw error;
      }
    },
  };
}

/** How a failed call counts for its API's breaker. */
export function resultOf(result: AttemptResult | null): CallResult {
  // Nothing left (refused by a budget) or stopped by the caller: says nothing of the API.
  if (result === null) return 'neutral';
  if (result.status === null) return result.transportCode === undefined ? 'neutral' : 'failure';
  if (result.status >= 500) return 'failure';
  // A 429 without Retry-After is the platform's answer, not its failure; other 4xx are the caller's.
  return result.status === 429 ? 'neutral' : 'success';
}

/** The window a 429/503 `Retry-After` asks for, capped; null when there is none. */
function pauseFor(result: AttemptResult, health: UpstreamHealth): number | null {
  if ((result.status !== 429 && result.status !== 503) || result.retryAfterMs === null || result.retryAfterMs <= 0) return null;
  return Math.min(result.retryAfterMs, health.settings.maxWindowMs);
}

function fastFailure(call: UpstreamCall, admission: Extract<Admission, { pass: false }>): UpstreamError {
  const retryAfter = seconds(admission.retryAfterMs);
  const { service } = call.request;
  const [code, message] =
    admission.reason === 'rate-limited'
      ? [ErrorCode.RATE_LIMITED, `${service} asked the gateway to wait (Retry-After): no call is sent to it for ${retryAfter} s`]
      : admission.reason === 'unavailable'
        ? [ErrorCode.UPSTREAM_UNAVAILABLE, `${service} said it is unavailable (Retry-After): no call is sent to it for ${retryAfter} s`]
        : [ErrorCode.UPSTREAM_UNAVAILABLE, `${service} is failing: the gateway stopped calling it for now (circuit breaker open); try again in ${retryAfter} s`];
  return new UpstreamError(code, message, call.target.info, { retryAfter });
}

function withRetryAfter(error: UpstreamError, ms: number): UpstreamError {
  return new UpstreamError(error.code, error.message, error.upstream, { cause: error.cause, outcomeUnknown: error.outcomeUnknown, retryAfter: seconds(ms) });
}

function seconds(ms: number): number {
  return Math.max(1, Math.ceil(ms / 1000));
}
