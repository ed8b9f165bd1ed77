/**
 * The gateway's own Prometheus metrics beside the pipeline's and the HTTP layer's: one registry
 * per gateway (tests run several in one process), the HTTP request histogram, and gauges that read
 * the heavy-operation gate, the provisionings and the subscriptions when scraped.
 */
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { HeavyOperationGate } from '../limits/admission';
import type { Door } from '../pipeline';

export interface GatewayMetrics {
  readonly registry: Registry;
  /** One GraphQL request over HTTP took `seconds` and answered `status`. */
  observeRequest(status: number, seconds: number): void;
  /** Subscriptions running now, by door. */
  subscriptionCount(door: Door, delta: number): void;
  /** Scrapes read the gate's running and queued heavy operations. */
  watchGate(gate: HeavyOperationGate): void;
  /** Scrapes read the provisionings in progress. */
  watchProvisionings(running: () => number): void;
}

export function createGatewayMetrics(processMetrics: boolean): GatewayMetrics {
  const registry = new Registry();
  if (processMetrics) collectDefaultMetrics({ register: registry });
  const requestDuration = new Histogram({
    name: 'netgraph_graphql_request_duration_seconds',
    help: 'Duration of GraphQL requests over HTTP, by HTTP status class.',
    labelNames: ['status_class'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const subscriptionsActive = new Gauge({
    name: 'netgraph_subscriptions_active',
    help: 'Subscriptions running now, by transport (ws, sse, mcp).',
    labelNames: ['transport'] as const,
    registers: [registry],
  });
  return {
    registry,
    observeRequest: (status, seconds) => requestDuration.observe({ status_class: `${Math.floor(status / 100)}xx` }, seconds),
    subscriptionCount: (door, delta) => subscriptionsActive.inc({ transport: door }, delta),
    watchGate(gate) {
      for (const [state, help] of [
        ['running', 'Heavy operations running (each holds one of HEAVY_OPERATION_CONCURRENCY slots).'],
        ['queued', 'Heavy operations waiting for a slot.'],
      ] as const) {
        new Gauge({
          name: `netgraph_heavy_operations_${state}`,
          help,
          registers: [registry],
          collect() {
            this.set(gate.stats()[state]);
          },
        });
      }
    },
    watchProvisionings(running) {
      new Gauge({
        name: 'netgraph_provisionings_running',
        help: 'provisionAppWan runs in progress.',
        registers: [registry],
        collect() {
          this.set(running());
        },
      });
    },
  };
}
