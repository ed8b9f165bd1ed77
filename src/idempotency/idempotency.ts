/**
 * Once per identity and key: the algorithm, written once over a store (store.ts) that is either
 * this process's or the fleet's. The first request with a key claims it and runs, renewing a lease
 * while it does; a repeat of the same request gets the first result; a repeat while the first runs
 * waits for it (bounded) and is otherwise told to retry later; the key with another request is
 * refused. Never a second run while the first may have sent its change: a first run whose lease
 * lapsed (its replica died) leaves the key "outcome unknown" until it expires. A kept result is
 * given again only to the credential that produced it: another token of the same identity (a
 * narrower one, or a refreshed one) is told the outcome exists but gets none of its data.
 */
import type { FormattedExecutionResult } from 'graphql';
import type { IdempotencyBound, IdempotencyLease, IdempotencyLimits, IdempotencyStore } from './store';
import { readKept, resultText } from './result';

/** Time as the algorithm sees it; tests inject one they move. */
export interface IdempotencyClock {
  now(): number;
  /** Resolves after `ms` (or sooner once `signal` aborts). */
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
  /** Calls `fn` every `ms` until the answer is called (a run's heartbeat; it never keeps the process alive). */
  every(ms: number, fn: () => void): () => void;
}

export const systemClock: IdempotencyClock = {
  now: () => Date.now(),
  sleep: (ms, signal) =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal?.addEventListener('abort', done, { once: true });
    }),
  every: (ms, fn) => {
    const timer = setInterval(fn, ms);
    timer.unref();
    return () => clearInterval(timer);
  },
};

export interface IdempotencyOptions {
  store: IdempotencyStore;
  /** @default systemClock */
  clock?: IdempotencyClock;
  /** How long a first run holds the key without renewing it; renewed every third of it while it runs. */
  leaseMs: number;
  /** Longest a repeat waits for a running first before it is told to retry. */
  waitMs: number;
  /** How long a finished key is kept. */
  ttlMs: number;
  limits: IdempotencyLimits;
  /** How often a waiting repeat looks again. @default a tenth of `waitMs`, from 5 to 100 ms */
  pollMs?: number;
  /** A lease renewal that failed (the store is unreachable): told, never thrown. */
  warn?(message: string): void;
}

/** The first run: it must end with exactly one of these (later calls do nothing). */
export interface IdempotentRun {
  readonly kind: 'run';
  /** Keeps the result for repeats; answers whether it was kept (false: too large, or over a bytes bound). */
  finish(result: FormattedExecutionResult): Promise<boolean>;
  /** Lets the key go: nothing was sent upstream, so a repeat may run as a first request. */
  abandon(): Promise<void>;
}

export type IdempotencyOutcome =
  | IdempotentRun
  /** The first result, to serve marked as a replay (result.ts `markReplayed`). */
  | { readonly kind: 'replay'; readonly result: FormattedExecutionResult }
  /** The key was used for another operation or other variables: refused, no call. */
  | { readonly kind: 'reused' }
  /** The first still runs after the wait: refused with a retry hint, no call. */
  | { readonly kind: 'in-progress'; readonly retryAfterSeconds: number }
  /**
   * No result to give and no second run: the first run's lease lapsed before it recorded an outcome
   * (`lease-lapsed`: its change may have been applied), it finished and its result was not kept
   * (`result-not-kept`), or it was kept for another credential of the same identity
   * (`other-credential`). The client checks for the object itself (e.g. lists by name).
   */
  | { readonly kind: 'outcome-unknown'; readonly reason: 'lease-lapsed' | 'result-not-kept' | 'other-credential' }
  /** A new key is past a bound: refused (`RATE_LIMITED`), no call. */
  | { readonly kind: 'full'; readonly bound: IdempotencyBound; readonly max: number; readonly retryAfterSeconds: number };

export interface Idempotency {
  /**
   * What to do with a mutation that carries `key` for identity `scope`, sent with `credential` (a
   * keyed hash of its token). `signal` ends a wait early (the client left).
   */
  begin(scope: string, key: string, fingerprint: string, credential: string, signal?: AbortSignal): Promise<IdempotencyOutcome>;
  /** Runs still holding a lease in this process. */
  running(): number;
}

export function createIdempotency(options: IdempotencyOptions): Idempotency {
  const { store, leaseMs, waitMs, ttlMs, limits } = options;
  const clock = options.clock ?? systemClock;
  const pollMs = options.pollMs ?? Math.min(100, Math.max(5, Math.floor(waitMs / 10)));
  const retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  const heartbeats = new Set<() => void>();

  function run(lease: IdempotencyLease, credential: string): IdempotentRun {
    const stop = clock.every(Math.max(1, Math.floor(leaseMs / 3)), () => {
      store.renew(lease, clock.now(), leaseMs).catch((error: unknown) => options.warn?.(`idempotency lease not renewed: ${error instanceof Error ? error.message : 'error'}`));
    });
    heartbeats.add(stop);
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      stop();
      heartbeats.delete(stop);
      return true;
    };
    return {
      kind: 'run',
      async finish(result) {
        if (!settle()) return false;
        const text = resultText({ credential, result });
        const kept = Buffer.byteLength(text) <= limits.maxResultBytes ? text : null;
        const stored = await store.complete(lease, kept, clock.now(), ttlMs, limits);
        return stored && kept !== null;
      },
      async abandon() {
        if (settle()) await store.release(lease);
      },
    };
  }

  return {
    running: () => heartbeats.size,
    async begin(scope, key, fingerprint, credential, signal) {
      const deadline = clock.now() + waitMs;
      for (;;) {
        const answer = await store.claim({ scope, key, fingerprint, now: clock.now(), leaseMs, ttlMs, limits });
        switch (answer.state) {
          case 'claimed':
            return run(answer.lease, credential);
          case 'full':
            return { kind: 'full', bound: answer.bound, max: answer.max, retryAfterSeconds: Math.max(1, Math.ceil(answer.retryAfterMs / 1000)) };
          case 'done': {
            if (answer.fingerprint !== fingerprint) return { kind: 'reused' };
            const kept = answer.result === null ? null : readKept(answer.result);
            if (kept === null) return { kind: 'outcome-unknown', reason: 'result-not-kept' };
            return kept.credential === credential ? { kind: 'replay', result: kept.result } : { kind: 'outcome-unknown', reason: 'other-credential' };
          }
          case 'running':
            if (answer.fingerprint !== fingerprint) return { kind: 'reused' };
            if (!answer.leaseLive) return { kind: 'outcome-unknown', reason: 'lease-lapsed' };
            if (signal?.aborted || clock.now() >= deadline) return { kind: 'in-progress', retryAfterSeconds };
            await clock.sleep(pollMs, signal);
        }
      }
    },
  };
}
