/**
 * startGateway: one node:http server carrying GraphQL over HTTP (Apollo Server 5), the IDE for
 * browsers, subscriptions over WebSocket, and the health/metrics paths. Dependencies point one
 * way: server → resolvers → upstream.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Config } from '../config';
import { createContext, releaseContext, type GatewayContext, type GatewayInfo, type GatewayOwner, type GatewayServices, type PollSession } from '../context';
import { createPollerMetrics, credentialFingerprint } from '../pollers';
import { provisioningDeps } from '../resolvers/provisioning';
import { runProvisioning } from '../provisioning/runner';
import { createFleetState } from '../state';
import { upstreamQuotaOf } from '../state/call-quota';
import { HeavyOperationGate } from '../limits/admission';
import { OperationBudget } from '../limits/budget';
import { instrumentSchema } from '../limits/instrument';
import { SharedLimit } from '../limits/shares';
import { introspectionRules } from '../limits/introspection';
import { loadManifest } from '../persisted/trusted-documents';
import { createTracer, type OperationSpan } from '../tracing';
import { createPipeline, type Caller, type Door, type Pipeline } from '../pipeline';
import type { ExecutorStats } from '../pipeline/execute';
import { createErrorFormatter } from '../pipeline/format';
import { createLogger, requestIdOf, type LogFn } from '../pipeline/request-log';
import { createOperationMetrics, operationNamesOf, OWN_OPERATION_NAMES } from '../pipeline/operation-metrics';
import { COST_HEADER, createHttpDoor } from '../doors/http';
import { createSseDoor } from '../doors/sse';
import { startWebSocketDoor } from '../doors/websocket';
import { type Cancellation } from '../upstream/cancellation';
import { createHttpLayer } from '../upstream/http';
import { createUpstreamReads } from '../upstream/cache';
import { createRedisChangeBus } from '../state/change-bus';
import type { LoaderOptions } from '../upstream/loader-options';
import { createSharedProbe } from '../upstream/probe';
import { createHealthRoutes, sendJson, upstreamReadiness } from './health';
import { createIdeHandler } from './ide';
import { createMapHandler } from './map';
import { packageVersion, projectRoot } from './project-root';
import { createMcpHandler, MCP_PATH } from '../doors/mcp/handler';
import { createPipelineMcpRunner } from '../doors/mcp/pipeline-runner';
import { CallerOwner } from './caller-owner';
import { createNetworkPolling } from './network-polling';
import { buildSchema } from './schema';

export const GRAPHQL_PATH = '/graphql';
/** Subscriptions over Server-Sent Events (graphql-sse). */
export const STREAM_PATH = `${GRAPHQL_PATH}/stream`;

/** What the gateway needs from a running sandbox upstream (sandbox mode only). */
export interface SandboxUpstream {
  baseUrl: string;
  searchUrl: string;
  searchCredentials: { username: string; password: string };
  tokens: { admin: string };
}

export interface StartGatewayOptions {
  /** Serve this sandbox (used when `config.upstreamBaseUrl` is null; its admin token prefills the IDE). */
  sandbox?: SandboxUpstream;
  /** Where log lines (JSON, one per line) go; null: no log at all (nothing is formatted). @default a line on stdout */
  log?: LogFn | null;
  /** Add Node's default process metrics to /metrics (off in tests: one registry per gateway). @default false */
  processMetrics?: boolean;
  /** Longest wait for in-flight requests on close, in ms. @default 5000 */
  drainTimeoutMs?: number;
  /** How loaders batch and cache; tests and the benchmark turn batching off to measure it, operators cannot. @default batching on */
  loaderOptions?: LoaderOptions;
  /** The upstream cache's clock, in ms since the epoch (tests hold and move it). @default Date.now */
  cacheClock?: () => number;
  /** The clock of the upstream breakers, Retry-After windows and retry budgets (tests move their own). @default Date.now */
  upstreamClock?: () => number;
}

export interface RunningGateway {
  /** `http://host:port/graphql` */
  url: string;
  /** `ws://host:port/graphql` */
  wsUrl: string;
  /** `http://host:port/graphql/stream` (subscriptions over SSE) */
  streamUrl: string;
  /** Running shared pollers and their subscribers (tests, diagnostics). */
  pollerStats(): { pollers: number; subscribers: number };
  /** The executor's counts (operations compiled, run on graphql-js). */
  executorStats(): ExecutorStats;
  /** Documents the pipeline has prepared (cached), and their weight. */
  pipelineStats(): ReturnType<Pipeline['stats']>;
  /** Reserved and open SSE streams. */
  sseStats(): { reservations: number; open: number };
  close(): Promise<void>;
}

const PROBE_TIMEOUT_MS = 2000;
/** How long an idle keep-alive connection stays open (see where it is set). */
const KEEP_ALIVE_TIMEOUT_MS = 65_000;
/** How long a finished provisioning stays readable (`Query.provisioning`). */
const PROVISIONING_RETAIN_MS = 60 * 60 * 1000;

export async function startGateway(config: Config, options: StartGatewayOptions = {}): Promise<RunningGateway> {
  const logger = createLogger(options.log === undefined ? (line) => process.stdout.write(`${line}\n`) : options.log);
  const upstreamBaseUrl = config.upstreamBaseUrl ?? options.sandbox?.baseUrl;
  if (upstreamBaseUrl === undefined) throw new Error('startGateway: no upstream (set UPSTREAM_BASE_URL or pass a sandbox)');
  const sandboxMode = config.upstreamBaseUrl === null;
  const searchUrl = config.searchUrl ?? (sandboxMode ? (options.sandbox?.searchUrl ?? null) : null);
  const searchCredentials = config.searchCredentials ?? (sandboxMode ? (options.sandbox?.searchCredentials ?? null) : null);

  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const requestDuration = new Histogram({
    name: 'netgraph_graphql_request_duration_seconds',
    help: 'Duration of GraphQL requests over HTTP, by HTTP status class.',
    labelNames: ['status_class'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  // Null when no OTLP endpoint is configured: then the SDK is not loaded and no span, id or header is ever made.
  const tracer = config.tracing
    ? createTracer(config.tracing, {
        serviceVersion: packageVersion(),
        onExportError: (error) => logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'trace export failed (spans dropped; told once)'),
      })
    : null;
  // Pollers, provisionings, persisted queries and quotas: in this process, or shared by the fleet in Redis (src/state).
  const fleet = createFleetState({ config: config.fleet, registry, warn: (message, fields) => logger.warn(fields ?? {}, message) });
  // Reads shared and cached across requests (src/upstream/cache); changes heard from the fleet over Redis.
  const changeBus = config.fleet.redisUrl === null ? null : createRedisChangeBus(config.fleet.redisUrl, (message, fields) => logger.warn(fields ?? {}, message));
  // Batching off is the naive plan the benchmark compares against: every call its own, nothing shared or cached.
  const naive = options.loaderOptions?.batching === false;
  const reads = createUpstreamReads(
    { ...config.upstreamCache, ...(naive ? { sharing: false, maxBytes: 0 } : {}), ...(options.cacheClock ? { now: options.cacheClock } : {}) },
    changeBus,
  );
  const httpLayer = createHttpLayer({
    upstreamBaseUrl,
    searchUrl,
    searchCredentials,
    timeouts: { connectMs: config.connectTimeoutMs, headersMs: config.headersTimeoutMs, bodyMs: config.bodyTimeoutMs },
    retry: { attempts: config.retryAttempts, baseDelayMs: config.retryBaseDelayMs, maxDelayMs: config.retryMaxDelayMs, maxRetryAfterMs: config.retryAfterMaxMs },
    maxConcurrentPerRequest: config.maxConcurrentPerRequest,
    metrics: registry,
    ...(fleet.quota ? { quota: upstreamQuotaOf(fleet.quota) } : {}),
    reads,
    resilience: config.upstreamResilience,
    closures: fleet.upstreamClosures,
    maxBodyBytes: config.upstreamMaxBodyBytes,
    forwardTracestate: config.forwardTracestate,
    ...(options.upstreamClock ? { clock: options.upstreamClock } : {}),
  });
  // Heavy operations take turns, on every transport (src/limits/admission.ts).
  const gate = new HeavyOperationGate(config.limits.admission);
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
  const loaderOptions: LoaderOptions = options.loaderOptions ?? { batching: true };
  const pollers = fleet.pollers<PollSession>(
    {
      intervalMs: config.pollIntervalMs,
      maxIntervalMs: config.pollMaxIntervalMs,
      maxErrors: config.pollMaxErrors,
      maxPollers: config.maxPollers,
      maxPollersPerCaller: config.fleet.maxPollersPerCaller,
    },
    createPollerMetrics(registry),
  );
  // A change sent through the gateway (here or on another replica) makes the pollers following what it touched poll at once.
  reads.changes.onChange((change) => {
    if (change.seen !== true) pollers.wake(change);
  });
  // A run (or a run resumed from another replica) works with its owner's credentials, through the shared pollers.
  const provisionings = fleet.provisionings<GatewayOwner>(
    {
      maxRunning: config.maxProvisionings,
      maxRunningPerOwner: config.fleet.maxProvisioningsPerCaller,
      maxRetained: config.fleet.provisioningsRetained,
      retainMs: PROVISIONING_RETAIN_MS,
    },
    (owner, handle, actions, signal) =>
      runProvisioning(handle, actions, provisioningDeps(pollers.forOwner(owner), owner, config.pollNotFoundGraceMs), { signal, stepTimeoutMs: config.provisioningStepTimeoutMs }),
    (authorization) => new CallerOwner(authorization, httpLayer, loaderOptions),
  );
  new Gauge({
    name: 'netgraph_provisionings_running',
    help: 'provisionAppWan runs in progress.',
    registers: [registry],
    collect() {
      this.set(provisionings.running());
    },
  });
  const info: GatewayInfo = { version: packageVersion(), sandbox: sandboxMode, searchConfigured: searchUrl !== null };
  // One probe round at a time, its result reused for PROBE_CACHE_MS: /readyz and checkUpstreams share it.
  const probe = createSharedProbe(httpLayer.serviceUrls(), { timeoutMs: PROBE_TIMEOUT_MS, cacheMs: config.probeCacheMs });
  const services: GatewayServices = {
    info,
    probeUpstreams: (probeOptions) => probe.check(probeOptions),
    polling: {
      notFoundGraceMs: config.pollNotFoundGraceMs,
      // A network a poll saw change (whoever changed it) is forgotten by every replica's cache.
      network: createNetworkPolling(config, registry, (networkId) => reads.changes.changed({ service: 'rest-v1', path: `/networks/${networkId}`, seen: true })),
    },
    provisioning: { jobs: provisionings, stepTimeoutMs: config.provisioningStepTimeoutMs },
  };
  const makeContext = (authorization: string | undefined, cancellation: Cancellation, calls: { count: number }, trace?: OperationSpan): GatewayContext => {
    // The token stays private to the owner: pollers and background work see its fingerprint, resolvers see neither.
    const owner = new CallerOwner(authorization, httpLayer, loaderOptions);
    const budget = new OperationBudget(config.limits.budget, cancellation);
    return createContext({
      http: httpLayer.forCaller({ authorization, signal: cancellation, calls, budget, trace }),
      budget,
      options: loaderOptions,
      cancellation,
      authenticated: authorization !== undefined,
      calls,
      gateway: services,
      pollers: pollers.forOwner(owner),
      owner,
    });
  };

  // Every field counts what it produces on its operation's budget (src/limits/instrument.ts).
  const schema = instrumentSchema(buildSchema());
  const trusted = config.trustedDocuments ? loadManifest(config.trustedDocuments.path, config.trustedDocuments.only) : null;
  // Metric labels: the trusted operations' names and the gateway's own clients', never callers' (operation-metrics.ts).
  const operationMetrics = createOperationMetrics(registry, [...OWN_OPERATION_NAMES, ...operationNamesOf(trusted?.documents() ?? [])]);
  const formatErrors = createErrorFormatter({ development: config.development });
  // Shared limits count per caller: a credential fingerprint, or the client address when anonymous.
  const callerKey = (caller: Caller): string => (caller.authorization !== undefined ? credentialFingerprint(caller.authorization) : `address:${caller.clientAddress ?? 'unknown'}`);
  const subscriptionsActive = new Gauge({
    name: 'netgraph_subscriptions_active',
    help: 'Subscriptions running now, by transport (ws, sse, mcp).',
    labelNames: ['transport'] as const,
    registers: [registry],
  });
  // Every door hands its operations to this one pipeline (src/pipeline).
  const pipeline = createPipeline({
    schema,
    executor: config.executor,
    documentLimits: { maxBytes: config.limits.price.maxDocumentBytes, maxTokens: config.limits.price.maxDocumentTokens },
    trusted,
    extraRules: introspectionRules(config.introspection),
    apq: config.apq ? fleet.persistedQueries({ maxDocumentBytes: config.limits.price.maxDocumentBytes, ttlMs: config.fleet.apqTtlSeconds * 1000 }) : null,
    priceLimits: config.limits.price,
    gate,
    formatErrors,
    createContext: (caller, cancellation, calls, trace) => makeContext(caller.authorization, cancellation, calls, trace),
    releaseContext,
    callerKey,
    logger,
    metrics: operationMetrics,
    tracer,
    maxSubscriptionsPerConnection: config.maxSubscriptionsPerConnection,
    onSubscriptionCount: (door: Door, delta) => subscriptionsActive.inc({ transport: door }, delta),
  });
  const httpDoor = await createHttpDoor({ schema, pipeline, formatErrors });

  const ide = createIdeHandler({
    graphqlPath: GRAPHQL_PATH,
    // Every answer in the IDE shows its estimated and actual cost (`extensions.cost`, src/limits/README.md).
    defaultHeaders: {
      ...(sandboxMode && options.sandbox ? { Authorization: `Bearer ${options.sandbox.tokens.admin}` } : {}),
      [COST_HEADER]: 'true',
    },
  });
  // The network map page (GET /map, src/server/map): in sandbox mode its token field is prepopulated too.
  const map = createMapHandler({
    graphqlPath: GRAPHQL_PATH,
    ...(sandboxMode && options.sandbox ? { defaultToken: options.sandbox.tokens.admin } : {}),
  });
  const routes = createHealthRoutes({ readiness: { upstreams: upstreamReadiness(probe) }, mode: sandboxMode ? 'sandbox' : 'upstream', metrics: registry, state: () => fleet.check(), upstreamApis: () => httpLayer.health.view() });
  const sse = createSseDoor({
    pipeline,
    reservations: new SharedLimit('sseReservations', { total: config.transport.sseMaxReservations, perCaller: config.transport.sseReservationsPerCaller, setting: 'SSE_MAX_RESERVATIONS' }),
    limits: { reservationTtlMs: config.transport.sseReservationTtlMs, maxBufferedBytes: config.transport.sseMaxBufferedBytes },
    callerKey,
  });
  // MCP at /mcp (src/doors/mcp): the shipped operations as tools for AI assistants, with the caller's token.
  const mcp = createMcpHandler({
    schema,
    runner: createPipelineMcpRunner(pipeline, config.limits.price),
    operationsDir: join(projectRoot(), 'operations', 'mcp'),
    manifest: trusted ? { only: trusted.only, documents: trusted.documents() } : null,
    mutations: config.mcpMutations,
    version: info.version,
    warn: (message) => logger.warn(message),
  });

  async function serveGraphQL(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    await httpDoor.serve(req, res, requestId);
    requestDuration.observe({ status_class: `${Math.floor(res.statusCode / 100)}xx` }, (performance.now() - started) / 1000);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const path = query < 0 ? target : target.slice(0, query);
    if (path === GRAPHQL_PATH || path.startsWith(`${GRAPHQL_PATH}/`)) {
      if (path === STREAM_PATH) return sse.handle(req, res);
      if (ide(req, res)) return;
      if (path === GRAPHQL_PATH) return serveGraphQL(req, res);
    }
    if (path === MCP_PATH) return mcp(req, res);
    if (await map(req, res)) return;
    const route = routes[path];
    if (route && (req.method === 'GET' || req.method === 'HEAD')) {
      await route(req, res);
      return;
    }
    if (path === '/') {
      res.writeHead(302, { location: GRAPHQL_PATH });
      res.end();
      return;
    }
    sendJson(res, 404, { error: `no route for ${req.method ?? 'GET'} ${path}` });
  }

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
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  const subscriptions = startWebSocketDoor({
    httpServer: server,
    path: GRAPHQL_PATH,
    schema,
    pipeline,
    connections: new SharedLimit('wsConnections', { total: config.transport.wsMaxConnections, perCaller: config.transport.wsConnectionsPerClient, setting: 'WS_MAX_CONNECTIONS' }),
    allowedOrigins: config.transport.wsAllowedOrigins,
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(config.port, config.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;

  let closing: Promise<void> | null = null;
  return {
    url: `http://${host}:${port}${GRAPHQL_PATH}`,
    wsUrl: `ws://${host}:${port}${GRAPHQL_PATH}`,
    streamUrl: `http://${host}:${port}${STREAM_PATH}`,
    pollerStats: () => pollers.stats(),
    executorStats: () => pipeline.stats().executor,
    pipelineStats: () => pipeline.stats(),
    sseStats: () => sse.stats(),
    close() {
      closing ??= (async () => {
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await subscriptions.close();
        // Event streams never finish by themselves: end them before draining the other requests.
        sse.close();
        // Provisionings stop first (their steps wait on pollers), and say so on their records.
        await provisionings.close();
        // Whatever still follows a poller (e.g. a reserved SSE stream nobody opened) ends here, with every timer.
        await pollers.close();
        // Drain: let in-flight requests finish, then cut whatever is left.
        const deadline = Date.now() + (options.drainTimeoutMs ?? 5000);
        while (inFlight > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
        server.closeAllConnections();
        for (const socket of sockets) socket.destroy();
        await stopped;
        await httpDoor.stop();
        await httpLayer.close();
        await changeBus?.close();
        await fleet.close();
        // Last: the spans of the drained requests are exported before close resolves.
        await tracer?.close();
      })();
      return closing;
    },
  };
}
