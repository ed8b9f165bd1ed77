/**
 * Prometheus series of the poller registry. Labels are the kind's name and the poll outcome only:
 * no target key, no owner fingerprint (unbounded, and the fingerprint is nobody's business).
 */
import { Counter, Gauge, type Registry } from 'prom-client';

/** How one poll went. */
export type PollOutcome =
  /** A value different from the last one: emitted. */
  | 'changed'
  /** The same value again: nothing emitted. */
  | 'unchanged'
  /** A failure the kind tolerates for now (e.g. a business key the upstream does not know yet). */
  | 'pending'
  /** A transient failure: the poller tries again. */
  | 'error'
  /** A failure that ended the poller's subscribers (or the last transient failure allowed). */
  | 'failed'
  /** A 401: the poller's subscribers ended with UNAUTHENTICATED. */
  | 'unauthenticated';

export interface PollerMetrics {
  pollerStarted(kind: string): void;
  pollerStopped(kind: string): void;
  subscriberJoined(kind: string): void;
  subscriberLeft(kind: string): void;
  polled(kind: string, outcome: PollOutcome): void;
}

export function createPollerMetrics(registry: Registry): PollerMetrics {
  const pollers = new Gauge({
    name: 'netgraph_pollers_active',
    help: 'Shared upstream pollers running, by kind (workflow, resourceStatus).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const subscribers = new Gauge({
    name: 'netgraph_poll_subscribers_active',
    help: 'Subscriptions following a shared poller, by kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const polls = new Counter({
    name: 'netgraph_polls_total',
    help: 'Polls made by shared pollers, by kind and outcome (changed, unchanged, pending, error, failed, unauthenticated).',
    labelNames: ['kind', 'outcome'] as const,
    registers: [registry],
  });
  return {
    pollerStarted: (kind) => pollers.inc({ kind }),
    pollerStopped: (kind) => pollers.dec({ kind }),
    subscriberJoined: (kind) => subscribers.inc({ kind }),
    subscriberLeft: (kind) => subscribers.dec({ kind }),
    polled: (kind, outcome) => polls.inc({ kind, outcome }),
  };
}

export const NO_POLLER_METRICS: PollerMetrics = {
  pollerStarted: () => undefined,
  pollerStopped: () => undefined,
  subscriberJoined: () => undefined,
  subscriberLeft: () => undefined,
  polled: () => undefined,
};
