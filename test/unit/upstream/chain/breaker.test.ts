/** The breaker-and-window step (src/upstream/chain/breaker.ts) with the retry step, on a manual clock. */
import { ErrorCode, UpstreamError } from '../../../../src/errors/codes';
import { breaker } from '../../../../src/upstream/chain/breaker';
import { compose } from '../../../../src/upstream/chain/call';
import { retry } from '../../../../src/upstream/chain/retry';
import type { RetryPolicy } from '../../../../src/upstream/retry';
import { DEFAULT_RESILIENCE } from '../../../../src/upstream/health';
import { fakeCall, rejection, scriptedSend, TestClock, testHealth } from '../../../helpers/upstream-call';

const policy: RetryPolicy = { attempts: 3, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 60_000 };

function chainOn(statuses: Parameters<typeof scriptedSend>[0], extra: Parameters<typeof scriptedSend>[1] = {}) {
  const clock = new TestClock();
  const health = testHealth(clock, { breaker: { ...DEFAULT_RESILIENCE.breaker, consecutiveFailures: 2 }, retryBudget: { ratio: 0.2, minPerSecond: 0, windowMs: 10_000 } });
  const send = scriptedSend(statuses, extra);
  const run = compose([breaker({ retry: policy, metrics: undefined, health }), retry(policy, health)], send);
  return { clock, health, send, run };
}

describe('the breaker and window step', () => {
  it('after an outage opens rest/v1, answers its calls at once with UPSTREAM_UNAVAILABLE and retryAfter; auth/v1 still goes', async () => {
    const { send, run } = chainOn([503]);
    await rejection(run(fakeCall()));
    await rejection(run(fakeCall()));
    const sent = send.attempts.length;
    const fast = await rejection(run(fakeCall()));
    expect(fast).toBeInstanceOf(UpstreamError);
    expect([(fast as UpstreamError).code, (fast as UpstreamError).retryAfter]).toEqual([ErrorCode.UPSTREAM_UNAVAILABLE, 1]);
    expect(send.attempts.length).toBe(sent);
    const auth = await rejection(run(fakeCall({ request: { service: 'auth-v1' } })));
    expect(send.attempts.length).toBeGreaterThan(sent);
    expect(auth.code).toBe(ErrorCode.UPSTREAM_ERROR);
  });

  it('never opens on 4xx', async () => {
    const { send, run } = chainOn([404]);
    for (let i = 0; i < 5; i += 1) await rejection(run(fakeCall()));
    expect(send.attempts).toHaveLength(5);
  });

  it('a 429 with Retry-After closes the API for the window: RATE_LIMITED, no request inside, one probe after', async () => {
    const { clock, send, run } = chainOn([429, 200], { retryAfterMs: 5000 });
    const first = (await rejection(run(fakeCall()))) as UpstreamError;
    expect([first.code, first.retryAfter]).toEqual([ErrorCode.RATE_LIMITED, 5]);
    clock.advance(1500);
    const inside = (await rejection(run(fakeCall()))) as UpstreamError;
    expect([inside.code, inside.retryAfter]).toEqual([ErrorCode.RATE_LIMITED, 4]);
    expect(send.attempts).toHaveLength(1);
    clock.advance(3500);
    await Promise.all([run(fakeCall()), rejection(run(fakeCall()))]);
    // The probe went alone; the call beside it failed fast.
    expect(send.attempts).toHaveLength(2);
    await run(fakeCall());
    expect(send.attempts).toHaveLength(3);
  });

  it('spends the retry budget, then stops retrying', async () => {
    const { send, run } = chainOn([500, 500, 200]);
    expect((await rejection(run(fakeCall({ request: { service: 'core-v2' } })))).code).toBe(ErrorCode.UPSTREAM_ERROR);
    // No floor and one first attempt: 0.2 of a retry, none granted.
    expect(send.attempts).toEqual([1]);
  });
});
