import { compose } from '../../../../src/upstream/chain/call';
import { retry } from '../../../../src/upstream/chain/retry';
import { traceSpan } from '../../../../src/upstream/chain/trace-span';
import type { OperationSpan, UpstreamSpanStart } from '../../../../src/tracing';
import { fakeCall, rejection, scriptedSend, testHealth } from '../../../helpers/upstream-call';

const policy = { attempts: 3, baseDelayMs: 0, maxDelayMs: 0, maxRetryAfterMs: 1000 };

describe('the retry step', () => {
  it('tries a GET again on 5xx and connection errors, up to the attempts', async () => {
    const send = scriptedSend(['reset', 503, 200]);
    await compose([retry(policy, testHealth())], send)(fakeCall());
    expect(send.attempts).toEqual([1, 2, 3]);
    const failing = scriptedSend([500]);
    expect((await rejection(compose([retry(policy, testHealth())], failing)(fakeCall()))).code).toBe('UPSTREAM_ERROR');
    expect(failing.attempts).toEqual([1, 2, 3]);
  });

  it('never sends a change twice, nor a 4xx', async () => {
    for (const method of ['POST', 'PUT', 'DELETE'] as const) {
      const send = scriptedSend([503]);
      await rejection(compose([retry(policy, testHealth())], send)(fakeCall({ request: { method } })));
      expect(send.attempts).toEqual([1]);
    }
    const notFound = scriptedSend([404]);
    await rejection(compose([retry(policy, testHealth())], notFound)(fakeCall()));
    expect(notFound.attempts).toEqual([1]);
  });

  it('does not retry an answer that names its pause (Retry-After): the window is the breaker step\'s', async () => {
    const send = scriptedSend([429], { retryAfterMs: 1 });
    expect((await rejection(compose([retry(policy, testHealth())], send)(fakeCall()))).code).toBe('RATE_LIMITED');
    expect(send.attempts).toEqual([1]);
  });

  it('opens a trace span per attempt that leaves, and sends its headers', async () => {
    const starts: UpstreamSpanStart[] = [];
    const ends: Array<{ status: number | null; errorCode?: string | undefined }> = [];
    const trace: OperationSpan = {
      startUpstream: (start) => {
        starts.push(start);
        return { headers: { traceparent: `tp-${start.attempt}` }, end: (result) => ends.push(result) };
      },
      end: () => undefined,
    };
    const headers: unknown[] = [];
    const send = scriptedSend([503, 200]);
    await compose([traceSpan, retry(policy, testHealth())], (attempt) => {
      headers.push(attempt.headers);
      return send(attempt);
    })(fakeCall({ caller: { trace } }));
    expect(starts.map((s) => s.attempt)).toEqual([1, 2]);
    expect(headers).toEqual([{ traceparent: 'tp-1' }, { traceparent: 'tp-2' }]);
    expect(ends).toEqual([{ status: 503, errorCode: 'UPSTREAM_ERROR' }, { status: 200 }]);
  });
});
