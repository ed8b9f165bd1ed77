/**
 * One execution per subscription event: subscribers of one poller get the same payload object
 * (src/pollers/map-stream.ts `sharedPayload`), and those with the same operation, variables and
 * credential get the result of one execution of it, instead of one each. Held by the payload
 * object (a WeakMap): when the event is gone, so are its results.
 */
import { createHash } from 'node:crypto';
import type { FormattedExecutionResult } from 'graphql';

export class SharedEventExecutions {
  private readonly byEvent = new WeakMap<object, Map<string, Promise<FormattedExecutionResult>>>();
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

  /** `execute`'s result for this event and key: run once, shared by every subscriber asking with the same key. */
  run(event: unknown, key: string, execute: () => Promise<FormattedExecutionResult>): Promise<FormattedExecutionResult> {
    if (typeof event !== 'object' || event === null) return execute();
    let runs = this.byEvent.get(event);
    if (runs === undefined) {
      runs = new Map();
      this.byEvent.set(event, runs);
    }
    let run = runs.get(key);
    if (run === undefined) {
      run = execute();
      runs.set(key, run);
    }
    return run;
  }
}
