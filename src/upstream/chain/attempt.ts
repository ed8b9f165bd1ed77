/**
 * One attempt that leaves, as a value (`UpstreamAttempt`): made for each try by the attempts step
 * (retry.ts) and ended there. Opening one runs the call's charges (quota, budget: a refusal throws,
 * nothing is made, nothing is sent), then opens its watchers (its trace span, its breaker record),
 * whose headers go out with it. Ending one ends its watchers and copies its result onto the call,
 * for the steps before the attempts step.
 */
import type { UpstreamResponse } from '../http-types';
import type { AttemptResult, AttemptWatch, UpstreamAttempt, UpstreamCall } from './call';
import { cancelled } from './stopped';

const NONE: readonly AttemptWatch[] = [];

class Attempt implements UpstreamAttempt {
  result: AttemptResult | null = null;
  headers: Readonly<Record<string, string>> | undefined = undefined;
  watches: readonly AttemptWatch[] = NONE;
  constructor(
    readonly call: UpstreamCall,
    readonly number: number,
    readonly final: boolean,
  ) {}
}

/**
 * Attempt `number` of `call`, charged and watched; synchronous unless a charge is not (a fleet
 * quota). Throws (rejects) when the call was stopped or a charge refused it.
 */
export function openAttempt(call: UpstreamCall, number: number, final: boolean): UpstreamAttempt | Promise<UpstreamAttempt> {
  // Until this attempt has left, the call has learnt nothing of it (a refused one sent nothing).
  call.lastAttempt = null;
  if (call.signal.aborted) throw cancelled(call.target.info, call.signal);
  const charging = charge(call, number, 0);
  return charging === undefined ? watched(call, number, final) : charging.then(() => watched(call, number, final));
}

/** Ends `attempt`'s watchers with its answer (or the error it failed with), and leaves its result on the call. */
export function endAttempt(attempt: UpstreamAttempt, response: UpstreamResponse | null, error?: unknown): void {
  const { call, result } = attempt;
  call.lastAttempt = result;
  const watches = attempt instanceof Attempt ? attempt.watches : NONE;
  if (watches.length === 0) return;
  const ended = response !== null ? { status: response.status } : { status: result?.status ?? null, errorCode: codeOf(error) };
  for (const watch of watches) watch.end(ended);
}

function watched(call: UpstreamCall, number: number, final: boolean): UpstreamAttempt {
  const attempt = new Attempt(call, number, final);
  const { watchers } = call;
  if (watchers.length === 0) return attempt;
  const watches = watchers.map((open) => open(attempt));
  attempt.watches = watches;
  attempt.headers = headersOf(watches);
  return attempt;
}

/** Runs the call's charges in order; synchronous unless one of them is not. */
function charge(call: UpstreamCall, attempt: number, from: number): Promise<void> | undefined {
  for (let i = from; i < call.charges.length; i += 1) {
    const pending = call.charges[i]!(attempt);
    if (pending !== undefined) return pending.then(() => charge(call, attempt, i + 1));
  }
  return undefined;
}

function headersOf(watches: readonly AttemptWatch[]): Readonly<Record<string, string>> | undefined {
  if (watches.length === 1) return watches[0]!.headers;
  let headers: Record<string, string> | undefined;
  for (const watch of watches) if (watch.headers !== undefined) headers = Object.assign(headers ?? {}, watch.headers);
  return headers;
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
