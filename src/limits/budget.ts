/**
 * One operation's running budget: the one object the HTTP layer (upstream
 * calls, the deadline as a Cancellation) and the executor (nodes and response bytes, counted by
 * the field wrapper in instrument.ts) both consult. The first budget crossed is remembered: from
 * then on every field not yet resolved answers OPERATION_BUDGET_EXCEEDED, and every read in flight
 * or queued is aborted, so the work stops while the data already resolved stays.
 */
import { BudgetExceededError, type BudgetLimit } from '../errors/codes';
import { Cancellation, onAbort } from '../core/cancellation';
import type { BudgetLimits } from './limits';

export interface BudgetUsage {
  upstreamCalls: number;
  nodes: number;
  /** Approximate size of the data produced so far (JSON of the values, keys included). */
  responseBytes: number;
}

/** What `stopFollowing` is while nothing is followed (the request was aborted before the budget was made). */
const followingNothing = (): void => undefined;

/** See `OperationBudget.producedMark`. */
export interface ProducedMark {
  nodes: number;
  responseBytes: number;
}

export class OperationBudget {
  readonly limits: BudgetLimits;
  readonly usage: BudgetUsage = { upstreamCalls: 0, nodes: 0, responseBytes: 0 };
  /** The first budget crossed, or null. */
  exceeded: BudgetExceededError | null = null;
  /** Milliseconds the operation waited for its turn as a heavy operation (admission.ts); 0 when it did not wait. */
  waitedMs = 0;
  private readonly cancellation = new Cancellation();
  private timer: NodeJS.Timeout | null = null;
  private readonly request: Cancellation;
  /** Stops following the request's cancellation (set while it is followed). */
  private stopFollowing: () => void = followingNothing;
  /** Gives back the heavy-operation slot the operation holds (admission.ts); null while it holds none. */
  private releaseSlot: (() => void) | null = null;

  /** `request`: the request's own cancellation (client gone); aborting it aborts this budget's signal too. */
  constructor(limits: BudgetLimits, request: Cancellation) {
    this.limits = limits;
    this.request = request;
    if (request.aborted) this.cancellation.abort(request.reason);
    else this.stopFollowing = onAbort(request, () => this.cancellation.abort(request.reason));
  }

  /** Aborted when the request is, or when a budget is crossed (its reason is then the BudgetExceededError). */
  get signal(): Cancellation {
    return this.cancellation;
  }

  /** Starts the deadline (once). Subscriptions' long-lived source streams never start one; each event's execution does. */
  startDeadline(): void {
    if (this.timer !== null || this.cancellation.aborted) return;
    const ms = this.limits.deadlineMs;
    this.timer = setTimeout(() => this.cross('deadline', ms, `the operation ran out of time (${ms} ms, OPERATION_TIMEOUT_MS)`), ms);
    this.timer.unref();
  }

  /**
   * Throws when the operation must stop: a budget was crossed (its error), or the request is gone
   * (client disconnected, gateway shutting down: nobody reads the answer, so its work stops too).
   */
  check(): void {
    if (this.exceeded) throw this.exceeded;
    if (this.request.aborted) throw new Error('the operation was cancelled');
  }

  /** Counts one upstream call before it is sent; throws when none is left (then nothing is sent). */
  spendCall(): void {
    if (this.exceeded) throw this.exceeded;
    const max = this.limits.upstreamCalls;
    if (this.usage.upstreamCalls >= max) throw this.cross('upstreamCalls', max, `the operation used its ${max} upstream calls (OPERATION_MAX_UPSTREAM_CALLS)`);
    this.usage.upstreamCalls += 1;
  }

  /** Counts list items produced; throws when the cap is crossed. */
  addNodes(count: number): void {
    this.usage.nodes += count;
    const max = this.limits.nodes;
    if (this.usage.nodes > max) throw this.cross('nodes', max, `the operation produced more than ${max} list items (OPERATION_MAX_NODES)`);
  }

  /** Counts response bytes produced; throws when the cap is crossed. */
  addBytes(count: number): void {
    this.usage.responseBytes += count;
    const max = this.limits.responseBytes;
    if (this.usage.responseBytes > max) throw this.cross('responseBytes', max, `the answer grew past ${max} bytes (OPERATION_MAX_RESPONSE_BYTES)`);
  }

  /** What the operation has produced so far (list items, bytes): a mark to rewind to. */
  producedMark(): ProducedMark {
    return { nodes: this.usage.nodes, responseBytes: this.usage.responseBytes };
  }

  /**
   * Forgets what was produced since `mark`: an executor that discards a run's answer and runs the
   * same operation again (src/pipeline/execute.ts) counts the items and bytes of the answer it
   * keeps, once. Upstream calls stay counted (they were sent). Nothing changes once a budget was crossed.
   */
  rewindProduced(mark: ProducedMark): void {
    if (this.exceeded) return;
    this.usage.nodes = mark.nodes;
    this.usage.responseBytes = mark.responseBytes;
  }

  /** Whether the operation holds a heavy-operation slot (admission.ts). */
  get holdsSlot(): boolean {
    return this.releaseSlot !== null;
  }

  /** Keeps a heavy-operation slot until `finish()`, which calls `release` once. */
  holdSlot(release: () => void): void {
    this.releaseSlot = release;
  }

  /** The operation is over: stop the deadline, let go of the request's signal, give back its slot. Idempotent. */
  finish(): void {
    this.stopClock();
    const release = this.releaseSlot;
    this.releaseSlot = null;
    release?.();
  }

  private stopClock(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    this.stopFollowing();
  }

  private cross(limit: BudgetLimit, max: number, message: string): BudgetExceededError {
    if (this.exceeded) return this.exceeded;
    this.exceeded = new BudgetExceededError(limit, max, message);
    // The slot is kept until the operation is over: its fields still unwind.
    this.stopClock();
    this.cancellation.abort(this.exceeded);
    return this.exceeded;
  }
}
