/**
 * A PollStream with each value mapped (e.g. a record → a subscription payload `{ workflow }`),
 * leaving and ending exactly as the stream it wraps. Not an async generator on purpose: a
 * generator that was never started ignores `return()`, so its body could not release the stream.
 */
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

export function mapStream<V, P>(stream: PollStream<V>, map: (value: V) => P): PollStream<P> {
  const mapped: PollStream<P> = {
    // A `then`, not an async function: a follower's read waits for minutes, and a suspended async
    // function holds its frame all that time.
    next: () => stream.next().then((result): IteratorResult<P> => (result.done === true ? { done: true, value: undefined } : { done: false, value: map(result.value) })),
    return: async () => {
      await stream.return?.();
      return { done: true, value: undefined };
    },
    throw: async () => {
      await stream.return?.();
      return { done: true, value: undefined };
    },
    release: () => stream.release(),
    [Symbol.asyncIterator]: () => mapped,
  };
  return mapped;
}
