/**
 * The in-process poller registry: acquisition (acquisition.ts) placing a `Poller` of this process
 * for each (kind, target key, owner fingerprint). A fleet places its own entries over the same
 * acquisition (src/state/redis/pollers.ts).
 */
import { createAcquisition } from './acquisition';
import { NO_POLLER_METRICS, type PollerMetrics } from './metrics';
import { Poller } from './poller';
import type { PollerRegistry, PollerSettings } from './types';

export function createPollerRegistry<S>(settings: PollerSettings, metrics: PollerMetrics = NO_POLLER_METRICS): PollerRegistry<S> {
  return createAcquisition<S>(settings, (kind, target, owner, stopped) => {
    const poller = new Poller(kind, target, owner, settings, {
      metrics,
      stopped() {
        stopped();
        metrics.pollerStopped(kind.name);
      },
    });
    metrics.pollerStarted(kind.name);
    return poller;
  });
}
