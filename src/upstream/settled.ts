/**
 * The values of promises known to have fulfilled. A request's member lists are cached promises,
 * and a field whose list had long been answered still waited a microtask turn for it: thousands
 * of them in a large graph's last level (a services list per endpoint and AppWAN). A field that
 * finds its promise's value here answers at once (resolvers/connection.ts `arrayConnection`); one
 * that does not, waits as before. Only fulfilment is recorded: a failure always takes the
 * promise's own path.
 *
 * The value is kept on the promise itself, not in a WeakMap (whose entries are ephemerons every
 * young collection traces), and only member lists are tracked (network/loaders.ts `members`):
 * a first version tracked every cached call in a WeakMap, and cost a one-list query ~0.1 ms of
 * CPU per request (interleaved A/B, 32 in flight).
 */
const FULFILLED = Symbol('fulfilled');

/** A promise that may carry its own value once it has fulfilled (set by track()). */
type Tracked<T> = Promise<T> & { [FULFILLED]?: { value: T } };

/** Records `promise`'s value on it once it fulfils; returns the promise itself. */
export function track<T>(promise: Promise<T>): Promise<T> {
  const tracked: Tracked<T> = promise;
  promise.then(
    (value) => {
      tracked[FULFILLED] = { value };
    },
    () => undefined,
  );
  return promise;
}

/** `promise`'s value when it is known to have fulfilled (tracked, and its turn has come); else undefined. */
export function fulfilledValue<T>(promise: Promise<T>): { value: T } | undefined {
  const tracked: Tracked<T> = promise;
  return tracked[FULFILLED];
}
