/**
 * The fleet's Prometheus series: leases this replica holds (pollers it polls for the fleet,
 * provisionings it runs), takeovers (a lease taken from a replica that stopped renewing it) and
 * fleet polls (polls made under a lease, on behalf of every replica following that target).
 */
import { Counter, Gauge, type Registry } from 'prom-client';

export interface FleetMetrics {
  takeover(kind: string): void;
  fleetPoll(kind: string): void;
  /** Counts leases held, read when /metrics is scraped. */
  watchLeases(count: () => number, kind?: string): void;
}

export function createFleetMetrics(registry: Registry): FleetMetrics {
  const counts = new Map<string, Array<() => number>>();
  new Gauge({
    name: 'netgraph_fleet_leases_held',
    help: 'Leases this replica holds in Redis, by kind (poll: a shared poller it polls for the fleet; provisioning: a run it carries).',
    labelNames: ['kind'] as const,
    registers: [registry],
    collect() {
      for (const [kind, getters] of counts) this.set({ kind }, getters.reduce((sum, get) => sum + get(), 0));
    },
  });
  const takeovers = new Counter({
    name: 'netgraph_fleet_takeovers_total',
    help: 'Leases this replica took over from a replica that stopped renewing them, by kind (a poll kind, or provisioning).',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  const polls = new Counter({
    name: 'netgraph_fleet_polls_total',
    help: 'Polls this replica made under a lease, for every replica following the target, by poll kind.',
    labelNames: ['kind'] as const,
    registers: [registry],
  });
  return {
    takeover: (kind) => takeovers.inc({ kind }),
    fleetPoll: (kind) => polls.inc({ kind }),
    watchLeases(count, kind = 'poll') {
      counts.set(kind, [...(counts.get(kind) ?? []), count]);
    },
  };
}
