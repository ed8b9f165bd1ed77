/**
 * A request's "stop now": a small emitter of one event (`abort`) that undici takes as a request's
 * `signal` as it takes an AbortSignal (it asks for `on`/`once`/`removeListener`). Why: every
 * request needs one and almost none fires, and an AbortSignal per request costs the one-call path
 * CPU the bench sees (docs/performance.md); and not Node's EventEmitter either: its table of
 * listeners is a dictionary object (~180 bytes) made for every emitter, and a follower of a
 * subscription keeps its cancellation for hours. A standard AbortSignal is made only for code that
 * asks for one (a subscription's poller, a retry's sleep).
 */

import { setMaxListeners } from 'node:events';

/** Listeners the standard AbortSignal made for a Cancellation may hold: each running or queued upstream call adds one. */
const MAX_LISTENERS = 10_000;

/** What a call can be stopped by: a standard AbortSignal or a Cancellation (undici takes both). */
export type CancelSignal = AbortSignal | Cancellation;

type Listener = () => void;

export class Cancellation {
  aborted = false;
  reason: unknown = undefined;
  private controller: AbortController | null = null;
  /** Its listeners: none, the one most have, or a list (each running upstream call adds one). */
  private listeners: Listener | Listener[] | null = null;

  /** Aborts once (later calls do nothing); `reason` defaults to an AbortError, as AbortController's does. */
  abort(reason?: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    this.controller?.abort(this.reason);
    const listeners = this.listeners;
    this.listeners = null;
    if (typeof listeners === 'function') listeners();
    else if (listeners !== null) for (const listener of listeners) listener();
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

  // The emitter face undici uses (the only event is `abort`).
  on(_event: 'abort', listener: Listener): this {
    if (this.aborted) return this;
    const listeners = this.listeners;
    if (listeners === null) this.listeners = listener;
    else if (typeof listeners === 'function') this.listeners = [listeners, listener];
    else listeners.push(listener);
    return this;
  }

  addListener(event: 'abort', listener: Listener): this {
    return this.on(event, listener);
  }

  once(event: 'abort', listener: Listener): this {
    // Listeners are called at most once anyway: an abort happens once, and drops them all.
    return this.on(event, listener);
  }

  removeListener(_event: 'abort', listener: Listener): this {
    const listeners = this.listeners;
    if (listeners === listener) this.listeners = null;
    else if (Array.isArray(listeners)) {
      const at = listeners.lastIndexOf(listener);
      if (at >= 0) listeners.splice(at, 1);
      if (listeners.length === 0) this.listeners = null;
    }
    return this;
  }

  off(event: 'abort', listener: Listener): this {
    return this.removeListener(event, listener);
  }

  listenerCount(_event: 'abort'): number {
    const listeners = this.listeners;
    return listeners === null ? 0 : typeof listeners === 'function' ? 1 : listeners.length;
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
