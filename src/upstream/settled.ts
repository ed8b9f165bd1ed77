/**
 * The values of promises known to have fulfilled. A request's cached calls are promises, and a
 * field whose call has long been answered still waited a microtask turn for it: thousands of them
 * in a large graph's last level (a services list per endpoint and AppWAN). A field that finds its
 * promise here answers at once (resolvers/connection.ts `arrayConnection`); one that does not,
 * waits as before. Only fulfilment is recorded: a failure always takes the promise's own path.
 */
const fulfilled = new WeakMap<Promise<unknown>, { value: unknown }>();

/** Records `promise`'s value once it fulfils; returns the promise itself. */
export function track<T>(promise: Promise<T>): Promise<T> {
  promise.then(
    (value) => fulfilled.set(promise, { value }),
    () => undefined,
  );
  return promise;
}

/** `promise`'s value when it is known to have fulfilled (tracked, and its turn has come); else undefined. */
export function fulfilledValue<T>(promise: Promise<T>): { value: T } | undefined {
  // Set only by track(), with this very promise's value: the entry holds a T.
  return fulfilled.get(promise) as { value: T } | undefined;
}
