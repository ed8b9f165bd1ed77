/**
 * Heavy operations take turns. An operation whose estimate (cost.ts) is at least
 * `HEAVY_OPERATION_MIN_CALLS` upstream calls runs only while it holds one of
 * `HEAVY_OPERATION_CONCURRENCY` slots; the others wait, first come first served. Everything lighter
 * runs at once, as before.
 *
 * Why: a heavy operation holds its upstream bodies until its answer is built (the whole-network
 * graph: 8.7 MB of JSON, ~180 calls). Thirty-two of them interleaved on one gateway all hold theirs
 * at once, and the gateway spends its CPU on garbage collection and page faults instead of answers:
 * measured on 2 cores, 290-340 ms of CPU per graph at 32 in flight against ~185 ms at 1-2, with
 * fewer answers per second. Taking turns finishes each one sooner and serves more of them.
 *
 * The wait counts against the operation's deadline. An operation whose budget stops while it waits
 * (deadline, client gone) leaves the queue and runs without a slot: its first field then stops it
 * with the budget's own error, exactly as when the deadline passes while it runs.
 */
import { onAbort, type CancelSignal } from '../upstream/cancellation';
import type { CostEstimate } from './cost';

/** Configured by the environment (config.ts); defaults in limits.ts. */
export interface AdmissionLimits {
  /** `HEAVY_OPERATION_CONCURRENCY`: heavy operations that run at once, all callers together. */
  heavyConcurrency: number;
  /** `HEAVY_OPERATION_MIN_CALLS`: estimated upstream calls from which an operation is heavy. */
  heavyMinCalls: number;
}

/** What admission needs of an operation's budget (OperationBudget in budget.ts). */
export interface AdmittedBudget {
  /** Aborted when the operation must stop (deadline, client gone). */
  readonly signal: CancelSignal;
  /** Whether the operation holds a slot already (a request Apollo answers after the known-query path admitted it). */
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

export class HeavyOperationGate {
  private running = 0;
  /** Waiters, oldest first; each is called with the slot it is handed. */
  private readonly queue: Array<() => void> = [];

  constructor(readonly limits: AdmissionLimits) {}

  /** Whether an operation with this estimate must hold a slot to run (null: not priced, variables did not coerce). */
  isHeavy(estimate: CostEstimate | null): boolean {
    return estimate !== null && estimate.upstreamCalls >= this.limits.heavyMinCalls;
  }

  /**
   * Lets the operation of `budget` run: undefined when it may run now (light, or a slot was free),
   * else a promise that settles when it may (a slot handed over, or its budget stopped). Never rejects.
   */
  admit(estimate: CostEstimate | null, budget: AdmittedBudget): Promise<void> | undefined {
    if (!this.isHeavy(estimate) || budget.holdsSlot || budget.signal.aborted) return undefined;
    if (this.running < this.limits.heavyConcurrency) {
      this.running += 1;
      budget.holdSlot(this.releaser());
      return undefined;
    }
    const queuedAt = performance.now();
    return new Promise<void>((resolve) => {
      const start = (): void => {
        stopListening();
        budget.waitedMs = performance.now() - queuedAt;
        budget.holdSlot(this.releaser());
        resolve();
      };
      const stopListening = onAbort(budget.signal, () => {
        const at = this.queue.indexOf(start);
        if (at >= 0) this.queue.splice(at, 1);
        budget.waitedMs = performance.now() - queuedAt;
        resolve();
      });
      this.queue.push(start);
    });
  }

  stats(): AdmissionStats {
    return { running: this.running, queued: this.queue.length };
  }

  /** A slot's release, safe to call more than once: the slot goes straight to the oldest waiter, if any. */
  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.queue.shift();
      if (next) next();
      else this.running -= 1;
    };
  }
}
