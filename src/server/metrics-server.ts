/**
 * `/metrics` on a port of its own (`METRICS_PORT`): Prometheus scrapes it there, while the API's
 * port, which clients reach, does not serve it. This server answers `/metrics` and nothing else.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { sendJson, type RouteHandler } from './health';

export interface MetricsServer {
  /** `http://host:port/metrics` */
  url: string;
  close(): Promise<void>;
}

export async function startMetricsServer(metrics: RouteHandler, host: string, port: number): Promise<MetricsServer> {
  const server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) return void sendJson(res, 404, { error: 'this port serves GET /metrics only' });
    metrics(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
