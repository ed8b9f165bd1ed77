/** Cancellation: the cheap per-request "stop now" (src/core/cancellation.ts). */
import { Cancellation, onAbort } from '../../../src/core/cancellation';

describe('Cancellation', () => {
  it('aborts once, with an AbortError by default, and tells its listeners once', () => {
    const cancellation = new Cancellation();
    const heard: unknown[] = [];
    onAbort(cancellation, () => heard.push(cancellation.reason));
    expect(cancellation.aborted).toBe(false);
    cancellation.abort();
    cancellation.abort(new Error('second'));
    expect(cancellation.aborted).toBe(true);
    expect(cancellation.reason).toBeInstanceOf(DOMException);
    expect((cancellation.reason as DOMException).name).toBe('AbortError');
    expect(heard).toEqual([cancellation.reason]);
  });

  it('gives a standard AbortSignal that follows it, made before or after the abort, with its reason', () => {
    const before = new Cancellation();
    const early = before.abortSignal();
    expect(early.aborted).toBe(false);
    const reason = new Error('budget crossed');
    before.abort(reason);
    expect(early.aborted).toBe(true);
    expect(early.reason).toBe(reason);
    expect(before.abortSignal()).toBe(early);

    const after = new Cancellation();
    after.abort(reason);
    expect(after.abortSignal().aborted).toBe(true);
    expect(after.abortSignal().reason).toBe(reason);
  });

  it('onAbort listens on either form, and stops listening when asked', () => {
    const controller = new AbortController();
    const cancellation = new Cancellation();
    const heard: string[] = [];
    const stopSignal = onAbort(controller.signal, () => heard.push('signal'));
    const stopCancellation = onAbort(cancellation, () => heard.push('cancellation'));
    stopSignal();
    stopCancellation();
    controller.abort();
    cancellation.abort();
    expect(heard).toEqual([]);
    expect(cancellation.listenerCount('abort')).toBe(0);

    const again = new Cancellation();
    onAbort(again, () => heard.push('again'));
    again.abort();
    expect(heard).toEqual(['again']);
  });

  it('holds thousands of listeners without a warning (one per upstream call in flight)', () => {
    const warnings: Error[] = [];
    const onWarning = (w: Error): void => void warnings.push(w);
    process.on('warning', onWarning);
    try {
      const cancellation = new Cancellation();
      for (let i = 0; i < 2000; i++) onAbort(cancellation, () => undefined);
      expect(cancellation.listenerCount('abort')).toBe(2000);
    } finally {
      process.off('warning', onWarning);
    }
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning')).toEqual([]);
  });
});
