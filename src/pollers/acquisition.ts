/**
 * Acquisition, written once for every registry: one placed poller per (kind, target key, owner
 * fingerprint: the identity), however many subscribers follow it (each credential of that identity
 * served only once admitted, subscribers.ts); an anonymous owner refused before anything
 * starts; a new one holding a unit of `MAX_POLLERS` and of its owner's share until it stops;
 * joining a running one always allowed. What is placed is the registry's (`Placement`): a
 * `Poller` in this process (registry.ts), or a fleet entry that polls or listens through Redis
 * (src/state/redis/pollers.ts).
 */
import type { CancelSignal } from '../core/cancellation';
import { GatewayError } from '../errors/codes';
import { defaultShare, SharedLimit } from '../core/shares';
import { ANONYMOUS_KEY as ANONYMOUS } from '../core/caller';
import type { CallerPollers, PollerRegistry, PollerSettings, PollKind, PollOwner, PollStream, PollWake } from './types';

/** One placed poller: subscribers join it; it calls the `stopped` it was given once it has stopped. */
export interface Placed<Value, Session> {
  /** A subscriber with `owner`'s credential: served at once when it is a member, after its own read otherwise. */
  subscribe(owner: PollOwner<Session>, signal?: CancelSignal): PollStream<Value>;
  start(): void;
  close(): void | Promise<void>;
  /** Polls at once when its kind says `change` touches its target; true when it did. */
  wakeFor?(change: PollWake): boolean;
  readonly subscriberCount: number;
}

/** Makes the poller of one (kind, target, owner); `stopped` must be called once when it stops. */
export type Placement<Session> = <Target, Value>(kind: PollKind<Target, Value, Session>, target: Target, owner: PollOwner<Session>, stopped: () => void) => Placed<Value, Session>;

/**
 * A registry over `place`; `afterClose` runs once every placed poller was closed; `wake` replaces
 * the default wake-up (each placed poller asked in turn) when the placement polls elsewhere.
 */
export function createAcquisition<S>(
  settings: PollerSettings,
  place: Placement<S>,
  afterClose: () => Promise<void> = () => Promise.resolve(),
  wake?: (change: PollWake) => number,
): PollerRegistry<S> {
  // One table per kind object, keyed `targetKey#ownerFingerprint`.
  const tables = new WeakMap<object, Map<string, unknown>>();
  const placed = new Set<Placed<unknown, S>>();
  // Every new poller holds one unit of MAX_POLLERS, and one of its owner's share of it.
  const limit = new SharedLimit('pollers', {
    total: settings.maxPollers,
    perCaller: settings.maxPollersPerCaller ?? defaultShare(settings.maxPollers),
    setting: 'MAX_POLLERS',
  });
  let closed = false;

  // A poller in a kind's table was placed by `acquire` with that same kind object, so it has
  // that kind's types: the one place this module needs a cast.
  function tableOf<T, V>(kind: PollKind<T, V, S>): Map<string, Placed<V, S>> {
    let table = tables.get(kind);
    if (!table) {
      table = new Map();
      tables.set(kind, table);
    }
    return table as Map<string, Placed<V, S>>;
  }

  function acquire<T, V>(kind: PollKind<T, V, S>, target: T, owner: PollOwner<S>, signal?: CancelSignal): PollStream<V> {
    if (closed) throw new Error('the poller registry is closed');
    // A poll needs credentials: an anonymous caller would start work whose every poll answers 401.
    if (owner.fingerprint === ANONYMOUS) throw new GatewayError('UNAUTHENTICATED', 'following a target needs a token (Authorization: Bearer …)');
    const table = tableOf(kind);
    const key = `${kind.key(target)}#${owner.fingerprint}`;
    const existing = table.get(key);
    if (existing) return existing.subscribe(owner, signal);

    const hold = limit.take(owner.fingerprint);
    const poller: Placed<V, S> = place(kind, target, owner, () => {
      if (table.get(key) === poller) table.delete(key);
      placed.delete(poller);
      hold.release();
    });
    table.set(key, poller);
    placed.add(poller);
    // Subscribe first, so the first value finds its reader.
    const stream = poller.subscribe(owner, signal);
    poller.start();
    return stream;
  }

  return {
    acquire,
    wake:
      wake ??
      ((change) => {
        let woken = 0;
        for (const poller of placed) if (poller.wakeFor?.(change) === true) woken += 1;
        return woken;
      }),
    forOwner: (owner): CallerPollers<S> => ({
      follow: (kind, target, signal) => acquire(kind, target, owner, signal),
    }),
    stats() {
      let subscribers = 0;
      for (const poller of placed) subscribers += poller.subscriberCount;
      return { pollers: placed.size, subscribers };
    },
    async close() {
      closed = true;
      await Promise.all([...placed].map((poller) => poller.close()));
      await afterClose();
    },
  };
}
