/**
 * A stream that can be listened to instead of read: once `listen` is called, its values are
 * pushed to the listener as they come, and nothing is waiting in between. A follower of a
 * subscription waits minutes for each event; read (`await next()`), each layer between the poller
 * and the socket would hold a pending promise, its reaction and a closure all that time. Pushed,
 * a follower is its objects alone.
 *
 * After `listen`, the stream is not read (`next`) again; `return()` still ends it (the listener
 * is then not told). Exactly one of `onEnd` or `onError` comes last, once.
 */
export interface StreamListener<V> {
  onValue(value: V): void;
  onEnd(): void;
  onError(error: unknown): void;
}

export interface Listenable<V> {
  listen(listener: StreamListener<V>): void;
}

/** Whether `stream` can be listened to (the pollers' streams and the pipeline's event streams can). */
export function isListenable<V>(stream: object): stream is Listenable<V> {
  return 'listen' in stream && typeof stream.listen === 'function';
}
