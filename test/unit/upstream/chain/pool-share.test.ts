/** The pool-share step (src/upstream/chain/pool-share.ts): a share of the connections per caller, the waiting served round robin. */
import { Cancellation } from '../../../../src/core/cancellation';
import { ErrorCode, UpstreamError } from '../../../../src/errors/codes';
import type { Send, UpstreamCall } from '../../../../src/upstream/chain/call';
import { FairQueue, poolShare } from '../../../../src/upstream/chain/pool-share';
import type { UpstreamResponse } from '../../../../src/upstream/http-types';
import { fakeCall, rejection } from '../../../helpers/upstream-call';

/** A send that holds each call until the test lets the oldest go; records who was sent, in order. */
function heldSend(): { send: Send; order: string[]; inFlight(): number; finishOldest(): Promise<void> } {
  const held: Array<() => void> = [];
  const order: string[] = [];
  return {
    order,
    send: (call: UpstreamCall) =>
      new Promise<UpstreamResponse>((resolve) => {
        order.push(call.scope.credentialKey());
        held.push(() => resolve({ status: 200, headers: {}, body: null, text: '' }));
      }),
    inFlight: () => held.length,
    async finishOldest() {
      held.shift()?.();
      // Let the finished call give its slot back and the next one reach the send.
      for (let i = 0; i < 5; i += 1) await Promise.resolve();
    },
  };
}

const settle = async (): Promise<void> => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

describe('the pool-share step', () => {
  it("a caller alone may use every connection; another caller's call goes with the next one that frees, before the burst's queue", async () => {
    const held = heldSend();
    const run = poolShare(4).wrap(held.send);
    const burst = Array.from({ length: 20 }, () => run(fakeCall({ credentialKey: 'burst' })));
    await settle();
    expect(held.inFlight()).toBe(4);
    const single = run(fakeCall({ credentialKey: 'single' }));
    await settle();
    expect(held.inFlight()).toBe(4);
    await held.finishOldest();
    // The freed connection went to the caller under its share, not to the 16 calls queued before it.
    expect(held.order.slice(4, 5)).toEqual(['single']);
    while (held.inFlight() > 0) await held.finishOldest();
    await Promise.all([...burst, single]);
    expect(held.order.filter((k) => k === 'burst')).toHaveLength(20);
  });

  it('serves the waiting callers round robin', async () => {
    const held = heldSend();
    const run = poolShare(2).wrap(held.send);
    const calls = [
      ...Array.from({ length: 4 }, () => run(fakeCall({ credentialKey: 'a' }))),
      ...Array.from({ length: 3 }, () => run(fakeCall({ credentialKey: 'b' }))),
      ...Array.from({ length: 3 }, () => run(fakeCall({ credentialKey: 'c' }))),
    ];
    await settle();
    while (held.inFlight() > 0) await held.finishOldest();
    await Promise.all(calls);
    // Each freed connection goes to the next caller in turn under its share (one each of two connections among three).
    expect(held.order).toEqual(['a', 'a', 'b', 'a', 'c', 'b', 'a', 'c', 'b', 'c']);
  });

  it('a waiting call whose request stops leaves the queue, fails as stopped, and is never sent', async () => {
    const held = heldSend();
    const run = poolShare(1).wrap(held.send);
    const first = run(fakeCall({ credentialKey: 'a' }));
    const signal = new Cancellation();
    const waiting = run(fakeCall({ credentialKey: 'b', caller: { signal } }));
    await settle();
    signal.abort(new Error('client went away'));
    const error = await rejection(waiting);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error.code).toBe(ErrorCode.UPSTREAM_UNAVAILABLE);
    await held.finishOldest();
    await first;
    expect(held.order).toEqual(['a']);
  });

  it('gives the slot back when the call fails: calls queued behind failing ones all go', async () => {
    let sent = 0;
    const failing: Send = () => {
      sent += 1;
      return Promise.reject(new Error('boom'));
    };
    const run = poolShare(1).wrap(failing);
    const errors = await Promise.all(Array.from({ length: 3 }, () => rejection(run(fakeCall()))));
    expect(errors.map((e) => e.message)).toEqual(['boom', 'boom', 'boom']);
    expect(sent).toBe(3);
  });

  it('hands a slot at once to a caller under its share, and queues past the connections', () => {
    const queue = new FairQueue(2);
    const stopped = (): Error => new Error('stopped');
    expect(typeof queue.take('a', new Cancellation(), stopped)).toBe('function');
    expect(typeof queue.take('b', new Cancellation(), stopped)).toBe('function');
    expect(queue.take('c', new Cancellation(), stopped)).toBeInstanceOf(Promise);
    expect(queue.stats()).toEqual({ running: 2, waiting: 1 });
  });
});
