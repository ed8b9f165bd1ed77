/**
 * Calls of the upstream chain (src/upstream/chain) built by hand, and `Send`s that answer them, for
 * the unit tests of one step at a time.
 */
import { ErrorCode, UpstreamError } from '../../src/errors/codes';
import { Cancellation } from '../../src/core/cancellation';
import type { UpstreamService } from '../../src/errors/codes';
import type { AttemptResult, CallerOptions, SendAttempt, UpstreamAttempt, UpstreamCall } from '../../src/upstream/chain/call';
import { startCall } from '../../src/upstream/chain/target';
import { DEFAULT_RESILIENCE, UpstreamHealth, type HealthSettings, type Timers } from '../../src/upstream/health';
import type { ServiceBase } from '../../src/upstream/link-target';
import type { UpstreamRequest, UpstreamResponse } from '../../src/upstream/http-types';

const BASES = new Map<UpstreamService, ServiceBase>(
  (['auth-v1', 'rest-v1', 'identity-v1', 'core-v2'] as const).map((service) => [service, { origin: 'http://upstream.test', basePath: `/${service.replace('-', '/')}`, servicePath: `/${service.replace('-', '/')}` }]),
);

/** A call as the target step makes it, to `http://upstream.test/{service path}{path}`. */
export function fakeCall(options: { request?: Partial<UpstreamRequest>; caller?: Partial<CallerOptions>; spendQuota?: () => Promise<void>; credentialKey?: string } = {}): UpstreamCall {
  const request: UpstreamRequest = { service: 'rest-v1', method: 'GET', path: '/networks', ...options.request };
  const caller: CallerOptions = { signal: new Cancellation(), authorization: 'Bearer t', ...options.caller };
  const key = options.credentialKey ?? 'k';
  return startCall({ bases: BASES, searchAuthorization: null }, request, { options: caller, spendQuota: options.spendQuota ?? null, credentialKey: () => key });
}

/** A send step that answers each attempt from `statuses` in turn (the last one repeats) and records the attempts' numbers. */
export function scriptedSend(statuses: ReadonlyArray<number | 'reset'>, extra: { retryAfterMs?: number } = {}): SendAttempt & { attempts: number[] } {
  const attempts: number[] = [];
  const send = (attempt: UpstreamAttempt): Promise<UpstreamResponse> => {
    const { call } = attempt;
    attempts.push(attempt.number);
    const status = statuses[Math.min(attempts.length, statuses.length) - 1] ?? 200;
    if (status === 'reset') {
      attempt.result = { status: null, retryable: true, retryAfterMs: null, transportCode: 'ECONNRESET' };
      return Promise.reject(new UpstreamError(ErrorCode.UPSTREAM_UNAVAILABLE, 'reset', call.target.info));
    }
    const result: AttemptResult = {
      status,
      retryable: status === 429 || status >= 500,
      retryAfterMs: status === 429 || status === 503 ? (extra.retryAfterMs ?? null) : null,
      transportCode: undefined,
    };
    attempt.result = result;
    if (status < 300) return Promise.resolve({ status, headers: {}, body: null, text: '' });
    return Promise.reject(new UpstreamError(status === 429 ? ErrorCode.RATE_LIMITED : ErrorCode.UPSTREAM_ERROR, `answered ${status}`, { ...call.target.info, status }));
  };
  return Object.assign(send, { attempts });
}

/** The error `promise` rejects with (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<Error & { code?: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

/** A manual clock for breakers, windows and budgets, with timers (slow-call marks) that fire as it advances. */
export class TestClock {
  private pending: Array<{ at: number; fn: () => void }> = [];
  constructor(public ms = 1_700_000_000_000) {}
  readonly now = (): number => this.ms;
  readonly timers: Timers = (fn, ms) => {
    const timer = { at: this.ms + ms, fn };
    this.pending.push(timer);
    return () => {
      this.pending = this.pending.filter((t) => t !== timer);
    };
  };
  advance(ms: number): void {
    this.ms += ms;
    const due = this.pending.filter((t) => t.at <= this.ms).sort((a, b) => a.at - b.at);
    this.pending = this.pending.filter((t) => t.at > this.ms);
    for (const timer of due) timer.fn();
  }
}

/** Upstream health on `clock` with the default settings, or the given ones. */
export function testHealth(clock: TestClock = new TestClock(), settings: Partial<HealthSettings> = {}): UpstreamHealth {
  return new UpstreamHealth({ ...DEFAULT_RESILIENCE, maxWindowMs: 60_000, ...settings }, clock.now, undefined, null, clock.timers);
}
