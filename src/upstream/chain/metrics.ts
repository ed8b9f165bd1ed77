/**
 * "Metrics": observes each attempt that left in
 * `netgraph_upstream_request_duration_seconds{service,method,status_class}` (status class `error`
 * when no answer came). An attempt refused before leaving is not observed.
 */
import { Histogram, type Registry } from 'prom-client';
import type { AttemptStep } from './call';

export function metrics(registry: Registry | undefined): AttemptStep {
  const histogram = new Histogram({
    name: 'netgraph_upstream_request_duration_seconds',
    help: 'Duration of upstream HTTP requests (each attempt), by service, method and status class.',
    labelNames: ['service', 'method', 'status_class'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: registry ? [registry] : [],
  });
  return {
    kind: 'attempt',
    name: 'metrics',
    wrap: (next) => async (attempt) => {
      const started = performance.now();
      try {
        return await next(attempt);
      } finally {
        const result = attempt.result;
        if (result !== null) {
          const statusClass = result.status === null ? 'error' : `${Math.floor(result.status / 100)}xx`;
          histogram.observe({ service: attempt.call.request.service, method: attempt.call.request.method, status_class: statusClass }, (performance.now() - started) / 1000);
        }
      }
    },
  };
}
