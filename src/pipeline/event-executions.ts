/**
 * One execution per subscription event: subscribers of one poller get the same payload object
 * (src/pollers/map-stream.ts `sharedPayload`), and those with the same operation, variables and
 * credential get the result of one execution of it, instead of one each. Held by the payload
 * object (a WeakMap): when the event is gone, so are its results.
 *
 * The execution belongs to no one subscriber: it runs under a cancellation of its own, aborted
 * only when every subscriber waiting on it has left (a subscriber leaving mid-event must not
 * hand the others a cancellation error).
 */
import { createHash } from 'node:crypto';
import type { FormattedExecutionResult } from 'graphql';
import { Cancellation, onAbort } from '../core/cancellation';

/** One shared execution: its result, its own cancellation, and how many still wait on it. */
interface SharedRun {
  result: Promise<FormattedExecutionResult>;
  cancellation: Cancellation;
  waiting: number;
}

export class SharedEventExecutions {
  private readonly byEvent = new WeakMap<object, Map<string, SharedRun>>();
  private readonly ids = new WeakMap<object, number>();
  private nextId = 1;

  /** The operation's identity (a prepared document is made once per document text and kept). */
  idOf(operation: object): number {
    let id = this.ids.get(operation);
    if (id === undefined) {
      id = this.nextId++;
      this.ids.set(operation, id);
    }
    return id;
  }

  /** A credential's part of the key: a digest, so no key this process builds holds a token. */
  credentialOf(authorization: string | undefined): string {
    return authorization === undefined ? '' : createHash('sha256').update(authorization).digest('base64url');
  }

  /**
   * `execute`'s result for this event and key: run once, shared by every subscriber asking with
   * the same key. `waiter` is the asking subscriber's cancellation: its leaving gives up its
   * share; the execution's own cancellation (handed to `execute`) aborts when no share is left.
   */
  run(event: unknown, key: string, waiter: Cancellation, execute: (cancellation: Cancellation) => Promise<FormattedExecutionResult>): Promise<FormattedExecutionResult> {
    if (typeof event !== 'object' || event === null) return execute(waiter);
    let runs = this.byEvent.get(event);
    if (runs === undefined) {
      runs = new Map();
      this.byEvent.set(event, runs);
    }
    let run = runs.get(key);
    // One whose every waiter left was cancelled: a subscriber arriving later runs it afresh.
    if (run === undefined || run.cancellation.aborted) {
      const cancellation = new Cancellation();
      run = { result: execute(cancellation), cancellation, waiting: 0 };
      runs.set(key, run);
    }
    return this.wait(run, waiter);
  }

  /** `run`'s result for one waiter, counted among those who wait until it settles or the waiter leaves. */
  private wait(run: SharedRun, waiter: Cancellation): Promise<FormattedExecutionResult> {
    if (waiter.aborted) return run.result;
    run.waiting += 1;
    let counted = true;
    const leave = (): void => {
      if (!counted) return;
      counted = false;
      run.waiting -= 1;
      if (run.waiting === 0) run.cancellation.abort(waiter.reason);
    };
    const stopListening = onAbort(waiter, leave);
    const settled = (): void => {
      stopListening();
      if (counted) {
        counted = false;
        run.waiting -= 1;
      }
    };
    run.result.then(settled, settled);
    return run.result;
  }
}
