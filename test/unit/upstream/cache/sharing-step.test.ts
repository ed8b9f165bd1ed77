import { ErrorCode, UpstreamError } from '../../../../src/errors/codes';
import { Cancellation } from '../../../../src/core/cancellation';
import type { Send, UpstreamCall } from '../../../../src/upstream/chain/call';
import { sharingStep } from '../../../../src/upstream/cache/sharing-step';
import { UpstreamCache } from '../../../../src/upstream/cache/store';
import type { UpstreamResponse } from '../../../../src/upstream/http-types';
import { fakeCall, rejection } from '../../../helpers/upstream-call';

/** A send whose calls wait until the test answers them; it records each call and whether it was cancelled. */
function heldSend(): Send & { calls: Array<{ call: UpstreamCall; answer(r: UpstreamResponse): void; fail(e: Error): void; aborted(): boolean }> } {
  const calls: Array<{ call: UpstreamCall; answer(r: UpstreamResponse): void; fail(e: Error): void; aborted(): boolean }> = [];
  const send: Send = (call) =>
    new Promise<UpstreamResponse>((resolve, reject) => {
      call.lastAttempt = null;
      calls.push({
        call,
        answer: (r) => {
          call.lastAttempt = { status: r.status, retryable: false, retryAfterMs: null, transportCode: undefined };
          resolve(r);
        },
        fail: (e) => {
          call.lastAttempt = { status: 500, retryable: false, retryAfterMs: null, transportCode: undefined };
          reject(e);
        },
        aborted: () => call.signal.aborted,
      });
    });
  return Object.assign(send, { calls });
}

const json = (value: unknown): UpstreamResponse => ({ status: 200, headers: { 'content-type': 'application/json' }, body: value, text: JSON.stringify(value) });
const as = (credentialKey: string, options: Parameters<typeof fakeCall>[0] = {}): UpstreamCall => ({ ...fakeCall(options), credentialKey });
const tick = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('in-flight sharing', () => {
  it('identical GETs of one credential share one call; each caller gets its own copy', async () => {
    const send = heldSend();
    const run = sharingStep(null).wrap(send);
    const calls = [as('a'), as('a'), as('a')];
    const answers = calls.map((c) => run(c));
    await tick();
    expect(send.calls).toHaveLength(1);
    send.calls[0]!.answer(json({ items: [1, 2] }));
    const [x, y, z] = await Promise.all(answers);
    expect([x?.body, y?.body, z?.body]).toEqual([{ items: [1, 2] }, { items: [1, 2] }, { items: [1, 2] }]);
    expect(x?.body).not.toBe(y?.body);
    expect(y?.body).not.toBe(z?.body);
    expect(calls.map((c) => c.outcome)).toEqual(['network', 'shared', 'shared']);
  });

  it('never shares across credentials, nor a change, nor once the call settled', async () => {
    const send = heldSend();
    const run = sharingStep(null).wrap(send);
    const a = run(as('a'));
    const b = run(as('b'));
    const p1 = run(as('a', { request: { method: 'POST', path: '/networks' } }));
    const p2 = run(as('a', { request: { method: 'POST', path: '/networks' } }));
    await tick();
    expect(send.calls).toHaveLength(4);
    for (const held of send.calls) held.answer(json({}));
    await Promise.all([a, b, p1, p2]);
    const later = run(as('a'));
    await tick();
    expect(send.calls).toHaveLength(5);
    send.calls[4]!.answer(json({}));
    await later;
  });

  it('a GET with a body (a search query) shares only with the same body', async () => {
    const send = heldSend();
    const run = sharingStep(null).wrap(send);
    const search = (size: number): UpstreamCall => as('search', { request: { method: 'GET', path: '/networks', json: { size } } });
    const answers = [run(search(5)), run(search(10)), run(search(10))];
    await tick();
    expect(send.calls.map((held) => held.call.request.json)).toEqual([{ size: 5 }, { size: 10 }]);
    send.calls[0]!.answer(json({ hits: 5 }));
    send.calls[1]!.answer(json({ hits: 10 }));
    expect((await Promise.all(answers)).map((r) => r.body)).toEqual([{ hits: 5 }, { hits: 10 }, { hits: 10 }]);
  });

  it('a caller that leaves does not cancel the others; the call is cancelled when the last one leaves', async () => {
    const send = heldSend();
    const run = sharingStep(null).wrap(send);
    const leaving = new Cancellation();
    const staying = new Cancellation();
    const first = run(as('a', { caller: { signal: leaving } }));
    const second = run(as('a', { caller: { signal: staying } }));
    await tick();
    leaving.abort();
    expect(await rejection(first)).toBeInstanceOf(UpstreamError);
    expect(send.calls[0]!.aborted()).toBe(false);
    send.calls[0]!.answer(json({ ok: true }));
    expect((await second).body).toEqual({ ok: true });

    const one = new Cancellation();
    const two = new Cancellation();
    const c1 = run(as('a', { caller: { signal: one } }));
    const c2 = run(as('a', { caller: { signal: two } }));
    await tick();
    one.abort();
    two.abort();
    await rejection(c1);
    await rejection(c2);
    expect(send.calls[1]!.aborted()).toBe(true);
    // A cancelled call is no longer shared: the next caller makes a new one.
    const next = run(as('a'));
    await tick();
    expect(send.calls).toHaveLength(3);
    send.calls[2]!.answer(json({}));
    await next;
  });

  it('an error reaches only the callers waiting for it; one refused before it was sent is not handed on', async () => {
    const send = heldSend();
    const run = sharingStep(null).wrap(send);
    const waiting = [run(as('a')), run(as('a'))];
    await tick();
    send.calls[0]!.fail(new UpstreamError(ErrorCode.UPSTREAM_ERROR, 'answered 500', { service: 'rest-v1', method: 'GET', path: '/networks', status: 500 }));
    for (const w of waiting) expect((await rejection(w)).code).toBe(ErrorCode.UPSTREAM_ERROR);
    const after = run(as('a'));
    await tick();
    send.calls[1]!.answer(json({ fine: true }));
    expect((await after).body).toEqual({ fine: true });

    // The first caller's call is refused unsent (its budget): the other one makes its own.
    let first = true;
    const refusing: Send = (call) => {
      if (first) {
        first = false;
        call.lastAttempt = null;
        return Promise.reject(new Error('budget of the first caller'));
      }
      return send(call);
    };
    const run2 = sharingStep(null).wrap(refusing);
    const owner = run2(as('a'));
    const joiner = run2(as('a'));
    expect((await rejection(owner)).message).toBe('budget of the first caller');
    await tick();
    send.calls[2]!.answer(json({ own: true }));
    expect((await joiner).body).toEqual({ own: true });
  });

  it('a change touching the URL detaches the call: callers after it make a new one', async () => {
    const cache = new UpstreamCache({ maxBytes: 1_000_000, ttls: new Map() });
    const send = heldSend();
    const run = sharingStep(cache).wrap(send);
    const before = run(as('a', { request: { path: '/networks/n1' } }));
    await tick();
    cache.invalidate({ service: 'rest-v1', path: '/networks/n1' });
    const after = run(as('a', { request: { path: '/networks/n1' } }));
    await tick();
    expect(send.calls).toHaveLength(2);
    send.calls[0]!.answer(json({ name: 'old' }));
    send.calls[1]!.answer(json({ name: 'new' }));
    expect((await before).body).toEqual({ name: 'old' });
    expect((await after).body).toEqual({ name: 'new' });
  });

  it('shares again once every call has settled, and a change still detaches what was joined since', async () => {
    const cache = new UpstreamCache({ maxBytes: 1_000_000, ttls: new Map() });
    const send = heldSend();
    const run = sharingStep(cache).wrap(send);
    const burst = (): Array<Promise<UpstreamResponse>> => [run(as('a', { request: { path: '/networks/n1' } })), run(as('a', { request: { path: '/networks/n1' } }))];
    for (const round of [0, 1]) {
      const answers = burst();
      await tick();
      expect(send.calls).toHaveLength(round + 1);
      send.calls[round]!.answer(json({ round }));
      expect((await Promise.all(answers)).map((r) => r.body)).toEqual([{ round }, { round }]);
    }
    const joined = burst();
    await tick();
    cache.invalidate({ service: 'rest-v1', path: '/networks/n1' });
    const after = run(as('a', { request: { path: '/networks/n1' } }));
    await tick();
    expect(send.calls).toHaveLength(4);
    send.calls[2]!.answer(json({ name: 'old' }));
    send.calls[3]!.answer(json({ name: 'new' }));
    expect((await Promise.all(joined)).map((r) => r.body)).toEqual([{ name: 'old' }, { name: 'old' }]);
    expect((await after).body).toEqual({ name: 'new' });
  });
});
