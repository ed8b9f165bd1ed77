/**
 * The gateway's services, built from the configuration in one place: the log, tracing, shared
 * state, the HTTP layer, the heavy-operation gate, pollers and provisionings, the per-request
 * context, the one pipeline and the doors in front of it, the pages. `startGateway` (index.ts)
 * puts a node:http server in front of them; a test may build them alone.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { Counter } from 'prom-client';
import type { Config } from '../config';
import { createContext, releaseContext, type GatewayContext, type GatewayInfo, type GatewayOwner, type GatewayServices, type PollSession } from '../context';
import type { Cancellation } from '../core/cancellation';
import { createCallerFactory, type CallerFactory } from '../core/caller';
import { defaultShare, SharedLimit } from '../core/shares';
import { createCallerVerifier } from '../core/verify';
import { GatewayError } from '../errors/codes';
import { readOperationFolder } from '../doors/mcp/catalog';
import { COST_HEADER, createHttpDoor } from '../doors/http';
import { createMcpHandler } from '../doors/mcp/handler';
import { createPipelineMcpRunner } from '../doors/mcp/pipeline-runner';
import { createSseDoor } from '../doors/sse';
import { HeavyOperationGate } from '../limits/admission';
import { OperationBudget } from '../limits/budget';
import { instrumentSchema } from '../limits/instrument';
import { introspectionRules } from '../limits/introspection';
import { loadManifest } from '../persisted/trusted-documents';
import { createPipeline, type Caller } from '../pipeline';
import { createErrorFormatter } from '../pipeline/format';
import { createOperationMetrics, operationNamesOf, OWN_OPERATION_NAMES } from '../pipeline/operation-metrics';
import { createLogger, type LogFn } from '../pipeline/request-log';
import { createPollerMetrics } from '../pollers';
import { runProvisioning } from '../provisioning/runner';
import { provisioningDeps } from '../resolvers';
import { createFleetState } from '../state';
import { upstreamQuotaOf } from '../state/call-quota';
import { createTracer, type OperationSpan } from '../tracing';
import { createHttpLayer } from '../upstream/http';
import { createUpstreamReads } from '../upstream/cache';
import { createRedisChangeBus } from '../state/redis/change-bus';
import { identifyCaller } from '../upstream/identity/identify';
import type { LoaderOptions } from '../upstream/loader-options';
import { createSharedProbe } from '../upstream/probe';
import { CallerOwner } from './caller-owner';
import { createHealthRoutes, upstreamReadiness, type RouteHandler } from './health';
import { createIdeHandler } from './ide';
import { createMapHandler } from './map';
import { createGatewayMetrics } from './metrics';
import { createNetworkPolling } from './network-polling';
import { packageVersion, projectRoot } from './project-root';
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
  /** The seed's facts: its first organization is the demo callers' (allowed to read events in sandbox mode). */
  restFacts?(): { organizationIds: readonly string[] };
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

const PROBE_TIMEOUT_MS = 2000;
/** How long a finished provisioning stays readable (`Query.provisioning`). */
const PROVISIONING_RETAIN_MS = 60 * 60 * 1000;

export type GatewayParts = Awaited<ReturnType<typeof composeGateway>>;

export async function composeGateway(config: Config, options: StartGatewayOptions = {}) {
  const logger = createLogger(options.log === undefined ? (line) => process.stdout.write(`${line}\n`) : options.log);
  const upstreamBaseUrl = config.upstreamBaseUrl ?? options.sandbox?.baseUrl;
  if (upstreamBaseUrl === undefined) throw new Error('startGateway: no upstream (set UPSTREAM_BASE_URL or pass a sandbox)');
  const sandboxMode = config.upstreamBaseUrl === null;
  const searchUrl = config.searchUrl ?? (sandboxMode ? (options.sandbox?.searchUrl ?? null) : null);
  const searchCredentials = config.searchCredentials ?? (sandboxMode ? (options.sandbox?.searchCredentials ?? null) : null);

  const metrics = createGatewayMetrics(options.processMetrics === true);
  const registry = metrics.registry;

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
  // Who a token belongs to, asked of the platform once per token and cached briefly (src/core/verify.ts).
  // The hash key is the fleet's when verdicts are shared (derived from FLEET_TOKEN_KEY), else this process's own.
  const hashKey = config.fleet.tokenKey ? createHmac('sha256', config.fleet.tokenKey).update('netgraph caller verdicts').digest() : randomBytes(32);
  const verifications = new Counter({
    name: 'netgraph_caller_verifications_total',
    help: 'Tokens verified with the platform (identity/v1), by outcome: accepted, refused, unavailable. Cached verdicts are not counted.',
    labelNames: ['outcome'] as const,
    registers: [registry],
  });
  // The verifier asks through the HTTP layer, whose quota asks the verifier: bound once both exist (just below).
  let identify: (authorization: string) => ReturnType<typeof identifyCaller> = () => Promise.reject(new Error('not started'));
  const verifier = createCallerVerifier({
    hashKey,
    ttlMs: config.callers.verifyTtlMs,
    refusedTtlMs: config.callers.refusedTtlMs,
    store: fleet.verdicts,
    identify: (authorization) => identify(authorization),
    onIdentify: (outcome) => verifications.inc({ outcome }),
  });
  // Every door builds its caller with this one function (src/core/caller.ts).
  const callerOf: CallerFactory = createCallerFactory(verifier, { trustProxyHops: config.callers.trustProxyHops, header: config.callers.clientAddressHeader });
  // The quota counts per identity; tokens the platform refuses share one count (their calls answer 401 anyway).
  const quotaKeyOf = (authorization: string): Promise<string> =>
    verifier.verify(authorization).then(
      (identity) => identity.key,
      (error: unknown) => {
        if (error instanceof GatewayError && error.code !== 'UPSTREAM_UNAVAILABLE') return 'refused';
        throw error;
      },
    );
  const httpLayer = createHttpLayer({
    upstreamBaseUrl,
    searchUrl,
    searchCredentials,
    timeouts: { connectMs: config.connectTimeoutMs, headersMs: config.headersTimeoutMs, bodyMs: config.bodyTimeoutMs },
    retry: { attempts: config.retryAttempts, baseDelayMs: config.retryBaseDelayMs, maxDelayMs: config.retryMaxDelayMs, maxRetryAfterMs: config.retryAfterMaxMs },
    maxConcurrentPerRequest: config.maxConcurrentPerRequest,
    metrics: registry,
    ...(fleet.quota ? { quota: upstreamQuotaOf(fleet.quota, quotaKeyOf) } : {}),
    reads,
    resilience: config.upstreamResilience,
    closures: fleet.upstreamClosures,
    maxBodyBytes: config.upstreamMaxBodyBytes,
    forwardTracestate: config.forwardTracestate,
    ...(options.upstreamClock ? { clock: options.upstreamClock } : {}),
  });
  identify = (authorization) => identifyCaller(httpLayer, authorization);
  // Heavy operations take turns, on every transport (src/limits/admission.ts).
  const gate = new HeavyOperationGate(config.limits.admission);
  metrics.watchGate(gate);
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
    (authorization, ownerKey) => CallerOwner.resumed(authorization, ownerKey, httpLayer, loaderOptions),
  );
  metrics.watchProvisionings(() => provisionings.running());
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
  // Event fields read the installation's search service: only callers of the organizations the operator allowed.
  const eventOrganizations = new Set(config.callers.eventsAllowedOrganizations);
  if (sandboxMode) for (const id of options.sandbox?.restFacts?.().organizationIds.slice(0, 1) ?? []) eventOrganizations.add(id);
  const admitEventSearch = async (caller: Caller): Promise<void> => {
    const identity = await caller.verify();
    if (identity === null || !eventOrganizations.has(identity.organizationId)) {
      throw new GatewayError('FORBIDDEN', 'event search reads the installation\'s search service: only callers of the organizations the operator allowed (EVENTS_ALLOWED_ORGANIZATIONS) may read it');
    }
  };
  const makeContext = (caller: Caller, cancellation: Cancellation, calls: { count: number }, trace?: OperationSpan): GatewayContext => {
    const authorization = caller.authorization;
    // The token stays private to the owner: pollers and background work see its identity's key, resolvers see neither.
    const owner = new CallerOwner(caller, httpLayer, loaderOptions);
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
      admitEventSearch: () => admitEventSearch(caller),
    });
  };

  // Every field counts what it produces on its operation's budget (src/limits/instrument.ts).
  const schema = instrumentSchema(buildSchema());
  const trusted = config.trustedDocuments ? loadManifest(config.trustedDocuments.path, config.trustedDocuments.only) : null;
  // Metric labels: the trusted operations' names and the gateway's own clients', never callers' (operation-metrics.ts).
  const mcpOperationsDir = join(projectRoot(), 'operations', 'mcp');
  const operationMetrics = createOperationMetrics(registry, [
    ...OWN_OPERATION_NAMES,
    ...operationNamesOf(trusted?.documents() ?? []),
    // The MCP tools' shipped operations are labelled by name too.
    ...operationNamesOf(readOperationFolder(mcpOperationsDir).map((source) => source.text)),
  ]);
  const formatErrors = createErrorFormatter({ development: config.development });
  // Every door hands its operations to this one pipeline (src/pipeline).
  const pipeline = createPipeline({
    schema,
    executor: config.executor,
    documentLimits: { maxBytes: config.limits.price.maxDocumentBytes, maxTokens: config.limits.price.maxDocumentTokens },
    trusted,
    extraRules: introspectionRules(config.introspection),
    apq: config.apq ? fleet.persistedQueries({ maxDocumentBytes: config.limits.price.maxDocumentBytes, ttlMs: config.fleet.apqTtlSeconds * 1000, maxSharedBytes: config.fleet.apqSharedMaxBytes }) : null,
    priceLimits: config.limits.price,
    gate,
    formatErrors,
    createContext: (caller, cancellation, calls, trace) => makeContext(caller, cancellation, calls, trace),
    releaseContext,
    subscriptionShares: {
      perCaller: new SharedLimit('subscriptionsPerCaller', { total: Number.MAX_SAFE_INTEGER, perCaller: config.callers.maxSubscriptionsPerCaller, setting: 'MAX_SUBSCRIPTIONS_PER_CALLER' }),
      anonymous: new SharedLimit('anonymousSubscriptions', {
        total: config.callers.maxAnonymousSubscriptions,
        perCaller: defaultShare(config.callers.maxAnonymousSubscriptions),
        setting: 'MAX_ANONYMOUS_SUBSCRIPTIONS',
      }),
    },
    logger,
    metrics: operationMetrics,
    tracer,
    maxSubscriptionsPerConnection: config.maxSubscriptionsPerConnection,
    onSubscriptionCount: (door, delta) => metrics.subscriptionCount(door, delta),
  });
  const httpDoor = await createHttpDoor({ schema, pipeline, formatErrors, callerOf });

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
  // With METRICS_PORT, /metrics is served on its own port only (index.ts), not to the API's clients.
  const { '/metrics': metricsRoute, ...probeRoutes } = routes;
  if (metricsRoute === undefined) throw new Error('health routes without /metrics');
  const health: Record<string, RouteHandler | undefined> = config.metricsPort === null ? routes : probeRoutes;
  const sse = createSseDoor({
    pipeline,
    reservations: new SharedLimit('sseReservations', { total: config.transport.sseMaxReservations, perCaller: config.transport.sseReservationsPerCaller, setting: 'SSE_MAX_RESERVATIONS' }),
    limits: { reservationTtlMs: config.transport.sseReservationTtlMs, maxBufferedBytes: config.transport.sseMaxBufferedBytes },
    callerOf,
  });
  // MCP at /mcp (src/doors/mcp): the shipped operations as tools for AI assistants, with the caller's token.
  const mcp = createMcpHandler({
    schema,
    runner: createPipelineMcpRunner(pipeline, config.limits.price),
    operationsDir: mcpOperationsDir,
    manifest: trusted ? { only: trusted.only, documents: trusted.documents() } : null,
    mutations: config.mcpMutations,
    publicHosts: config.publicHosts,
    schemaTools: { offered: config.introspection, needToken: !sandboxMode },
    version: info.version,
    warn: (message) => logger.warn(message),
    callerOf,
    note: (errors, caller) => pipeline.note(errors, caller, { door: 'mcp' }),
  });

  return { logger, metrics, tracer, fleet, httpLayer, pollers, provisionings, schema, pipeline, httpDoor, sse, mcp, ide, map, health, metricsRoute, verifier, callerOf, changeBus };
}
