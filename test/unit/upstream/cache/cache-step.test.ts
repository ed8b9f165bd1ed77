import { ErrorCode, UpstreamError } from '../../../../src/errors/codes';
import type { Send, UpstreamCall } from '../../../../src/upstream/chain/call';
import { cacheStep } from '../../../../src/upstream/cache/cache-step';
import type { ChangeNotice } from '../../../../src/upstream/cache/change-scope';
import { UpstreamCache } from '../../../../src/upstream/cache/store';
import type { UpstreamResponse } from '../../../../src/upstream/http-types';
import { fakeCall, rejection } from '../../../helpers/upstream-call';

let clock = Date.UTC(2026, 0, 1);
beforeEach(() => {
  clock = Date.UTC(2026, 0, 1);
});

const answer = (body: unknown, headers: Record<string, string> = {}): UpstreamResponse => ({
  status: 200,
  headers: { 'content-type': 'application/json', 'cache-control': 'private, max-age=10', etag: '"v1"', ...headers },
  body,
  text: JSON.stringify(body),
});
const unavailable = (call: UpstreamCall): UpstreamError => new UpstreamError(ErrorCode.UPSTREAM_UNAVAILABLE, 'breaker open', call.target.info);

function setup(options: { staleIfErrorSeconds?: number; open?: boolean } = {}): { run: Send; sent: UpstreamCall[]; reply: (fn: (call: UpstreamCall) => Promise<UpstreamResponse>) => void; changes: ChangeNotice[] } {
  const cache = new UpstreamCache({ maxBytes: 1_000_000, ttls: new Map(), now: () => clock });
  const changes: ChangeNotice[] = [];
  let handler: (call: UpstreamCall) => Promise<UpstreamResponse> = () => Promise.resolve(answer({ n: 1 }));
  const sent: UpstreamCall[] = [];
  const next: Send = (call) => {
    sent.push(call);
    return handler(call);
  };
  const step = cacheStep({
    cache,
    changes: { changed: (n) => changes.push(n) },
    metrics: undefined,
    now: () => clock,
    staleIfErrorSeconds: options.staleIfErrorSeconds ?? 0,
    breakerOpen: () => options.open === true,
  });
  return { run: step.wrap(next), sent, reply: (fn) => (handler = fn), changes };
}

describe('the cache step', () => {
  it('answers a fresh entry without a call (a copy each time), and counts it in the request\'s tally', async () => {
    const { run, sent } = setup();
    const calls = { count: 0 };
    const first = await run(fakeCall());
    const hit = fakeCall({ caller: { calls } });
    const second = await run(hit);
    expect(sent).toHaveLength(1);
    expect(hit.outcome).toBe('hit');
    expect(second.body).toEqual(first.body);
    expect(second.body).not.toBe(first.body);
    expect(calls).toEqual({ count: 0, reads: { hit: 1, shared: 0, revalidated: 0 } });
  });

  it('revalidates a stale entry with If-None-Match and merges the 304', async () => {
    const { run, sent, reply } = setup();
    await run(fakeCall());
    clock += 11_000;
    reply((call) => {
      call.lastAttempt = { status: 304, retryable: false, retryAfterMs: null, transportCode: undefined, headers: { etag: '"v1"', 'cache-control': 'private, max-age=10' } };
      return Promise.reject(new UpstreamError(ErrorCode.UPSTREAM_ERROR, 'answered 304', { ...call.target.info, status: 304 }));
    });
    const revalidated = fakeCall();
    expect((await run(revalidated)).body).toEqual({ n: 1 });
    expect(revalidated.outcome).toBe('revalidated');
    expect(sent[1]?.request.headers).toMatchObject({ 'if-none-match': '"v1"' });
    await run(fakeCall());
    expect(sent).toHaveLength(2); // fresh again
  });

  it('tells the change feed of a change once answered, or maybe applied, not when refused', async () => {
    const { run, reply, changes } = setup();
    await run(fakeCall({ request: { method: 'PUT', path: '/networks/n1', change: true } }));
    reply((call) => Promise.reject(new UpstreamError(ErrorCode.UPSTREAM_TIMEOUT, 'no answer', call.target.info, { outcomeUnknown: true })));
    await rejection(run(fakeCall({ request: { method: 'DELETE', path: '/networks/n2', change: true } })));
    reply((call) => Promise.reject(new UpstreamError(ErrorCode.BAD_USER_INPUT, 'refused', { ...call.target.info, status: 400 })));
    await rejection(run(fakeCall({ request: { method: 'POST', path: '/networks', change: true } })));
    expect(changes).toEqual([
      { service: 'rest-v1', path: '/networks/n1' },
      { service: 'rest-v1', path: '/networks/n2' },
    ]);
  });

  it('while the breaker is open, a stale entry within the allowance answers, and says how old it is', async () => {
    const open = setup({ staleIfErrorSeconds: 60, open: true });
    await open.run(fakeCall());
    clock += 30_000;
    open.reply((call) => Promise.reject(unavailable(call)));
    const calls = { count: 0 };
    const stale = fakeCall({ caller: { calls } });
    expect((await open.run(stale)).body).toEqual({ n: 1 });
    expect(stale.outcome).toBe('stale');
    expect(calls).toMatchObject({ stale: { reads: 1, maxAgeSeconds: 30 } });
    clock += 60_000; // past the allowance
    expect((await rejection(open.run(fakeCall()))).code).toBe(ErrorCode.UPSTREAM_UNAVAILABLE);

    // Off by default, and never while the breaker is closed.
    for (const options of [{ open: true }, { staleIfErrorSeconds: 60, open: false }]) {
      const s = setup(options);
      await s.run(fakeCall());
      clock += 30_000;
      s.reply((call) => Promise.reject(unavailable(call)));
      expect((await rejection(s.run(fakeCall()))).code).toBe(ErrorCode.UPSTREAM_UNAVAILABLE);
    }
  });
});
