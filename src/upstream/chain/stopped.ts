/** The error of a call that was stopped (its request aborted, or its operation's budget crossed). */
import { BudgetExceededError, ErrorCode, UpstreamError, type UpstreamCallInfo } from '../../errors/codes';
import type { CancelSignal } from '../../core/cancellation';
import type { UpstreamRequest } from '../http-types';

/** The error of a call stopped by `signal`: the budget's own error when a budget stopped it. */
export function cancelled(info: UpstreamCallInfo, signal: CancelSignal): UpstreamError | BudgetExceededError {
  if (signal.reason instanceof BudgetExceededError) return signal.reason;
  return new UpstreamError(ErrorCode.UPSTREAM_UNAVAILABLE, 'the request was cancelled before the upstream answered', info);
}

/** A call's info before it has a target: its path without the query string. */
export function requestInfo(request: UpstreamRequest): UpstreamCallInfo {
  return { service: request.service, method: request.method, path: request.path.split('?')[0] ?? '', status: null };
}
