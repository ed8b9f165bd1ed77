/**
 * The in-process poller registry: one `Poller` per (kind, target key, owner fingerprint), however
 * many subscribers follow it, and a bound on how many run at once. A registry for many replicas
 * would implement the same `PollerRegistry` (e.g. Redis leases for who polls, pub/sub for fan-out).
 */
import { GatewayError } from '../errors/codes';
import { defaultShare, SharedLimit } from '../limits/shares';
import { ANONYMOUS } from './fingerprint';
import { NO_POLLER_METRICS, type PollerMetrics } from './metrics';
import { Poller } from './poller';
import type { CallerPollers, PollerRegistry, PollerSettings, PollKind, PollOwner, PollStream, PollWake } from './types';

export function createPollerRegistry<S>(settings: PollerSettings, metrics: PollerMetrics = NO_POLLER_METRICS): PollerRegistry<S> {
  // One table per kind object, keyed `targetKey#ownerFingerprint`.
  const tables = new WeakMap<object, Map<string, unknown>>();
  const running = new Set<{ close(): Promise<void>; wakeFor(change: PollWake): boolean; readonly subscriberCount: number }>();
  // Every new poller holds one unit of MAX_POLLERS, and one of its owner's share of it.
  const limit = new SharedLimit('pollers', {
    total: settings.maxPollers,
    perCaller: settings.maxPollersPerCaller ?? defaultShare(settings.maxPollers),
    setting: 'MAX_POLLERS',
  });
  let closed = false;

  // A poller in a kind's table was created by `acquire` with that same kind object, so it has
  // that kind's types: the one place this module needs a cast.
  function tableOf<T, V>(kind: PollKind<T, V, S>): Map<string, Poller<T, V, S>> {
    let table = tables.get(kind);
    if (!table) {
      table = new Map();
      tables.set(kind, table);
    }
    return table as Map<string, Poller<T, V, S>>;
  }

  function acquire<T, V>(kind: PollKind<T, V, S>, target: T, owner: PollOwner<S>, signal?: AbortSignal): PollStream<V> {
    if (closed) throw new Error('the poller registry is closed');
    // A poll needs credentials: an anonymous caller would start work whose every poll answers 401.
    if (owner.fingerprint === ANONYMOUS) throw new GatewayError('UNAUTHENTICATED', 'following a target needs a token (Authorization: Bearer …)');
    const table = tableOf(kind);
    const key = `${kind.key(target)}#${owner.fingerprint}`;
    const existing = table.get(key);
    if (existing) return existing.subscribe(signal);

    const hold = limit.take(owner.fingerprint);
    const poller: Poller<T, V, S> = new Poller(kind, target, owner, settings, {
      metrics,
      stopped() {
        if (table.get(key) === poller) table.delete(key);
        running.delete(poller);
        hold.release();
        metrics.pollerStopped(kind.name);
      },
    });
    table.set(key, poller);
    running.add(poller);
    metrics.pollerStarted(kind.name);
    // Subscribe first, so the first value finds its reader.
    const stream = poller.subscribe(signal);
    poller.start();
    return stream;
  }

  return {
    acquire,
    wake(change) {
      let woken = 0;
      for (const poller of running) if (poller.wakeFor(change)) woken += 1;
      return woken;
    },
    forOwner: (owner): CallerPollers<S> => ({
      follow: (kind, target, signal) => acquire(kind, target, owner, signal),
    }),
    stats() {
      let subscribers = 0;
      for (const poller of running) subscribers += poller.subscriberCount;
      return { pollers: running.size, subscribers };
    },
    async close() {
      closed = true;
      await Promise.all([...running].map((poller) => poller.close()));
    },
  };
}
