/**
 * A request's "stop now": an EventEmitter, which undici takes as a request's `signal` as it takes
 * an AbortSignal. Why: every request needs one and almost none fires, and an AbortSignal per
 * request costs the one-call path CPU the bench sees (docs/performance.md). A standard AbortSignal
 * is made only for code that asks for one (a subscription's poller, a retry's sleep).
 */
import { EventEmitter, setMaxListeners } from 'node:events';

/** What a call can be stopped by: a standard AbortSignal or a Cancellation (undici takes both). */
export type CancelSignal = AbortSignal | Cancellation;

/** Listeners one Cancellation may hold: each running or queued upstream call adds one. */
const MAX_LISTENERS = 10_000;

export class Cancellation extends EventEmitter {
  aborted = false;
  reason: unknown = undefined;
  private controller: AbortController | null = null;

  constructor() {
    super();
    this.setMaxListeners(MAX_LISTENERS);
  }

  /** Aborts once (later calls do nothing); `reason` defaults to an AbortError, as AbortController's does. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.controller?.abort(this.reason);
    this.emit('abort');
  }

  /** A standard AbortSignal that aborts with this, with the same reason; made on first use. */
  abortSignal(): AbortSignal {
    if (this.controller === null) {
      this.controller = new AbortController();
      setMaxListeners(MAX_LISTENERS, this.controller.signal);
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }
}

/** Calls `listener` once when `signal` aborts (not when it already has); returns the way to stop listening. */
export function onAbort(signal: CancelSignal, listener: () => void): () => void {
  listenForAbort(signal, listener);
  return () => stopListeningForAbort(signal, listener);
}

/** `onAbort` for a listener kept for long: the caller keeps the signal and the listener, not a closure to stop. */
export function listenForAbort(signal: CancelSignal, listener: () => void): void {
  // `on`, not `once`: a Cancellation aborts once, and `once` wraps each listener (a bound function
  // and its state) for as long as it waits: a follower waits for minutes.
  if (signal instanceof Cancellation) signal.on('abort', listener);
  else signal.addEventListener('abort', listener, { once: true });
}

export function stopListeningForAbort(signal: CancelSignal, listener: () => void): void {
  if (signal instanceof Cancellation) signal.removeListener('abort', listener);
  else signal.removeEventListener('abort', listener);
}
