/**
 * One subscriber of a shared poller: a small queue the poller pushes values into, read as an
 * async iterator. Values are queued, not dropped: the poller emits only on change, so a queue
 * holds the few changes a slow reader has not taken yet. A door bounds its slow readers in bytes
 * where it writes (its readers keep taking values); `MAX_QUEUED_VALUES` is the bound for a reader
 * that stops taking them at all: past it the subscriber fails (OPERATION_BUDGET_EXCEEDED) and
 * leaves the poller, which the other subscribers never wait for.
 */
import { ErrorCode, GatewayError } from '../errors/codes';
import { listenForAbort, stopListeningForAbort, type CancelSignal } from '../core/cancellation';
import type { StreamListener } from '../core/listen';
import type { PollStream } from './types';

/** Values one subscriber may leave untaken before it is ended. */
export const MAX_QUEUED_VALUES = 256;

/** The error a subscriber that stopped taking values ends with. */
export class SubscriberBacklogError extends GatewayError {
  constructor(max: number) {
    super(ErrorCode.OPERATION_BUDGET_EXCEEDED, `this subscription left ${max} changes unread; it ends (a reader slower than its target's changes)`);
  }
}

type Waiter<V> = { resolve(result: IteratorResult<V>): void; reject(error: unknown): void };

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

export class SubscriberStream<V> implements PollStream<V> {
  /**
   * Values not read yet, wrapped so that a queued value is never confused with an empty queue,
   * whatever V is. Made at the first value that has to wait (a listened stream never has one).
   */
  private queue: Array<{ value: V }> | null = null;
  /** Set once the stream is listened to: values go to it as they come. */
  private listener: StreamListener<V> | null = null;
  private ended = false;
  private failure: { error: unknown } | null = null;
  private waiter: Waiter<V> | null = null;
  private released = false;
  /** The signal listened on; null when there is none (or it was let go). */
  private signal: CancelSignal | null = null;
  private readonly aborted = (): void => void this.return();

  /**
   * `leave` tells the poller this subscriber is gone; `signal` aborting makes it leave. A
   * `Cancellation` is taken as it is (no AbortSignal made for it: a follower's memory).
   */
  constructor(
    private readonly leave: (stream: SubscriberStream<V>) => void,
    signal?: CancelSignal,
    private readonly maxQueued = MAX_QUEUED_VALUES,
  ) {
    if (signal?.aborted) queueMicrotask(this.aborted);
    else if (signal) {
      this.signal = signal;
      listenForAbort(signal, this.aborted);
    }
  }

  /** A new value from the poller. */
  push(value: V): void {
    if (this.ended) return;
    if (this.listener) return this.listener.onValue(value);
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) return waiter.resolve({ done: false, value });
    this.queue ??= [];
    if (this.queue.length < this.maxQueued) this.queue.push({ value });
    else {
      // What it holds goes at once; its next read is the error, and the poller stops waiting on it.
      this.queue = null;
      this.finish({ error: new SubscriberBacklogError(this.maxQueued) });
      this.release();
    }
  }

  /** Values from now on go to `listener` (those queued first, at once); the stream is not read again. */
  listen(listener: StreamListener<V>): void {
    const queued = this.queue;
    this.queue = null;
    for (const { value } of queued ?? []) listener.onValue(value);
    if (this.ended) return this.tell(listener);
    this.listener = listener;
  }

  /** No more values: the reader gets what is queued, then done. */
  end(): void {
    this.finish(null);
  }

  /** The poller failed: the reader gets what is queued, then `next()` rejects with `error` (once). */
  fail(error: unknown): void {
    this.finish({ error });
  }

  next(): Promise<IteratorResult<V>> {
    const queued = this.queue?.shift();
    // An emptied queue goes: a follower keeps no array it has no use for.
    if (this.queue?.length === 0) this.queue = null;
    if (queued) return Promise.resolve({ done: false, value: queued.value });
    if (this.failure) {
      const { error } = this.failure;
      this.failure = null;
      this.release();
      return Promise.reject(error);
    }
    if (this.ended) {
      this.release();
      return Promise.resolve(DONE);
    }
    return new Promise((resolve, reject) => {
      this.waiter = { resolve, reject };
    });
  }

  // A listener is told `onEnd`, as a waiting reader is handed the end (its own `return` included: it ignores it).
  return(): Promise<IteratorResult<V>> {
    this.queue = null;
    this.failure = null;
    this.finish(null);
    this.release();
    return Promise.resolve(DONE);
  }

  throw(): Promise<IteratorResult<V>> {
    return this.return();
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    if (this.signal) stopListeningForAbort(this.signal, this.aborted);
    this.signal = null;
    this.leave(this);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  /** The end (or the failure) told to a listener, once: the stream leaves its poller first. */
  private tell(listener: StreamListener<V>): void {
    const failure = this.failure;
    this.failure = null;
    this.release();
    if (failure) listener.onError(failure.error);
    else listener.onEnd();
  }

  private finish(failure: { error: unknown } | null): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = failure;
    const listener = this.listener;
    this.listener = null;
    if (listener) return this.tell(listener);
    const waiter = this.waiter;
    this.waiter = null;
    if (!waiter) return;
    // A waiting reader has an empty queue: hand it the end now.
    if (failure) {
      this.failure = null;
      this.release();
      waiter.reject(failure.error);
    } else {
      this.release();
      waiter.resolve(DONE);
    }
  }
}
