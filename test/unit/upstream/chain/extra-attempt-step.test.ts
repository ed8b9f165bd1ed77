/**
 * A step after the attempts step is one file and one line of the chain's list: this test-only
 * "mirror" step (the shape a hedging or mirroring step would take) sees each attempt that leaves
 * as a value — its number, whether it is the last, its trace headers — and sends a copy to a
 * shadow upstream without touching the call, its charges or its retries.
 */
import { compose, type AttemptStep, type SendAttempt, type UpstreamAttempt } from '../../../../src/upstream/chain/call';
import { callerQuota } from '../../../../src/upstream/chain/caller-quota';
import { requestBudget } from '../../../../src/upstream/chain/request-budget';
import { retry } from '../../../../src/upstream/chain/retry';
import { traceSpan } from '../../../../src/upstream/chain/trace-span';
import type { OperationSpan } from '../../../../src/tracing';
import { fakeCall, scriptedSend, testHealth } from '../../../helpers/upstream-call';

/** The test's extra step: every attempt also goes to `shadow`; what it answers is ignored. */
function mirror(shadow: SendAttempt): AttemptStep {
  return {
    kind: 'attempt',
    name: 'mirror',
    wrap: (next) => (attempt) => {
      shadow(attempt).catch(() => undefined);
      return next(attempt);
    },
  };
}

describe('an extra attempt step', () => {
  it('sees each attempt that leaves as its own value, and changes nothing of what the call is charged', async () => {
    const seen: Array<Pick<UpstreamAttempt, 'number' | 'final' | 'headers'>> = [];
    const shadow: SendAttempt = (attempt) => {
      seen.push({ number: attempt.number, final: attempt.final, headers: attempt.headers });
      return Promise.reject(new Error('the shadow is down'));
    };
    const trace: OperationSpan = { startUpstream: (start) => ({ headers: { traceparent: `tp-${start.attempt}` }, end: () => undefined }), end: () => undefined };
    const spendQuota = jest.fn(() => Promise.resolve());
    const calls = { count: 0 };
    const send = scriptedSend([503, 503, 200]);
    const policy = { attempts: 3, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 0 };
    const response = await compose([callerQuota, requestBudget, traceSpan, retry(policy, testHealth()), mirror(shadow)], send)(fakeCall({ spendQuota, caller: { calls, trace } }));
    expect(response.status).toBe(200);
    expect(send.attempts).toEqual([1, 2, 3]);
    expect(seen).toEqual([
      { number: 1, final: false, headers: { traceparent: 'tp-1' } },
      { number: 2, final: false, headers: { traceparent: 'tp-2' } },
      { number: 3, final: true, headers: { traceparent: 'tp-3' } },
    ]);
    // Charged as without the step: three attempts counted, the quota once.
    expect([calls.count, spendQuota.mock.calls.length]).toEqual([3, 1]);
  });
});
