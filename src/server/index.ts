/**
 * startGateway: one node:http server carrying GraphQL over HTTP (Apollo Server 5), the IDE for
 * browsers, subscriptions over WebSocket, and the health/metrics paths. Dependencies point one
 * way: server → resolvers → upstream.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ApolloServer } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { collectDefaultMetrics, Gauge } from 'prom-client';
import type { Config } from '../config';
import { createContext, releaseContext, type GatewayContext, type GatewayInfo, type GatewayOwner, type GatewayServices, type PollSession } from '../context';
import { createFormatError } from '../errors/format-error';
import { createPollerMetrics } from '../pollers';
import { provisioningDeps } from '../resolvers/provisioning';
import { runProvisioning } from '../provisioning/runner';
import { createFleetState } from '../state';
import { upstreamQuotaOf } from '../state/call-quota';
import { apolloCacheOf } from '../state/persisted-queries';
import { HeavyOperationGate } from '../limits/admission';
import { OperationBudget } from '../limits/budget';
import { instrumentSchema } from '../limits/instrument';
import { COST_HEADER, limitsPlugin } from '../limits/plugin';
import { loadManifest } from '../persisted/trusted-documents';
import { createTracer, type OperationSpan } from '../tracing';
import { Metrics } from '../metrics/registry';
import { Cancellation } from '../upstream/cancellation';
import { createHttpLayer } from '../upstream/http';
import { probeUpstreams } from '../upstream/probe';
import { handleGraphQL, sendPlain, type Handled } from './graphql-http';
import { createHealthRoutes, sendJson } from './health';
import { createIdeHandler } from './ide';
import { createMapHandler } from './map';
import { packageVersion } from './project-root';
import { createLogger, logRequest, requestIdOf, requestLogPlugin, type LogFn, type RequestFacts } from './request-log';
import { createOperationMetrics, outcomeOf } from './operation-metrics';
import { CallerOwner } from './caller-owner';
import { createOperationRunner } from './operations';
import { buildSchema } from './schema';
import { createJitGateway, graphqlJsRunner, type ExecutorStats } from './executor';
import { createKnownQueries, type KnownQueryStats } from './known-queries';
import { createSseHandler } from './sse';
import { startWebSocketServer } from './websocket';

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
  /** The compiled executor's counts (NETGRAPH_EXECUTOR=jit), null with graphql-js. */
  executorStats(): ExecutorStats | null;
  /** Queries known, and requests answered without Apollo's pipeline (known-queries.ts). */
  knownQueryStats(): KnownQueryStats;
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

  const metrics = new Metrics();
  const registry = metrics.registry;
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const requestDuration = metrics.histogram({
    name: 'netgraph_graphql_request_duration_seconds',
    help: 'Duration of GraphQL requests over HTTP, by HTTP status class.',
    labelNames: ['status_class'] as const,
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  });

  const operationMetrics = createOperationMetrics(metrics);
  // Null when no OTLP endpoint is configured: then no span, id or header is ever made.
  const tracer = config.tracing
    ? createTracer({
        tracesUrl: config.tracing.tracesUrl,
        serviceName: config.tracing.serviceName,
        serviceVersion: packageVersion(),
        onExportError: (error) => logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'trace export failed (spans dropped; told once)'),
      })
    : null;
  // Pollers, provisionings, persisted queries and quotas: in this process, or shared by the fleet in Redis (src/state).
  const fleet = createFleetState({ config: config.fleet, registry, warn: (message, fields) => logger.warn(fields ?? {}, message) });
  const httpLayer = createHttpLayer({
    upstreamBaseUrl,
    searchUrl,
    searchCredentials,
    timeouts: { connectMs: config.connectTimeoutMs, headersMs: config.headersTimeoutMs, bodyMs: config.bodyTimeoutMs },
    retry: { attempts: config.retryAttempts, baseDelayMs: config.retryBaseDelayMs, maxDelayMs: config.retryMaxDelayMs, maxRetryAfterMs: config.retryAfterMaxMs },
    maxConcurrentPerRequest: config.maxConcurrentPerRequest,
    metrics,
    ...(fleet.quota ? { quota: upstreamQuotaOf(fleet.quota) } : {}),
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
  const loaderOptions = { batching: config.batching };
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
  const info: GatewayInfo = { version: packageVersion(), sandbox: sandboxMode, batching: config.batching, searchConfigured: searchUrl !== null };
  const services: GatewayServices = {
    info,
    probeUpstreams: (signal) =>
      probeUpstreams(
        httpLayer.serviceUrls().map(({ service, url }) => ({ service, url })),
        { timeoutMs: PROBE_TIMEOUT_MS, signal },
      ),
    polling: { notFoundGraceMs: config.pollNotFoundGraceMs },
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
  const formatError = createFormatError({ development: config.development });
  const requestFacts = new WeakMap<GatewayContext['calls'], RequestFacts>();
  // NETGRAPH_EXECUTOR=jit: queries and mutations run compiled (executor.ts), served to Apollo as a gateway.
  const executor = config.executor === 'jit' ? createJitGateway(schema) : null;
  // Queries Apollo has resolved once are answered again without its per-request pipeline (known-queries.ts).
  const known = createKnownQueries({
    schema,
    run: executor?.run ?? graphqlJsRunner(schema),
    limits: config.limits.price,
    gate,
    formatError,
    includeStacktrace: config.development,
  });
  const apollo = new ApolloServer<GatewayContext>({
    ...(executor ? { gateway: executor.gateway } : { schema }),
    // Compact JSON: Apollo's default pretty-prints every response.
    stringifyResult: (result) => JSON.stringify(result),
    formatError,
    includeStacktraceInErrorResponses: config.development,
    csrfPrevention: true,
    introspection: true,
    stopOnTerminationSignals: false,
    // Automatic persisted queries: Apollo's bounded in-memory cache, keyed by the document's hash
    // (documents are not caller data). Trusted documents are applied before Apollo (graphql-http.ts).
    persistedQueries: config.apq
      ? { cache: apolloCacheOf(fleet.persistedQueries({ maxDocumentBytes: config.limits.price.maxDocumentBytes, ttlMs: config.fleet.apqTtlSeconds * 1000 })), ttl: null }
      : false,
    // Cache control is off: no response is cacheable across callers, and its per-field hook wraps
    // every resolver (measurable on large graphs).
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), limitsPlugin(config.limits.price, gate), requestLogPlugin(requestFacts), known.plugin],
  });
  await apollo.start();

  const ide = createIdeHandler({
    graphqlPath: GRAPHQL_PATH,
    // Every answer in the IDE shows its estimated and actual cost (`extensions.cost`, src/limits/README.md).
    defaultHeaders: {
      ...(sandboxMode && options.sandbox ? { Authorization: `Bearer ${options.sandbox.tokens.admin}` } : {}),
      [COST_HEADER]: 'true',
    },
  });
  // The network map page (GET /map, src/server/map): in sandbox mode its token field is prefilled too.
  const map = createMapHandler({
    graphqlPath: GRAPHQL_PATH,
    ...(sandboxMode && options.sandbox ? { defaultToken: options.sandbox.tokens.admin } : {}),
  });
  const routes = createHealthRoutes({ probe: services.probeUpstreams, metrics, state: () => fleet.check() });
  const documentLimits = { maxBytes: config.limits.price.maxDocumentBytes, maxTokens: config.limits.price.maxDocumentTokens };
  const runner = createOperationRunner({
    createContext: makeContext,
    limits: { document: documentLimits, price: config.limits.price },
    gate,
    formatError,
    logger,
    metrics: operationMetrics,
    maxSubscriptionsPerConnection: config.maxSubscriptionsPerConnection,
    registry,
  });
  const sse = createSseHandler({ schema, runner });

  async function serveGraphQL(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const cancellation = new Cancellation();
    // The client went away before we answered: cancel its upstream calls.
    res.on('close', () => {
      if (!res.writableFinished) cancellation.abort();
    });
    const calls = { count: 0 };
    const requestId = requestIdOf(req);
    res.setHeader('x-request-id', requestId);
    const authorization = req.headers.authorization;
    const trace = tracer?.startOperation(req.headers.traceparent);
    let context: GatewayContext | undefined;
    let handled: Handled;
    let waitedMs = 0;
    try {
      handled = await handleGraphQL(apollo, req, res, () => (context ??= makeContext(authorization, cancellation, calls, trace)), {
        documentLimits,
        trusted,
        known,
      });
    } finally {
      if (context) {
        waitedMs = context.budget.waitedMs;
        // However the request ended (Apollo can answer some without its plugins' last hook), its
        // deadline stops and a heavy operation's slot is given back: finish() is idempotent.
        context.budget.finish();
        releaseContext(context);
      }
    }
    const { status, facts: answered } = handled;
    const facts = answered ?? requestFacts.get(calls);
    if (facts) operationMetrics.observe('http', facts);
    requestDuration.observe({ status_class: `${Math.floor(status / 100)}xx` }, (performance.now() - started) / 1000);
    trace?.end({
      operationName: facts?.operationName ?? null,
      operationType: facts?.operationType ?? null,
      outcome: facts ? outcomeOf(facts.errorCodes) : status < 400 ? 'ok' : 'errors',
      httpStatus: status,
      upstreamCalls: calls.count,
      errorCodes: facts?.errorCodes ?? [],
    });
    logRequest(logger, {
      requestId,
      transport: 'http',
      operationName: facts?.operationName ?? null,
      status,
      durationMs: performance.now() - started,
      upstreamCalls: calls.count,
      errorCodes: facts?.errorCodes ?? [],
      waitedMs,
    });
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
      if (!res.headersSent) sendPlain(res, 500, 'internal error');
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
  const subscriptions = startWebSocketServer({ httpServer: server, path: GRAPHQL_PATH, schema, runner });

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
    executorStats: () => executor?.stats() ?? null,
    knownQueryStats: () => known.stats(),
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
        await apollo.stop();
        await httpLayer.close();
        await fleet.close();
        // Last: the spans of the drained requests are exported before close resolves.
        await tracer?.close();
      })();
      return closing;
    },
  };
}
