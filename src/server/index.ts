/**
 * startGateway: one node:http server carrying the doors (GraphQL over HTTP, WebSocket, SSE, MCP:
 * one list, compose-doors.ts), the IDE and map pages, and the health/metrics paths. The services
 * come from compose.ts, the paths and upgrades from routes.ts, the order of closing from
 * lifecycle.ts; this module listens and hands back the running gateway.
 */
import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Config } from '../config';
import type { Door } from '../core/doors';
import type { DoorStats } from '../doors/door';
import type { SseDoor } from '../doors/sse';
import type { WebSocketDoor } from '../doors/websocket';
import type { CallerVerifier } from '../core/verify';
import type { Pipeline } from '../pipeline';
import type { ExecutorStats } from '../pipeline/execute';
import { composeGateway, GRAPHQL_PATH, STREAM_PATH, type StartGatewayOptions } from './compose';
import { sendJson } from './health';
import { closer, doorReleases, doorStops, drain } from './lifecycle';
import { startMetricsServer } from './metrics-server';
import { createRoutes, createUpgrades } from './routes';

export { composeGateway, GRAPHQL_PATH, STREAM_PATH, type GatewayParts, type SandboxUpstream, type StartGatewayOptions } from './compose';

export interface RunningGateway {
  /** `http://host:port/graphql` */
  url: string;
  /** `ws://host:port/graphql` */
  wsUrl: string;
  /** `http://host:port/graphql/stream` (subscriptions over SSE) */
  streamUrl: string;
  /** Where `/metrics` is served: on `METRICS_PORT` when set, else on the API's port. */
  metricsUrl: string;
  /** Running shared pollers and their subscribers (tests, diagnostics). */
  pollerStats(): { pollers: number; subscribers: number };
  /** The executor's counts (operations compiled, run on graphql-js). */
  executorStats(): ExecutorStats;
  /** Documents the pipeline has prepared (cached), and their weight. */
  pipelineStats(): ReturnType<Pipeline['stats']>;
  /** Reserved and open SSE streams. */
  sseStats(): ReturnType<SseDoor['stats']>;
  /** The caller verifier (tests: how often the platform was asked). */
  verifier: CallerVerifier;
  /** Open WebSockets, the bytes they hold unsent, and how many closed for reading too slowly. */
  wsStats(): ReturnType<WebSocketDoor['stats']>;
  /** Every door's stats, by its name: one entry per door the server carries. */
  doorStats(): Partial<Record<Door, DoorStats>>;
  close(): Promise<void>;
}

/** How long an idle keep-alive connection stays open (see where it is set). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export async function startGateway(config: Config, options: StartGatewayOptions = {}): Promise<RunningGateway> {
  const parts = await composeGateway(config, options);
  const { logger, pipeline, pollers, provisionings, doors, sse, ws, httpLayer, fleet, tracer, verifier, metricsRoute, changeBus } = parts;
  const handle = createRoutes(parts);
  const upgrade = createUpgrades(doors);

  const sockets = new Set<Socket>();
  // A count, not a Set of responses: a Set that every request adds to and deletes from leaves its
  // retired tables (promoted to old space) holding the responses they held, and through them
  // whole requests, alive across young collections (src/server/README.md).
  let inFlight = 0;
  const server = createServer((req, res) => {
    inFlight += 1;
    res.once('close', () => (inFlight -= 1));
    handle(req, res).catch((error: unknown) => {
      logger.error({ error: error instanceof Error ? error.message : String(error) }, 'gateway error');
      if (!res.headersSent) sendJson(res, 500, { error: 'internal error' });
      else res.destroy();
    });
  });
  // Keep idle connections longer than clients and load balancers do (60 s is the common idle
  // timeout), so the client closes an idle keep-alive connection first. With Node's 5 s default, a
  // client whose own 4 s timer runs late sends on a socket the server is closing: ECONNRESET.
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.headersTimeout = KEEP_ALIVE_TIMEOUT_MS + 1000;
  // One listener for every socket (Node calls it with the socket as `this`): no closure per socket.
  function forget(this: Socket): void {
    sockets.delete(this);
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', forget);
  });
  server.on('upgrade', upgrade);

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.server.port, config.server.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  // With METRICS_PORT, /metrics is served there only (metrics-server.ts), not to the API's clients.
  const metricsServer = config.server.metricsPort !== null ? await startMetricsServer(metricsRoute, config.server.host, config.server.metricsPort) : null;
  const host = config.server.host.includes(':') ? `[${config.server.host}]` : config.server.host;

  // What to close, in order (lifecycle.ts): stop taking requests, end what never ends by itself,
  // drain, then release what the requests used.
  let stopped: Promise<void> = Promise.resolve();
  const close = closer(() => [
    {
      name: 'listening',
      close: () => {
        stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
      },
    },
    // No upgrade is taken once the doors stop.
    { name: 'upgrades', close: () => void server.off('upgrade', upgrade) },
    // WebSockets and event streams never finish by themselves: each door ends its own before the drain.
    ...doorStops(doors),
    // Provisionings stop first (their steps wait on pollers), and say so on their records.
    { name: 'provisionings', close: () => provisionings.close() },
    // Whatever still follows a poller (e.g. a reserved SSE stream nobody opened) ends here, with every timer.
    { name: 'pollers', close: () => pollers.close() },
    // Drain: let in-flight requests finish, then cut whatever is left.
    { name: 'requests in flight', close: () => drain(() => inFlight, options.drainTimeoutMs ?? 5000) },
    {
      name: 'connections',
      close: () => {
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        return stopped;
      },
    },
    { name: 'metrics port', close: () => metricsServer?.close() },
    ...doorReleases(doors),
    { name: 'upstream pools', close: () => httpLayer.close() },
    { name: 'change bus', close: () => changeBus?.close() },
    { name: 'shared state', close: () => fleet.close() },
    // Last: the spans of the drained requests are exported before close resolves.
    { name: 'tracer', close: () => tracer?.close() },
  ]);
  return {
    url: `http://${host}:${port}${GRAPHQL_PATH}`,
    wsUrl: `ws://${host}:${port}${GRAPHQL_PATH}`,
    streamUrl: `http://${host}:${port}${STREAM_PATH}`,
    metricsUrl: metricsServer?.url ?? `http://${host}:${port}/metrics`,
    pollerStats: () => pollers.stats(),
    executorStats: () => pipeline.stats().executor,
    pipelineStats: () => pipeline.stats(),
    sseStats: () => sse.stats(),
    verifier,
    wsStats: () => ws.stats(),
    doorStats: () => Object.fromEntries(doors.map((door) => [door.name, door.stats()])),
    close,
  };
}
