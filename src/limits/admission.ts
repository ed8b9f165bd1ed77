/**
 * Heavy operations take turns. An operation whose estimate (cost.ts) is at least
 * `HEAVY_OPERATION_MIN_CALLS` upstream calls runs only while it holds one of
 * `HEAVY_OPERATION_CONCURRENCY` slots; the others wait. Everything lighter runs at once.
 *
 * Why: a heavy operation holds its upstream bodies until its answer is built (the whole-network
 * graph: megabytes of JSON, ~180 calls). Many of them interleaved all hold theirs at once, and the
 * gateway spends its CPU on garbage collection instead of answers; taking turns finishes each one
 * sooner and serves more of them (figures in docs/performance.md).
 *
 * The wait counts against the operation's deadline. An operation whose budget stops while it waits
 * (deadline, client gone) leaves the queue and runs without a slot: its first field then stops it
 * with the budget's own error, exactly as when the deadline passes while it runs.
 */
import { LimitExceededError } from '../errors/codes';
import { onAbort, type CancelSignal } from '../core/cancellation';
import type { CostEstimate } from './cost';

/** Configured by the environment (config.ts); defaults in limits.ts. */
export interface AdmissionLimits {
  /** `HEAVY_OPERATION_CONCURRENCY`: heavy operations that run at once, all callers together. */
  heavyConcurrency: number;
  /** `HEAVY_OPERATION_MIN_CALLS`: estimated upstream calls from which an operation is heavy. */
  heavyMinCalls: number;
  /** `HEAVY_OPERATION_QUEUE_PER_CALLER`: heavy operations one caller may have waiting; past it RATE_LIMITED. */
  heavyQueuePerCaller: number;
}

/** What admission needs of an operation's budget (OperationBudget in budget.ts). */
export interface AdmittedBudget {
  /** Aborted when the operation must stop (deadline, client gone). */
  readonly signal: CancelSignal;
  /** Whether the operation holds a slot already. */
  readonly holdsSlot: boolean;
  /** Keeps the slot until the operation is over: the budget calls `release` once, from `finish()`. */
  holdSlot(release: () => void): void;
  /** How long the operation waited for its turn (the request log shows it). */
  waitedMs: number;
}

export interface AdmissionStats {
  /** Heavy operations running (holding a slot). */
  running: number;
  /** Heavy operations waiting for a slot. */
  queued: number;
}

interface Waiter {
  caller: string;
  start(): void;
}

/**
 * Turns are fair between callers: a freed slot goes to the oldest waiter of the caller that runs
 * the fewest heavy operations now, so one caller's flood cannot hold every turn while others
 * wait; with no one else waiting, a caller may use every slot. A caller with
 * `heavyQueuePerCaller` operations waiting is refused the next one (RATE_LIMITED).
 */
export class HeavyOperationGate {
  private running = 0;
  private readonly runningBy = new Map<string, number>();
  /** Waiters, oldest first. */
  private readonly queue: Waiter[] = [];

  constructor(readonly limits: AdmissionLimits) {}

  /** Whether an operation with this estimate must hold a slot to run (null: not priced, variables did not coerce). */
  isHeavy(estimate: CostEstimate | null): boolean {
    return estimate !== null && estimate.upstreamCalls >= this.limits.heavyMinCalls;
  }

  /**
   * Lets the operation of `budget` run: undefined when it may run now (light, or a slot was free),
   * else a promise that settles when it may (a slot handed over, or its budget stopped). Throws
   * `LimitExceededError` when the caller has its share of waiting operations already.
   */
  admit(estimate: CostEstimate | null, budget: AdmittedBudget, caller: string): Promise<void> | undefined {
    if (!this.isHeavy(estimate) || budget.holdsSlot || budget.signal.aborted) return undefined;
    if (this.running < this.limits.heavyConcurrency) {
      budget.holdSlot(this.take(caller));
      return undefined;
    }
    const waiting = this.queue.reduce((n, w) => (w.caller === caller ? n + 1 : n), 0);
    const max = this.limits.heavyQueuePerCaller;
    if (waiting >= max) {
      throw new LimitExceededError('heavyOperations', max, `this caller has ${max} heavy operations waiting for a turn already (HEAVY_OPERATION_QUEUE_PER_CALLER); try again when one has run`, { scope: 'caller', retryAfter: 1 });
    }
    const queuedAt = performance.now();
    return new Promise<void>((resolve) => {
      const waiter: Waiter = {
        caller,
        start: () => {
          stopListening();
          budget.waitedMs = performance.now() - queuedAt;
          budget.holdSlot(this.take(caller));
          resolve();
        },
      };
      const stopListening = onAbort(budget.signal, () => {
        const at = this.queue.indexOf(waiter);
        if (at >= 0) this.queue.splice(at, 1);
        budget.waitedMs = performance.now() - queuedAt;
        resolve();
      });
      this.queue.push(waiter);
    });
  }

  stats(): AdmissionStats {
    return { running: this.running, queued: this.queue.length };
  }

  /** Takes a slot for `caller`; its release (safe to call more than once) hands the slot on. */
  private take(caller: string): () => void {
    this.running += 1;
    this.runningBy.set(caller, (this.runningBy.get(caller) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.running -= 1;
      const left = (this.runningBy.get(caller) ?? 1) - 1;
      if (left > 0) this.runningBy.set(caller, left);
      else this.runningBy.delete(caller);
      this.next()?.start();
    };
  }

  /** The waiter to start: the oldest of the caller running the fewest heavy operations now. */
  private next(): Waiter | undefined {
    let best = -1;
    let fewest = Infinity;
    for (let i = 0; i < this.queue.length; i += 1) {
      const running = this.runningBy.get(this.queue[i]?.caller ?? '') ?? 0;
      if (running < fewest) {
        fewest = running;
        best = i;
        if (running === 0) break;
      }
    }
    return best < 0 ? undefined : this.queue.splice(best, 1)[0];
  }
}
