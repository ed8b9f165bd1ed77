/**
 * What stands in front of the one pipeline (composeGateway's last part): the list of doors (HTTP,
 * WebSocket, SSE, MCP: each one `GatewayDoor`, src/doors/door.ts), the two pages (IDE, map) and
 * the health routes. The server walks the list to route requests and upgrades (routes.ts), to stop
 * the doors (lifecycle.ts) and to report their stats. Each door gets the same Caller factory.
 */
import type { GraphQLSchema } from 'graphql';
import type { Registry } from 'prom-client';
import type { Config } from '../config';
import type { CallerFactory } from '../core/caller';
import { SharedLimit } from '../core/shares';
import { edgeNotes, type GatewayDoor } from '../doors/door';
import { COST_HEADER, createHttpDoor } from '../doors/http';
import { createMcpDoor } from '../doors/mcp/handler';
import { createPipelineMcpRunner } from '../doors/mcp/pipeline-runner';
import { createSseDoor } from '../doors/sse';
import { createWebSocketDoor } from '../doors/websocket';
import type { TrustedDocuments } from '../persisted/trusted-documents';
import type { Pipeline } from '../pipeline';
import type { ErrorFormatter } from '../pipeline/format';
import type { Logger } from '../pipeline/request-log';
import type { FleetState } from '../state';
import type { UpstreamHealth } from '../upstream/health';
import type { SharedProbe } from '../upstream/probe';
import type { GatewayMetrics } from './metrics';
import { GRAPHQL_PATH, STREAM_PATH } from './paths';
import { createHealthRoutes, upstreamReadiness, type RouteHandler } from './health';
import { createIdeHandler } from './ide';
import { createMapHandler } from './map';

export interface DoorParts {
  readonly config: Config;
  readonly schema: GraphQLSchema;
  readonly pipeline: Pipeline;
  readonly formatErrors: ErrorFormatter;
  readonly callerOf: CallerFactory;
  readonly trusted: TrustedDocuments | null;
  /** The MCP tools' operations (operations/mcp). */
  readonly mcpOperationsDir: string;
  /** Sandbox mode: the sandbox's admin token prefills the pages (null outside it). */
  readonly sandboxToken: string | null;
  readonly version: string;
  readonly logger: Logger;
  readonly registry: Registry;
  readonly probe: SharedProbe;
  readonly fleet: FleetState;
  readonly upstreamHealth: UpstreamHealth;
  /** The gateway's request-duration histogram (GraphQL over HTTP). */
  readonly metrics: Pick<GatewayMetrics, 'observeRequest'>;
}

export async function composeDoors(parts: DoorParts) {
  const { config, schema, pipeline, formatErrors, callerOf, trusted, sandboxToken, logger } = parts;
  const sandboxMode = config.upstream.baseUrl === null;
  const httpDoor = await createHttpDoor({ path: GRAPHQL_PATH, schema, pipeline, formatErrors, callerOf, observe: (status, seconds) => parts.metrics.observeRequest(status, seconds) });
  const ide = createIdeHandler({
    graphqlPath: GRAPHQL_PATH,
    // Every answer in the IDE shows its estimated and actual cost (`extensions.cost`, src/limits/README.md).
    defaultHeaders: { ...(sandboxToken !== null ? { Authorization: `Bearer ${sandboxToken}` } : {}), [COST_HEADER]: 'true' },
  });
  // The network map page (GET /map, src/server/map): in sandbox mode its token field is prepopulated too.
  const map = createMapHandler({ graphqlPath: GRAPHQL_PATH, ...(sandboxToken !== null ? { defaultToken: sandboxToken } : {}) });
  const routes = createHealthRoutes({
    readiness: { upstreams: upstreamReadiness(parts.probe) },
    mode: sandboxMode ? 'sandbox' : 'upstream',
    metrics: parts.registry,
    state: () => parts.fleet.check(),
    upstreamApis: () => parts.upstreamHealth.view(),
  });
  // With METRICS_PORT, /metrics is served on its own port only (index.ts), not to the API's clients.
  const { '/metrics': metricsRoute, ...probeRoutes } = routes;
  if (metricsRoute === undefined) throw new Error('health routes without /metrics');
  const health: Record<string, RouteHandler | undefined> = config.server.metricsPort === null ? routes : probeRoutes;
  const ws = createWebSocketDoor({
    path: GRAPHQL_PATH,
    schema,
    pipeline,
    connections: new SharedLimit('wsConnections', { total: config.transports.wsMaxConnections, perCaller: config.transports.wsConnectionsPerClient, setting: 'WS_MAX_CONNECTIONS' }),
    allowedOrigins: config.transports.wsAllowedOrigins,
    callerOf,
    maxBufferedBytes: config.transports.wsMaxBufferedBytes,
    maxOperationsPerConnection: config.transports.wsMaxOperationsPerConnection,
  });
  const sse = createSseDoor({
    path: STREAM_PATH,
    pipeline,
    reservations: new SharedLimit('sseReservations', { total: config.transports.sseMaxReservations, perCaller: config.transports.sseReservationsPerCaller, setting: 'SSE_MAX_RESERVATIONS' }),
    limits: { reservationTtlMs: config.transports.sseReservationTtlMs, maxBufferedBytes: config.transports.sseMaxBufferedBytes },
    callerOf,
  });
  // MCP at /mcp (src/doors/mcp): the shipped operations as tools for AI assistants, with the caller's token.
  const mcp = createMcpDoor({
    schema,
    runner: createPipelineMcpRunner(pipeline, config.limits.price),
    operationsDir: parts.mcpOperationsDir,
    manifest: trusted ? { only: trusted.only, documents: trusted.documents() } : null,
    mutations: config.mcp.mutations,
    publicHosts: config.mcp.publicHosts,
    schemaTools: { offered: config.server.introspection, needToken: !sandboxMode },
    version: parts.version,
    warn: (message) => logger.warn(message),
    callerOf,
    edge: edgeNotes(pipeline, 'mcp'),
  });
  // The one list of doors: routed by path, stopped in this order, their stats reported by name.
  const doors: readonly GatewayDoor[] = [httpDoor, ws, sse, mcp];
  return { doors, ws, sse, ide, map, health, metricsRoute };
}
