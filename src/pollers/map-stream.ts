/**
 * A PollStream with each value mapped (e.g. a record → a subscription payload `{ workflow }`),
 * leaving and ending exactly as the stream it wraps. Not an async generator on purpose: a
 * generator that was never started ignores `return()`, so its body could not release the stream.
 */
import type { PollStream } from './types';

export function mapStream<V, P>(stream: PollStream<V>, map: (value: V) => P): PollStream<P> {
  const mapped: PollStream<P> = {
    next: async () => {
      const result = await stream.next();
      return result.done ? { done: true, value: undefined } : { done: false, value: map(result.value) };
    },
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
