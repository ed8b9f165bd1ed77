/**
 * One subscriber of a shared poller: a small queue the poller pushes values into, read as an
 * async iterator. Values are queued, not dropped: the poller emits only on change, so a queue
 * holds at most the few changes a slow reader has not taken yet.
 */
import type { PollStream } from './types';

type Waiter<V> = { resolve(result: IteratorResult<V>): void; reject(error: unknown): void };

const DONE: IteratorReturnResult<undefined> = { done: true, value: undefined };

export class SubscriberStream<V> implements PollStream<V> {
  /** Wrapped so that a queued value is never confused with an empty queue, whatever V is. */
  private readonly queue: Array<{ value: V }> = [];
  private ended = false;
  private failure: { error: unknown } | null = null;
  private waiter: Waiter<V> | null = null;
  private released = false;
  private readonly onAbort = (): void => {
    void this.return();
  };

  /** `leave` tells the poller this subscriber is gone; `signal` aborting makes it leave. */
  constructor(
    private readonly leave: (stream: SubscriberStream<V>) => void,
    private readonly signal?: AbortSignal,
  ) {
    if (signal?.aborted) queueMicrotask(this.onAbort);
    else signal?.addEventListener('abort', this.onAbort, { once: true });
  }

  /** A new value from the poller. */
  push(value: V): void {
    if (this.ended) return;
    const waiter = this.waiter;
    this.waiter = null;
    if (waiter) waiter.resolve({ done: false, value });
    else this.queue.push({ value });
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
    const queued = this.queue.shift();
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

  return(): Promise<IteratorResult<V>> {
    this.queue.length = 0;
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
    this.signal?.removeEventListener('abort', this.onAbort);
    this.leave(this);
  }

  [Symbol.asyncIterator](): this {
    return this;
  }

  private finish(failure: { error: unknown } | null): void {
    if (this.ended) return;
    this.ended = true;
    this.failure = failure;
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
