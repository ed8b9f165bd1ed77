/**
 * The in-process poller registry on jest's fake timers: sharing, change detection, backoff,
 * error classification, limits and teardown, with a scripted kind instead of an upstream.
 */
import { ErrorCode, LimitExceededError, UpstreamError } from '../../../src/errors/codes';
import { createPollerRegistry, mapStream, PollAbandonedError, untilTerminal, type PollerRegistry, type PollKind, type PollOwner, type PollStream } from '../../../src/pollers';

type Step = number | Error;

/** A kind whose target is a script: poll n answers the script's n-th step (the last repeats). */
interface Script {
  name: string;
  steps: Step[];
  polls: number;
}

const kind: PollKind<Script, number, string> = {
  name: 'scripted',
  key: (s) => s.name,
  async poll(script, session) {
    expect(session).toMatch(/^session of /);
    const step = script.steps[Math.min(script.polls, script.steps.length - 1)];
    script.polls += 1;
    if (step instanceof Error) throw step;
    if (step === undefined) throw new Error('empty script');
    return step;
  },
  fingerprint: (n) => String(n),
  isTerminal: (n) => n >= 100,
};

const upstream = (code: ErrorCode, status: number | null): UpstreamError =>
  new UpstreamError(code, `upstream ${status ?? 'no answer'}`, { service: 'rest-v1', method: 'GET', path: '/x', status });

const owner = (name: string, token = `${name}-token`): PollOwner<string> => ({ fingerprint: name, credential: token, session: () => `session of ${token}` });
const script = (name: string, ...steps: Step[]): Script => ({ name, steps, polls: 0 });

const SETTINGS = { intervalMs: 100, maxIntervalMs: 1000, maxErrors: 3, maxPollers: 3 };
let registry: PollerRegistry<string>;

beforeEach(() => {
  jest.useFakeTimers();
  registry = createPollerRegistry<string>(SETTINGS);
});
afterEach(async () => {
  await registry.close();
  expect(jest.getTimerCount()).toBe(0);
  jest.useRealTimers();
});

/** Everything a stream has delivered so far, and how it ended. */
function collect<V>(stream: PollStream<V>): { values: V[]; ended: 'no' | 'done' | 'error'; error: unknown } {
  const seen: { values: V[]; ended: 'no' | 'done' | 'error'; error: unknown } = { values: [], ended: 'no', error: null };
  void (async () => {
    try {
      for await (const value of stream) seen.values.push(value);
      seen.ended = 'done';
    } catch (error) {
      seen.ended = 'error';
      seen.error = error;
    }
  })();
  return seen;
}

const settle = (): Promise<void> => jest.advanceTimersByTimeAsync(0);

describe('sharing', () => {
  it('polls a target once per interval for every subscriber with the same owner', async () => {
    const target = script('a', 1, 1, 2, 2, 2);
    const first = collect(registry.acquire(kind, target, owner('alice')));
    const second = collect(registry.acquire(kind, target, owner('alice')));
    await settle();
    expect(registry.stats()).toEqual({ pollers: 1, subscribers: 2 });
    await jest.advanceTimersByTimeAsync(100); // poll 2: unchanged
    await jest.advanceTimersByTimeAsync(150); // poll 3 (pause 150 after no change): 2
    expect(target.polls).toBe(3);
    expect(first.values).toEqual([1, 2]);
    expect(second.values).toEqual([1, 2]);
  });

  it('keeps owners apart: another credential gets its own poller', async () => {
    const target = script('a', 1);
    collect(registry.acquire(kind, target, owner('alice')));
    collect(registry.acquire(kind, target, owner('bob')));
    await settle();
    expect(registry.stats()).toEqual({ pollers: 2, subscribers: 2 });
    expect(target.polls).toBe(2);
  });

  it('gives a late subscriber the latest value at once, then the changes', async () => {
    const target = script('a', 1, 2, 3);
    collect(registry.acquire(kind, target, owner('alice')));
    await jest.advanceTimersByTimeAsync(100);
    const late = collect(registry.acquire(kind, target, owner('alice')));
    await settle();
    expect(late.values).toEqual([2]);
    await jest.advanceTimersByTimeAsync(100);
    expect(late.values).toEqual([2, 3]);
  });
});

describe('life cycle', () => {
  it('emits a terminal value, completes every subscriber and stops', async () => {
    const target = script('a', 1, 100);
    const first = collect(registry.acquire(kind, target, owner('alice')));
    await jest.advanceTimersByTimeAsync(100);
    expect(first).toMatchObject({ values: [1, 100], ended: 'done' });
    expect(registry.stats()).toEqual({ pollers: 0, subscribers: 0 });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('stops when the last subscriber leaves, by return() or by its signal', async () => {
    const target = script('a', 1);
    const controller = new AbortController();
    const byReturn = registry.acquire(kind, target, owner('alice'));
    const bySignal = collect(registry.acquire(kind, target, owner('alice'), controller.signal));
    await settle();
    await byReturn.return?.();
    expect(registry.stats()).toEqual({ pollers: 1, subscribers: 1 });
    controller.abort();
    await settle();
    expect(bySignal.ended).toBe('done');
    expect(registry.stats()).toEqual({ pollers: 0, subscribers: 0 });
    const polls = target.polls;
    await jest.advanceTimersByTimeAsync(5000);
    expect(target.polls).toBe(polls);
  });

  it('starts afresh for a target whose poller has stopped', async () => {
    const target = script('a', 1);
    await registry.acquire(kind, target, owner('alice')).return?.();
    const again = collect(registry.acquire(kind, target, owner('alice')));
    await settle();
    expect(again.values).toEqual([1]);
  });

  it('close() ends every stream and refuses new ones', async () => {
    const open = collect(registry.acquire(kind, script('a', 1), owner('alice')));
    await settle();
    await registry.close();
    await settle();
    expect(open.ended).toBe('done');
    expect(() => registry.acquire(kind, script('b', 1), owner('alice'))).toThrow(/closed/);
  });
});

describe('pauses', () => {
  it('stretch 1.5× per poll without change up to the ceiling, and go back to the interval on a change', async () => {
    const target = script('a', 1, 1, 1, 1, 1, 1, 1, 1, 2, 2);
    collect(registry.acquire(kind, target, owner('alice')));
    await settle();
    // After polls 1..9: a change (100), six without change (150, 225, 338, 507, 761, then the
    // 1000 ceiling), one more at the ceiling, then the change to 2 (100 again).
    for (const [i, pause] of [100, 150, 225, 338, 507, 761, 1000, 1000, 100].entries()) {
      await jest.advanceTimersByTimeAsync(pause - 1);
      expect(target.polls).toBe(i + 1);
      await jest.advanceTimersByTimeAsync(1);
      expect(target.polls).toBe(i + 2);
    }
  });

  it("follow a kind's own pace when it has one, with what it needs to decide", async () => {
    const seen: Array<{ outcome: string; pauseMs: number; proposedMs: number; last: number | null; sinceChangeMs: number }> = [];
    // Odd values are "busy": poll again after 10 ms; even values leave the registry's pause.
    const paced: PollKind<Script, number, string> = {
      ...kind,
      name: 'paced',
      nextPauseMs(pace) {
        seen.push(pace);
        return pace.last !== null && pace.last % 2 === 1 ? 10 : undefined;
      },
    };
    const target = script('a', 1, 1, 1, 2, 2, 2);
    collect(registry.acquire(paced, target, owner('alice')));
    await settle();
    for (const [i, pause] of [10, 10, 10, 100, 150].entries()) {
      await jest.advanceTimersByTimeAsync(pause - 1);
      expect(target.polls).toBe(i + 1);
      await jest.advanceTimersByTimeAsync(1);
      expect(target.polls).toBe(i + 2);
    }
    expect(seen.map((p) => [p.outcome, p.pauseMs, p.proposedMs, p.last])).toEqual([
      ['changed', 100, 100, 1],
      ['unchanged', 10, 100, 1],
      ['unchanged', 10, 100, 1],
      ['changed', 10, 100, 2],
      ['unchanged', 100, 150, 2],
      ['unchanged', 150, 225, 2],
    ]);
    expect(seen.map((p) => p.sinceChangeMs)).toEqual([0, 10, 20, 0, 100, 250]);
  });
});

describe('errors', () => {
  it('ends every subscriber with UNAUTHENTICATED at the first 401', async () => {
    const target = script('a', 1, upstream(ErrorCode.UNAUTHENTICATED, 401));
    const first = collect(registry.acquire(kind, target, owner('alice')));
    const second = collect(registry.acquire(kind, target, owner('alice')));
    await jest.advanceTimersByTimeAsync(100);
    for (const seen of [first, second]) {
      expect(seen).toMatchObject({ values: [1], ended: 'error' });
      expect(seen.error).toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
    }
    expect(registry.stats().pollers).toBe(0);
  });

  it('retries transient failures without emitting them, with doubled pauses', async () => {
    const target = script('a', upstream(ErrorCode.UPSTREAM_ERROR, 503), upstream(ErrorCode.UPSTREAM_TIMEOUT, null), 1);
    const seen = collect(registry.acquire(kind, target, owner('alice')));
    await settle();
    await jest.advanceTimersByTimeAsync(200); // pause after the first error: 200
    expect(target.polls).toBe(2);
    await jest.advanceTimersByTimeAsync(400); // after the second: 400
    expect(seen).toMatchObject({ values: [1], ended: 'no' });
  });

  it('ends with the last transient error after maxErrors in a row', async () => {
    const target = script('a', 1, upstream(ErrorCode.RATE_LIMITED, 429));
    const seen = collect(registry.acquire(kind, target, owner('alice')));
    await jest.advanceTimersByTimeAsync(100 + 200 + 400);
    expect(target.polls).toBe(4);
    expect(seen).toMatchObject({ values: [1], ended: 'error', error: { code: ErrorCode.RATE_LIMITED } });
  });

  it("follows the kind's classification: wait, emit a substitute value", async () => {
    const gone = upstream(ErrorCode.NOT_FOUND, 404);
    const lenient: PollKind<Script, number, string> = {
      ...kind,
      classifyError: (error, state) => (error === gone ? (state.last === null ? { action: 'wait' } : { action: 'emit', value: 900 }) : undefined),
    };
    const target = script('a', gone, gone, 1, gone);
    const seen = collect(registry.acquire(lenient, target, owner('alice')));
    // Waiting stretches the pause as a poll without change does: 150, 225; then 100 after the 1.
    await jest.advanceTimersByTimeAsync(150 + 225 + 100);
    expect(seen).toMatchObject({ values: [1, 900], ended: 'done' });
  });

  it('fails on anything else (a 403, a bug) at once', async () => {
    const seen = collect(registry.acquire(kind, script('a', upstream(ErrorCode.FORBIDDEN, 403)), owner('alice')));
    await settle();
    expect(seen).toMatchObject({ ended: 'error', error: { code: ErrorCode.FORBIDDEN } });
  });
});

describe('limits', () => {
  it('refuses a poller past maxPollers, while joining a running one still works', async () => {
    for (const name of ['alice', 'bob', 'carol']) collect(registry.acquire(kind, script(name, 1), owner(name)));
    expect(() => registry.acquire(kind, script('d', 1), owner('dave'))).toThrow(expect.objectContaining({ code: ErrorCode.RATE_LIMITED, scope: 'gateway', limit: 'pollers' }));
    expect(() => registry.acquire(kind, script('alice', 1), owner('alice'))).not.toThrow();
    await settle();
  });

  it("gives each owner a share: one caller cannot hold every poller, and its share comes back when a poller stops", async () => {
    await registry.close();
    registry = createPollerRegistry<string>({ ...SETTINGS, maxPollers: 10, maxPollersPerCaller: 2 });
    const first = registry.acquire(kind, script('a', 1), owner('alice'));
    collect(registry.acquire(kind, script('b', 1), owner('alice')));
    let refusal: unknown = null;
    try {
      registry.acquire(kind, script('c', 1), owner('alice'));
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(LimitExceededError);
    expect(refusal).toMatchObject({ code: ErrorCode.RATE_LIMITED, scope: 'caller', max: 2, retryAfter: expect.any(Number) });
    // Another caller is not held back by alice's share.
    collect(registry.acquire(kind, script('c', 1), owner('bob')));
    first.release();
    expect(() => collect(registry.acquire(kind, script('c', 1), owner('alice')))).not.toThrow();
    await settle();
  });

  it('refuses an anonymous owner before any poll: a poll needs credentials', async () => {
    const target = script('a', 1);
    expect(() => registry.acquire(kind, target, owner('anonymous'))).toThrow(expect.objectContaining({ code: ErrorCode.UNAUTHENTICATED }));
    await settle();
    expect(target.polls).toBe(0);
    expect(registry.stats().pollers).toBe(0);
  });
});

describe('helpers', () => {
  it('untilTerminal resolves with the terminal value and reports the way there', async () => {
    const seen: number[] = [];
    const done = untilTerminal(registry.forOwner(owner('alice')), kind, script('a', 1, 2, 100), new AbortController().signal, (v) => seen.push(v));
    await jest.advanceTimersByTimeAsync(200);
    await expect(done).resolves.toBe(100);
    expect(seen).toEqual([1, 2, 100]);
  });

  it('untilTerminal rejects with the poller error, or PollAbandonedError when the caller leaves', async () => {
    const failing = untilTerminal(registry.forOwner(owner('alice')), kind, script('a', upstream(ErrorCode.UNAUTHENTICATED, 401)), new AbortController().signal);
    const failed = expect(failing).rejects.toMatchObject({ code: ErrorCode.UNAUTHENTICATED });
    await settle();
    await failed;
    const controller = new AbortController();
    const leaving = untilTerminal(registry.forOwner(owner('alice')), kind, script('b', 1), controller.signal);
    await settle();
    controller.abort();
    await expect(leaving).rejects.toBeInstanceOf(PollAbandonedError);
    expect(registry.stats().pollers).toBe(0);
  });

  it('mapStream maps values and leaves with the stream it wraps', async () => {
    const mapped = mapStream(registry.acquire(kind, script('a', 1), owner('alice')), (n) => ({ n }));
    await settle();
    await expect(mapped.next()).resolves.toEqual({ done: false, value: { n: 1 } });
    await mapped.return?.();
    expect(registry.stats().pollers).toBe(0);
  });
});
