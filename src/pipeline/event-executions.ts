/**
 * One execution per subscription event: subscribers of one poller get the same payload object
 * (src/pollers/map-stream.ts `sharedPayload`), and those with the same operation, variables and
 * credential get the result of one execution of it, instead of one each. Held by the payload
 * object (a WeakMap): when the event is gone, so are its results.
 *
 * A subscriber that comes while its poller's latest value is unchanged is handed that value again,
 * so its first event is the same payload object: it shares the result made for those before it.
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
  /** Settled with errors (an upstream read failed): shared by those who waited on it, run afresh for a later arrival. */
  failed: boolean;
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
    // One whose every waiter left was cancelled, or that answered errors: a subscriber arriving
    // later runs it afresh. Otherwise a later arrival (a follower's first event while nothing
    // changed) gets the result as it is: no execution, and the door's bytes of it are made already.
    if (run === undefined || run.cancellation.aborted || run.failed) {
      const cancellation = new Cancellation();
      const fresh: SharedRun = { result: execute(cancellation), cancellation, waiting: 0, failed: false };
      fresh.result.then(
        (result) => (fresh.failed = result.errors !== undefined && result.errors.length > 0),
        () => (fresh.failed = true),
      );
      run = fresh;
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
