/**
 * "Breaker and window": a call to an API that is closed (its breaker open, or a 503's
 * `Retry-After` window in force, ../health/api-gate.ts) fails at once, without a request:
 * `UPSTREAM_UNAVAILABLE` with `retryAfter` (seconds). A caller whose credential a 429 closed the API
 * to (../health/credential-windows.ts) fails at once with `RATE_LIMITED`; the other callers go on.
 * While half-open one call at a time goes as the probe.
 *
 * Each attempt's outcome is recorded as it ends, through a watcher the retry step opens for every
 * attempt that leaves — not once the call's retries are done: 5xx, timeouts and connection errors
 * are failures, any other answer a success. An attempt still in flight past the slow-call
 * threshold counts as a failure then, while it hangs. A 503 with `Retry-After` closes the API for
 * that long (capped) for every caller; a 429 with `Retry-After` closes it to the credential that
 * heard it (both fleet-wide, with Redis).
 */
import { ErrorCode, UpstreamError } from '../../errors/codes';
import { apiOf, type ApiGate, type CallResult, type UpstreamApi, type UpstreamHealth } from '../health';
import type { AttemptResult, AttemptWatch, Interceptor, UpstreamAttempt, UpstreamCall } from './call';
import type { ChainDeps } from './deps';

type Closed = { readonly reason: 'failures' | 'rate-limited' | 'unavailable'; readonly retryAfterMs: number; readonly credential: boolean };

export function breaker(deps: ChainDeps): Interceptor {
  const { health } = deps;
  return {
    name: 'breaker and window',
    wrap: (next) => async (call) => {
      const api = apiOf(call.request.service);
      const gate = health.gate(api);
      const held = health.credentialWindow(api, call.credentialKey);
      if (held > 0) {
        call.apiState = 'open';
        health.countFastFailure(api, 'rate-limited');
        throw fastFailure(call, { reason: 'rate-limited', retryAfterMs: held, credential: true });
      }
      const admission = gate.admit();
      call.apiState = admission.pass ? (admission.probe ? 'probe' : 'closed') : 'open';
      if (!admission.pass) {
        health.countFastFailure(api, admission.reason);
        throw fastFailure(call, { reason: admission.reason, retryAfterMs: admission.retryAfterMs, credential: false });
      }
      // The probe is its first attempt's; a probe call that never left gives its turn back below.
      const probe = { pending: admission.probe };
      call.watchers.push((attempt) => watchAttempt(attempt, api, gate, health, probe));
      try {
        return await next(call);
      } catch (error) {
        const result = call.lastAttempt;
        const windowMs = result === null ? null : pauseFor(result, health);
        throw windowMs !== null && error instanceof UpstreamError ? withRetryAfter(error, windowMs) : error;
      } finally {
        if (probe.pending) gate.record('neutral', true);
      }
    },
  };
}

/** Records one attempt for its API as it ends, or as a failure once it has been in flight `slowCallMs`. */
function watchAttempt(attempt: UpstreamAttempt, api: UpstreamApi, gate: ApiGate, health: UpstreamHealth, probe: { pending: boolean }): AttemptWatch {
  const isProbe = probe.pending;
  probe.pending = false;
  let counted = false;
  const slowMs = health.settings.breaker.slowCallMs;
  const stopTimer =
    slowMs > 0
      ? health.timers(() => {
          counted = true;
          health.countSlowCall(api);
          gate.record('failure', isProbe);
        }, slowMs)
      : null;
  return {
    end() {
      stopTimer?.();
      const result = attempt.result;
      const windowMs = result === null ? null : pauseFor(result, health);
      if (windowMs !== null) {
        const until = health.now() + windowMs;
        // A 429 is the platform limiting this credential; a 503 is the API itself.
        if (result?.status === 429) health.closeForCredential(api, attempt.call.credentialKey, until);
        else gate.pause(until, 'unavailable');
        if (!counted) gate.record('neutral', isProbe);
        return;
      }
      // A slow attempt was counted while it hung: its end adds nothing.
      if (!counted) gate.record(resultOf(result), isProbe);
    },
  };
}

/** How an attempt that ended counts for its API's breaker. */
export function resultOf(result: AttemptResult | null): CallResult {
  // Nothing left (refused by a budget) or stopped by the caller: says nothing of the API.
  if (result === null) return 'neutral';
  if (result.status === null) return result.transportCode === undefined ? 'neutral' : 'failure';
  if (result.status >= 500) return 'failure';
  // A 429 is the platform limiting a credential, not its failure; other 4xx are the caller's.
  return result.status === 429 ? 'neutral' : 'success';
}

/** The window a 429/503 `Retry-After` asks for, capped; null when there is none. */
function pauseFor(result: AttemptResult, health: UpstreamHealth): number | null {
  if ((result.status !== 429 && result.status !== 503) || result.retryAfterMs === null || result.retryAfterMs <= 0) return null;
  return Math.min(result.retryAfterMs, health.settings.maxWindowMs);
}

function fastFailure(call: UpstreamCall, closed: Closed): UpstreamError {
  const retryAfter = seconds(closed.retryAfterMs);
  const { service } = call.request;
  const [code, message] = closed.credential
    ? [ErrorCode.RATE_LIMITED, `${service} rate-limited this caller's credential (Retry-After): none of its calls is sent for ${retryAfter} s`]
    : closed.reason === 'rate-limited'
      ? [ErrorCode.RATE_LIMITED, `${service} asked the gateway to wait (Retry-After): no call is sent to it for ${retryAfter} s`]
      : closed.reason === 'unavailable'
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
