/**
 * Waiting for a terminal value through the shared pollers, for code that answers once a change
 * is done instead of streaming it (a mutation that returns the provisioned resource, a script
 * helper). It joins the same poller a subscription of the same target and caller would.
 */
import type { CallerPollers, PollKind } from './types';

/** The target's poller stopped before a terminal value: the caller left, or the gateway is closing. */
export class PollAbandonedError extends Error {
  constructor(kindName: string) {
    super(`stopped following ${kindName} before it reached a terminal state`);
    this.name = 'PollAbandonedError';
  }
}

/**
 * Follow `target` until its terminal value and resolve with it. `onValue` sees every value on
 * the way (the first one included). Rejects with the poller's error (UNAUTHENTICATED, NOT_FOUND,
 * the last transient failure…), or with PollAbandonedError when `signal` aborts first.
 */
export async function untilTerminal<T, V, S>(
  pollers: CallerPollers<S>,
  kind: PollKind<T, V, S>,
  target: T,
  signal: AbortSignal,
  onValue?: (value: V) => void,
): Promise<V> {
  const stream = pollers.follow(kind, target, signal);
  try {
    for await (const value of stream) {
      onValue?.(value);
      if (kind.isTerminal(value)) return value;
    }
  } finally {
    stream.release();
  }
  throw new PollAbandonedError(kind.name);
}
