/**
 * A PollStream with each value mapped (e.g. a record → a subscription payload `{ workflow }`),
 * leaving and ending exactly as the stream it wraps. Not an async generator on purpose: a
 * generator that was never started ignores `return()`, so its body could not release the stream.
 */
import type { StreamListener } from '../core/listen';
import type { PollStream } from './types';

/**
 * `map` made once per value for every subscriber: a poller hands the same value object to all its
 * subscribers, so they get the same payload object too — and the pipeline runs one execution per
 * payload, operation and credential (src/pipeline/event-executions.ts) instead of one per subscriber.
 */
export function sharedPayload<V extends object, P>(map: (value: V) => P): (value: V) => P {
  const made = new WeakMap<V, P>();
  return (value) => {
    if (made.has(value)) return made.get(value) as P;
    const payload = map(value);
    made.set(value, payload);
    return payload;
  };
}

/**
 * A class, not an object of closures: a follower keeps its mapped stream for its whole life, and
 * methods on a prototype cost it nothing (memory per follower).
 */
class MappedStream<V, P> implements PollStream<P>, StreamListener<V> {
  /** Set once listened to: each value is mapped and passed on as it comes. */
  private listener: StreamListener<P> | null = null;

  constructor(
    private readonly stream: PollStream<V>,
    private readonly map: (value: V) => P,
  ) {}

  listen(listener: StreamListener<P>): void {
    this.listener = listener;
    this.stream.listen(this);
  }

  onValue(value: V): void {
    const listener = this.listener;
    if (!listener) return;
    let mapped: P;
    try {
      mapped = this.map(value);
    } catch (error) {
      // As a read would: the map's error ends the stream.
      this.listener = null;
      this.stream.release();
      return listener.onError(error);
    }
    listener.onValue(mapped);
  }

  onEnd(): void {
    this.listener?.onEnd();
    this.listener = null;
  }

  onError(error: unknown): void {
    this.listener?.onError(error);
    this.listener = null;
  }

  // A `then`, not an async function: a follower's read waits for minutes, and a suspended async
  // function holds its frame all that time.
  next(): Promise<IteratorResult<P>> {
    return this.stream.next().then((result): IteratorResult<P> => (result.done === true ? { done: true, value: undefined } : { done: false, value: this.map(result.value) }));
  }

  async return(): Promise<IteratorResult<P>> {
    await this.stream.return?.();
    return { done: true, value: undefined };
  }

  async throw(): Promise<IteratorResult<P>> {
    await this.stream.return?.();
    return { done: true, value: undefined };
  }

  release(): void {
    this.stream.release();
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}

export function mapStream<V, P>(stream: PollStream<V>, map: (value: V) => P): PollStream<P> {
  return new MappedStream(stream, map);
}
