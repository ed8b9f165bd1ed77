/** Cancellation: the cheap per-request "stop now" (src/core/cancellation.ts). */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { Cancellation, onAbort } from '../../../src/core/cancellation';
import { waitUntil } from '../../helpers/wait';

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

  it('stops a real undici request in flight, and undici lets go of its listener when a request ends', async () => {
    const server: Server = createServer((req, res) => {
      if (req.url === '/quick') res.end('ok');
      // '/held' is never answered: only the cancellation ends it.
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const quick = new Cancellation();
      const answered = await request(`${base}/quick`, { signal: quick });
      expect(await answered.body.text()).toBe('ok');
      await waitUntil(() => quick.listenerCount('abort') === 0, 'undici lets go of the finished request\'s listener');

      const held = new Cancellation();
      const pending = request(`${base}/held`, { signal: held });
      await waitUntil(() => held.listenerCount('abort') === 1, 'undici listens on the held request\'s cancellation');
      held.abort();
      await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
