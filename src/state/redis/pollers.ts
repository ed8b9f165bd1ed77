/**
 * The poller registry of a fleet: one poller per (kind, target, identity) across every replica. The replica holding the target's lease in Redis polls (through an in-process
 * registry) and publishes each change on the target's channel, keeping the latest one; replicas
 * with subscribers to the same target listen instead, and try for the lease every half lease,
 * so when the holder dies one of them polls within about one and a half poll intervals. A holder
 * whose last subscriber leaves gives the lease up and says so, and a listener takes it at once.
 *
 * Only identity keys and sealed values go to Redis: never a credential (each replica polls with
 * the token of its own subscribers), and a value only sealed with the fleet key, which also
 * authenticates it and its order (poll-values.ts); without the key, a message only says the
 * target changed and each listener reads it itself. Data are served per credential on every
 * replica: a credential is served anything (the holder's values included) only once its own
 * read of the target succeeded on this replica (src/pollers/subscribers.ts). Nothing read from
 * Redis ends a subscription: a holder whose credentials were all refused gives the lease up, and
 * a listener that takes it over polls with its own credential and hears the platform's answer
 * itself. A kind without `wire`, and every kind while Redis is not reachable, is polled by this
 * replica on its own; when Redis is back the targets re-join.
 *
 * This file puts the registry together; one target's entry is fleet-entry.ts and its parts.
 */
import { createAcquisition, createPollerRegistry, type PollerMetrics, type PollerRegistry, type PollerSettings } from '../../pollers';
import { FleetEntry, type Shared } from './fleet-entry';
import type { Mode } from './fleet-roles';
import type { RedisLink } from './link';
import type { FleetMetrics } from './metrics';
import { pollValueCodec } from './poll-values';

/** The shortest lease: below it a busy event loop could lose one it holds. */
const MIN_LEASE_MS = 250;

/**
 * `fleetKey` (`FLEET_TOKEN_KEY`) seals the values kept and published in Redis; without it their
 * secret fields are stripped (poll-values.ts).
 */
export function createFleetPollers<S>(link: RedisLink, settings: PollerSettings, metrics: PollerMetrics, fleet: FleetMetrics, fleetKey: Buffer | null = null): PollerRegistry<S> {
  // The in-process registry polls for this replica; its limits are the entries' (below).
  const inner = createPollerRegistry<S>(
    { ...settings, maxPollers: Number.MAX_SAFE_INTEGER, maxPollersPerCaller: Number.MAX_SAFE_INTEGER },
    { ...metrics, subscriberJoined: () => undefined, subscriberLeft: () => undefined },
  );
  const leaseMs = Math.max(MIN_LEASE_MS, settings.intervalMs);
  const shared: Shared<S> = { link, settings, inner, metrics, fleet, values: pollValueCodec(fleetKey), leaseMs, latestMs: Math.max(leaseMs * 4, settings.maxIntervalMs * 2) };
  // Targets this replica follows (holding, listening or alone): acquisition and its limits are the pollers' own.
  const entries = new Set<{ readonly mode: Mode }>();
  fleet.watchLeases(() => [...entries].filter((e) => e.mode === 'holder').length);
  return createAcquisition<S>(
    settings,
    (kind, target, owner, stopped) => {
      const entry = new FleetEntry(kind, target, owner, shared, () => {
        entries.delete(entry);
        stopped();
      });
      entries.add(entry);
      return entry;
    },
    () => inner.close(),
    // Every replica hears each change; the one polling a target (its holder, or itself alone) polls it at once.
    (change) => inner.wake(change),
  );
}
