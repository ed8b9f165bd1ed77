/**
 * "Pool share": a call takes one of its origin's pool connections here, for its attempts, before
 * the first one leaves. Without it one caller's burst (hundreds of queries on one socket) fills
 * the pool and every other caller queues behind all of it in undici's first-come queue.
 *
 * The slots are the pool's connections (send.ts), so undici never queues. Each caller (its
 * credential's keyed hash) has a share of them: all of them while it is alone, an equal part of
 * them once others have calls in flight or waiting. A call under its caller's share goes at once
 * when a slot is free; the others wait in a queue per caller, served round robin as slots come
 * back — first the callers under their share, then (so no slot idles) the rest. A second caller's
 * query therefore waits for the next connection that frees up, not for the burst to drain.
 *
 * A slot is taken before the first await and given back on every path; a call whose request stops
 * while it waits leaves the queue and fails as a call stopped in flight does. It sits after the
 * breaker (a closed API's calls fail at once, never queue) and before the retry step (an attempt's
 * time in the queue is not in its span, its duration metric nor its slow-call mark).
 */
import { Gauge, type Registry } from 'prom-client';
import { onAbort, type CancelSignal } from '../../core/cancellation';
import type { Interceptor, UpstreamCall } from './call';
import { cancelled } from './stopped';

export function poolShare(connections: number, registry?: Registry): Interceptor {
  const queues = new Map<string, FairQueue>();
  new Gauge({
    name: 'netgraph_upstream_pool_waiting',
    help: 'Upstream calls waiting for a connection to their origin (served round robin across callers).',
    registers: registry ? [registry] : [],
    collect() {
      let waiting = 0;
      for (const queue of queues.values()) waiting += queue.stats().waiting;
      this.set(waiting);
    },
  });
  return {
    name: 'pool share',
    wrap: (next) => async (call) => {
      let queue = queues.get(call.target.origin);
      if (queue === undefined) {
        queue = new FairQueue(connections);
        queues.set(call.target.origin, queue);
      }
      // The caller's own credential (search calls go out with the gateway's, but are the caller's work).
      const taken = queue.take(call.scope.credentialKey(), call.signal, call);
      const release = typeof taken === 'function' ? taken : await taken;
      try {
        return await next(call);
      } finally {
        release();
      }
    },
  };
}

type Release = () => void;

/** What a call stopped while it waited fails with: the call (its target and signal) or, for tests, the error's maker. */
type Stoppable = Pick<UpstreamCall, 'target' | 'signal'> | (() => Error);

function stoppedError(stopped: Stoppable): Error {
  return typeof stopped === 'function' ? stopped() : cancelled(stopped.target.info, stopped.signal);
}

interface Waiter {
  readonly start: (release: Release) => void;
}

interface Caller {
  running: number;
  readonly waiting: Waiter[];
}

/** Slots shared by callers: a share each, the waiting served round robin. */
export class FairQueue {
  private inFlight = 0;
  /** Callers with calls running or waiting. */
  private readonly callers = new Map<string, Caller>();
  /** Callers with calls waiting, in their turn's order. */
  private readonly turns: string[] = [];

  constructor(private readonly capacity: number) {}

  /** Calls running and waiting now (for tests and metrics). */
  stats(): { running: number; waiting: number } {
    let waiting = 0;
    for (const caller of this.callers.values()) waiting += caller.waiting.length;
    return { running: this.inFlight, waiting };
  }

  /**
   * A slot for `key`: its release at once when one is free within the caller's share, else a
   * promise of it; `stopped` says what the call that stops while it waits fails with (an object,
   * not a closure made for every call: most never wait).
   */
  take(key: string, signal: CancelSignal, stopped: Stoppable): Release | Promise<Release> {
    let caller = this.callers.get(key);
    if (caller === undefined) {
      caller = { running: 0, waiting: [] };
      this.callers.set(key, caller);
    }
    if (signal.aborted) {
      this.forget(key, caller);
      return Promise.reject(stoppedError(stopped));
    }
    if (this.inFlight < this.capacity && caller.waiting.length === 0 && (caller.running < this.share() || this.turns.length === 0)) return this.start(key, caller);
    const entry = caller;
    return new Promise<Release>((resolve, reject) => {
      const waiter: Waiter = {
        start: (release) => {
          stopListening();
          resolve(release);
        },
      };
      const stopListening = onAbort(signal, () => {
        const i = entry.waiting.indexOf(waiter);
        if (i < 0) return;
        entry.waiting.splice(i, 1);
        if (entry.waiting.length === 0) this.leaveTurns(key);
        this.forget(key, entry);
        reject(stoppedError(stopped));
      });
      entry.waiting.push(waiter);
      if (entry.waiting.length === 1) this.turns.push(key);
    });
  }

  /** Each active caller's part of the slots. */
  private share(): number {
    return Math.max(1, Math.floor(this.capacity / Math.max(1, this.callers.size)));
  }

  private start(key: string, caller: Caller): Release {
    caller.running += 1;
    this.inFlight += 1;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      caller.running -= 1;
      this.inFlight -= 1;
      this.forget(key, caller);
      this.dispatch();
    };
  }

  /** Hands free slots to the waiting: the next caller in turn under its share, else the next in turn. */
  private dispatch(): void {
    while (this.inFlight < this.capacity && this.turns.length > 0) {
      const share = this.share();
      let i = this.turns.findIndex((key) => (this.callers.get(key)?.running ?? 0) < share);
      if (i < 0) i = 0;
      const key = this.turns.splice(i, 1)[0]!;
      const caller = this.callers.get(key)!;
      const waiter = caller.waiting.shift()!;
      // Back of the round when it has more waiting.
      if (caller.waiting.length > 0) this.turns.push(key);
      waiter.start(this.start(key, caller));
    }
  }

  private leaveTurns(key: string): void {
    const i = this.turns.indexOf(key);
    if (i >= 0) this.turns.splice(i, 1);
  }

  private forget(key: string, caller: Caller): void {
    if (caller.running === 0 && caller.waiting.length === 0) this.callers.delete(key);
  }
}
