/**
 * The gateway's services, built from the configuration in one place: the log, tracing, shared
 * state, the HTTP layer, the heavy-operation gate, pollers and provisionings, the per-request
 * context, the one pipeline and the doors in front of it, the pages. `startGateway` (index.ts)
 * puts a node:http server in front of them; a test may build them alone.
 */
import { join } from 'node:path';
import type { Config } from '../config';
import { createContext, releaseContext, type GatewayContext, type GatewayInfo, type GatewayOwner, type GatewayServices, type PollSession } from '../context';
import type { Cancellation } from '../core/cancellation';
import { SharedLimit } from '../core/shares';
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
import { createPollerMetrics, credentialFingerprint } from '../pollers';
import { runProvisioning } from '../provisioning/runner';
import { provisioningDeps } from '../resolvers';
import { createFleetState } from '../state';
import { upstreamQuotaOf } from '../state/call-quota';
import { createTracer, type OperationSpan } from '../tracing';
import { createHttpLayer } from '../upstream/http';
import type { LoaderOptions } from '../upstream/loader-options';
import { createSharedProbe } from '../upstream/probe';
import { CallerOwner } from './caller-owner';
import { createHealthRoutes, upstreamReadiness } from './health';
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
  const httpLayer = createHttpLayer({
    upstreamBaseUrl,
    searchUrl,
    searchCredentials,
    timeouts: { connectMs: config.connectTimeoutMs, headersMs: config.headersTimeoutMs, bodyMs: config.bodyTimeoutMs },
    retry: { attempts: config.retryAttempts, baseDelayMs: config.retryBaseDelayMs, maxDelayMs: config.retryMaxDelayMs, maxRetryAfterMs: config.retryAfterMaxMs },
    maxConcurrentPerRequest: config.maxConcurrentPerRequest,
    metrics: registry,
    ...(fleet.quota ? { quota: upstreamQuotaOf(fleet.quota) } : {}),
  });
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
  metrics.watchProvisionings(() => provisionings.running());
  const info: GatewayInfo = { version: packageVersion(), sandbox: sandboxMode, searchConfigured: searchUrl !== null };
  // One probe round at a time, its result reused for PROBE_CACHE_MS: /readyz and checkUpstreams share it.
  const probe = createSharedProbe(httpLayer.serviceUrls(), { timeoutMs: PROBE_TIMEOUT_MS, cacheMs: config.probeCacheMs });
  const services: GatewayServices = {
    info,
    probeUpstreams: (probeOptions) => probe.check(probeOptions),
    polling: { notFoundGraceMs: config.pollNotFoundGraceMs, network: createNetworkPolling(config, registry) },
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
    onSubscriptionCount: (door, delta) => metrics.subscriptionCount(door, delta),
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
  const health = createHealthRoutes({ readiness: { upstreams: upstreamReadiness(probe) }, mode: sandboxMode ? 'sandbox' : 'upstream', metrics: registry, state: () => fleet.check() });
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

  return { logger, metrics, tracer, fleet, httpLayer, pollers, provisionings, schema, pipeline, httpDoor, sse, mcp, ide, map, health };
}
