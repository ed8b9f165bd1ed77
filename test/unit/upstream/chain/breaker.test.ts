/** The breaker-and-window step (src/upstream/chain/breaker.ts) with the retry step, on a manual clock. */
import { ErrorCode, UpstreamError } from '../../../../src/errors/codes';
import { breaker } from '../../../../src/upstream/chain/breaker';
import { compose } from '../../../../src/upstream/chain/call';
import { retry } from '../../../../src/upstream/chain/retry';
import type { RetryPolicy } from '../../../../src/upstream/retry';
import { DEFAULT_RESILIENCE } from '../../../../src/upstream/health';
import type { SendAttempt, UpstreamAttempt } from '../../../../src/upstream/chain/call';
import type { UpstreamResponse } from '../../../../src/upstream/http-types';
import { fakeCall, rejection, scriptedSend, TestClock, testHealth } from '../../../helpers/upstream-call';

const policy: RetryPolicy = { attempts: 3, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 60_000 };

function chainOn(statuses: Parameters<typeof scriptedSend>[0], extra: Parameters<typeof scriptedSend>[1] = {}) {
  const clock = new TestClock();
  const health = testHealth(clock, { breaker: { ...DEFAULT_RESILIENCE.breaker, consecutiveFailures: 2 }, retryBudget: { ratio: 0.2, minPerSecond: 0, windowMs: 10_000 } });
  const send = scriptedSend(statuses, extra);
  const run = compose([breaker({ retry: policy, metrics: undefined, health }), retry(policy, health)], send);
  return { clock, health, send, run };
}

/** A send whose attempts hang until the test answers them all. */
function hangingSend(): { send: SendAttempt; inFlight(): number; sent(): number; answerAll(status: number): void } {
  let waiting: Array<{ attempt: UpstreamAttempt; resolve: (r: UpstreamResponse) => void; reject: (e: Error) => void }> = [];
  let sent = 0;
  return {
    send: (attempt) =>
      new Promise<UpstreamResponse>((resolve, reject) => {
        sent += 1;
        waiting.push({ attempt, resolve, reject });
      }),
    inFlight: () => waiting.length,
    sent: () => sent,
    answerAll(status) {
      for (const { attempt, resolve, reject } of waiting) {
        attempt.result = { status, retryable: status >= 500, retryAfterMs: null, transportCode: undefined };
        if (status < 300) resolve({ status, headers: {}, body: null, text: '' });
        else reject(new UpstreamError(ErrorCode.UPSTREAM_ERROR, `answered ${status}`, { ...attempt.call.target.info, status }));
      }
      waiting = [];
    },
  };
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

  it("a 429 with Retry-After closes the API to that credential alone: RATE_LIMITED for it, the others' calls still go, its own after the window", async () => {
    const { clock, health, send, run } = chainOn([429, 200], { retryAfterMs: 5000 });
    const first = (await rejection(run(fakeCall({ credentialKey: 'a' })))) as UpstreamError;
    expect([first.code, first.retryAfter]).toEqual([ErrorCode.RATE_LIMITED, 5]);
    clock.advance(1500);
    const inside = (await rejection(run(fakeCall({ credentialKey: 'a' })))) as UpstreamError;
    expect([inside.code, inside.retryAfter]).toEqual([ErrorCode.RATE_LIMITED, 4]);
    expect(send.attempts).toHaveLength(1);
    // Another credential is not held by a's window, and the API stays closed-breaker for everyone.
    await Promise.all(Array.from({ length: 3 }, () => run(fakeCall({ credentialKey: 'b' }))));
    expect(send.attempts).toHaveLength(4);
    expect(health.gate('rest/v1').current().state).toBe('closed');
    clock.advance(3500);
    await run(fakeCall({ credentialKey: 'a' }));
    expect(send.attempts).toHaveLength(5);
  });

  it('a 503 with Retry-After closes the API for every credential: UPSTREAM_UNAVAILABLE, no request inside, one probe after', async () => {
    const { clock, send, run } = chainOn([503, 200], { retryAfterMs: 5000 });
    expect((await rejection(run(fakeCall({ credentialKey: 'a' })))).code).toBe(ErrorCode.UPSTREAM_ERROR);
    const other = (await rejection(run(fakeCall({ credentialKey: 'b' })))) as UpstreamError;
    expect([other.code, other.retryAfter]).toEqual([ErrorCode.UPSTREAM_UNAVAILABLE, 5]);
    expect(send.attempts).toHaveLength(1);
    clock.advance(5000);
    await Promise.all([run(fakeCall({ credentialKey: 'b' })), rejection(run(fakeCall({ credentialKey: 'c' })))]);
    // The probe went alone; the call beside it failed fast.
    expect(send.attempts).toHaveLength(2);
  });

  it("records each attempt as it ends: a call's failing attempts open the breaker before its retries are done, and the rest are not sent", async () => {
    const clock = new TestClock();
    const health = testHealth(clock, { breaker: { ...DEFAULT_RESILIENCE.breaker, consecutiveFailures: 2 }, retryBudget: { ratio: 0.2, minPerSecond: 10, windowMs: 10_000 } });
    const send = scriptedSend([500, 500, 200]);
    const run = compose([breaker({ retry: policy, metrics: undefined, health }), retry(policy, health)], send);
    // Recorded per call, this one would have gone three times and succeeded; per attempt, its second failure opens the breaker.
    expect((await rejection(run(fakeCall()))).code).toBe(ErrorCode.UPSTREAM_ERROR);
    expect(send.attempts).toEqual([1, 2]);
    expect(health.gate('rest/v1').current().state).toBe('open');
    expect((await rejection(run(fakeCall()))).code).toBe(ErrorCode.UPSTREAM_UNAVAILABLE);
    expect(send.attempts).toHaveLength(2);
  });

  it('counts an attempt in flight past the slow-call threshold against its API while it hangs', async () => {
    const clock = new TestClock();
    const health = testHealth(clock, { breaker: { ...DEFAULT_RESILIENCE.breaker, consecutiveFailures: 3, slowCallMs: 1000 } });
    const hanging = hangingSend();
    const run = compose([breaker({ retry: policy, metrics: undefined, health }), retry(policy, health)], hanging.send);
    const slow = Array.from({ length: 3 }, () => run(fakeCall()).catch((error: unknown) => error));
    await Promise.resolve();
    expect(hanging.inFlight()).toBe(3);
    clock.advance(999);
    expect(health.gate('rest/v1').current().state).toBe('closed');
    clock.advance(1);
    // Three attempts still hanging: the breaker is open now, not when they answer.
    expect(health.gate('rest/v1').current().state).toBe('open');
    const fast = (await rejection(run(fakeCall()))) as UpstreamError;
    expect([fast.code, fast.retryAfter]).toEqual([ErrorCode.UPSTREAM_UNAVAILABLE, 1]);
    expect(hanging.inFlight()).toBe(3);
    // They end in success later: counted once (as slow), the breaker stays open until its probe.
    hanging.answerAll(200);
    await Promise.all(slow);
    expect(health.gate('rest/v1').current().state).toBe('open');
  });

  it('a slow probe opens the breaker again when it passes the threshold: one probe per interval reaches a hanging API', async () => {
    const clock = new TestClock();
    const health = testHealth(clock, { breaker: { ...DEFAULT_RESILIENCE.breaker, consecutiveFailures: 1, slowCallMs: 500, openMs: 1000 } });
    const hanging = hangingSend();
    const run = compose([breaker({ retry: policy, metrics: undefined, health }), retry(policy, health)], hanging.send);
    const pending: Array<Promise<unknown>> = [run(fakeCall()).catch((e: unknown) => e)];
    await Promise.resolve();
    clock.advance(500);
    for (let second = 0; second < 5; second += 1) {
      clock.advance(1000);
      for (let i = 0; i < 10; i += 1) pending.push(run(fakeCall()).catch((e: unknown) => e));
      await Promise.resolve();
      clock.advance(500);
    }
    // The first call and one probe a second; every other call failed fast.
    expect(hanging.sent()).toBe(6);
    hanging.answerAll(503);
    await Promise.all(pending);
  });

  it('identity/v1 is its own gate: rest/v1 open does not close the identity checks, nor the other way round', async () => {
    const { send, run } = chainOn([503, 503, 200]);
    await rejection(run(fakeCall()));
    await rejection(run(fakeCall()));
    expect((await rejection(run(fakeCall()))).code).toBe(ErrorCode.UPSTREAM_UNAVAILABLE);
    const sent = send.attempts.length;
    await run(fakeCall({ request: { service: 'identity-v1', path: '/organization' } }));
    expect(send.attempts.length).toBe(sent + 1);
  });

  it('spends the retry budget, then stops retrying', async () => {
    const { send, run } = chainOn([500, 500, 200]);
    expect((await rejection(run(fakeCall({ request: { service: 'core-v2' } })))).code).toBe(ErrorCode.UPSTREAM_ERROR);
    // No floor and one first attempt: 0.2 of a retry, none granted.
    expect(send.attempts).toEqual([1]);
  });
});
