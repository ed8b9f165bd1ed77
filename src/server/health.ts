/**
 * `/healthz` (the process answers), `/readyz` (the upstream answers), `/metrics` (Prometheus).
 * Readiness counts any HTTP answer from an upstream as reachable. The search service is reported
 * but does not decide readiness: without it only event fields fail, the rest of the graph works.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Metrics } from '../metrics/registry';
import type { StateCheck } from '../state';
import type { UpstreamCheck } from '../upstream/probe';

export interface HealthOptions {
  probe(signal: AbortSignal): Promise<UpstreamCheck[]>;
  metrics: Metrics;
  /** The shared state (src/state): not ready until Redis was reached once; degraded, but serving, when it is lost later. */
  state?: () => StateCheck;
}

export type RouteHandler = (req: IncomingMessage, res: ServerResponse) => Promise<number>;

export function createHealthRoutes(options: HealthOptions): Record<string, RouteHandler> {
  return {
    '/healthz': async (_req, res) => sendJson(res, 200, { status: 'ok' }),
    '/readyz': async (_req, res) => {
      const controller = new AbortController();
      res.on('close', () => controller.abort());
      const checks = await options.probe(controller.signal);
      const state = options.state?.() ?? { status: 'memory' };
      const ready = checks.filter((c) => c.service !== 'search').every((c) => c.reachable) && state.status !== 'starting';
      const status = !ready ? 'unavailable' : state.status === 'degraded' ? 'degraded' : 'ready';
      return sendJson(res, ready ? 200 : 503, { status, checks, ...(state.status === 'memory' ? {} : { state }) });
    },
    '/metrics': async (_req, res) => {
      const body = await options.metrics.text();
      res.writeHead(200, { 'content-type': options.metrics.contentType });
      res.end(body);
      return 200;
    },
  };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): number {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
  return status;
}
