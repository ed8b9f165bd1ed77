/**
 * The gateway's services, built from the configuration in one place: the log, tracing, shared
 * state, the HTTP layer, the heavy-operation gate, pollers and provisionings, the per-request
 * context, the one pipeline and the doors in front of it, the pages. `startGateway` (index.ts)
 * puts a node:http server in front of them; a test may build them alone.
 */
import { resilienceOf, searchCredentialsOf, tracingOf, type Config } from '../config';
import type { GatewayInfo, GatewayOwner, GatewayServices, PollSession } from '../context';
import { HeavyOperationGate } from '../limits/admission';
import { createLogger, type LogFn } from '../pipeline/request-log';
import { createPollerMetrics } from '../pollers';
import { runProvisioning } from '../provisioning/runner';
import { provisioningDeps } from '../resolvers';
import { createFleetState } from '../state';
import { upstreamQuotaOf } from '../state/call-quota';
import { createTracer } from '../tracing';
import { createHttpLayer } from '../upstream/http';
import { createUpstreamReads } from '../upstream/cache';
import { createRedisChangeBus } from '../state/redis/change-bus';
import type { LoaderOptions } from '../upstream/loader-options';
import { createSharedProbe } from '../upstream/probe';
import { CallerOwner } from './caller-owner';
import { composeCallers } from './compose-callers';
import { createContextFactory } from './compose-context';
import { composeDoors } from './compose-doors';
import { composePipeline } from './compose-pipeline';
import { createGatewayMetrics } from './metrics';
import { createNetworkPolling } from './network-polling';
import { packageVersion } from './project-root';

export { GRAPHQL_PATH, STREAM_PATH } from './paths';

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
  /** Serve this sandbox (used when `config.upstream.baseUrl` is null; its admin token prefills the IDE). */
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
  /** The clock of the upstream-call quota's minutes (tests hold it inside one). @default Date.now */
  quotaClock?: () => number;
}

const PROBE_TIMEOUT_MS = 2000;
/** How long a finished provisioning stays readable (`Query.provisioning`). */
const PROVISIONING_RETAIN_MS = 60 * 60 * 1000;

export type GatewayParts = Awaited<ReturnType<typeof composeGateway>>;

export async function composeGateway(config: Config, options: StartGatewayOptions = {}) {
  const logger = createLogger(options.log === undefined ? (line) => process.stdout.write(`${line}\n`) : options.log);
  const upstreamBaseUrl = config.upstream.baseUrl ?? options.sandbox?.baseUrl;
  if (upstreamBaseUrl === undefined) throw new Error('startGateway: no upstream (set UPSTREAM_BASE_URL or pass a sandbox)');
  const sandboxMode = config.upstream.baseUrl === null;
  const sandbox = sandboxMode ? (options.sandbox ?? null) : null;
  const searchUrl = config.upstream.searchUrl ?? sandbox?.searchUrl ?? null;
  const searchCredentials = searchCredentialsOf(config.upstream) ?? sandbox?.searchCredentials ?? null;

  const metrics = createGatewayMetrics(options.processMetrics === true);
  const registry = metrics.registry;
  // Null when no OTLP endpoint is configured: then the SDK is not loaded and no span, id or header is ever made.
  const tracing = tracingOf(config.telemetry);
  const tracer = tracing
    ? createTracer(tracing, {
        serviceVersion: packageVersion(),
        onExportError: (error) => logger.warn({ error: error instanceof Error ? error.message : String(error) }, 'trace export failed (spans dropped; told once)'),
      })
    : null;
  // Pollers, provisionings, persisted queries and quotas: in this process, or shared by the fleet in Redis (src/state).
  const fleet = createFleetState({
    config: config.fleet,
    callerUpstreamCallsPerMinute: config.limits.callerUpstreamCallsPerMinute,
    registry,
    warn: (message, fields) => logger.warn(fields ?? {}, message),
    ...(options.quotaClock ? { quotaClock: options.quotaClock } : {}),
  });
  // Reads shared and cached across requests (src/upstream/cache); changes heard from the fleet over Redis.
  const changeBus = config.fleet.redisUrl === null ? null : createRedisChangeBus(config.fleet.redisUrl, (message, fields) => logger.warn(fields ?? {}, message));
  // Batching off is the naive plan the benchmark compares against: every call its own, nothing shared or cached.
  const naive = options.loaderOptions?.batching === false;
  const reads = createUpstreamReads(
    { ...config.cache, ...(naive ? { sharing: false, maxBytes: 0 } : {}), ...(options.cacheClock ? { now: options.cacheClock } : {}) },
    changeBus,
  );
  // Who a token belongs to, asked of the platform once per token (compose-callers.ts).
  const callers = composeCallers(config, fleet, registry);
  const httpLayer = createHttpLayer({
    upstreamBaseUrl,
    searchUrl,
    searchCredentials,
    timeouts: { connectMs: config.upstream.connectTimeoutMs, headersMs: config.upstream.headersTimeoutMs, bodyMs: config.upstream.bodyTimeoutMs },
    retry: { attempts: config.upstream.retryAttempts, baseDelayMs: config.upstream.retryBaseDelayMs, maxDelayMs: config.upstream.retryMaxDelayMs, maxRetryAfterMs: config.upstream.retryAfterMaxMs },
    maxConcurrentPerRequest: config.upstream.maxConcurrentPerRequest,
    metrics: registry,
    // The quota counts per identity.
    ...(fleet.quota ? { quota: upstreamQuotaOf(fleet.quota, callers.quotaKeyOf) } : {}),
    reads,
    // A cached read answers a token only while the platform's acceptance of it is current.
    verdicts: callers.verifier,
    resilience: resilienceOf(config.resilience),
    closures: fleet.upstreamClosures,
    maxBodyBytes: config.upstream.maxBodyBytes,
    forwardTracestate: config.upstream.forwardTracestate,
    ...(options.upstreamClock ? { clock: options.upstreamClock } : {}),
  });
  callers.askThrough(httpLayer);
  // Heavy operations take turns, on every transport (src/limits/admission.ts).
  const gate = new HeavyOperationGate(config.limits.admission);
  metrics.watchGate(gate);
  const loaderOptions: LoaderOptions = options.loaderOptions ?? { batching: true };
  const pollers = fleet.pollers<PollSession>(
    {
      intervalMs: config.subscriptions.pollIntervalMs,
      maxIntervalMs: config.subscriptions.pollMaxIntervalMs,
      maxErrors: config.subscriptions.pollMaxErrors,
      maxPollers: config.subscriptions.maxPollers,
      maxPollersPerCaller: config.subscriptions.maxPollersPerCaller,
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
      maxRunning: config.provisioning.maxProvisionings,
      maxRunningPerOwner: config.provisioning.maxProvisioningsPerCaller,
      maxRetained: config.provisioning.provisioningsRetained,
      retainMs: PROVISIONING_RETAIN_MS,
    },
    (owner, handle, actions, signal) =>
      runProvisioning(handle, actions, provisioningDeps(pollers.forOwner(owner), owner, config.subscriptions.pollNotFoundGraceMs), { signal, stepTimeoutMs: config.provisioning.stepTimeoutMs }),
    (authorization, ownerKey) => CallerOwner.resumed(authorization, ownerKey, httpLayer, loaderOptions, callers.verifier.tokenHash),
  );
  metrics.watchProvisionings(() => provisionings.running());
  const info: GatewayInfo = { version: packageVersion(), sandbox: sandboxMode, searchConfigured: searchUrl !== null };
  // One probe round at a time, its result reused for PROBE_CACHE_MS: /readyz and checkUpstreams share it.
  const probe = createSharedProbe(httpLayer.serviceUrls(), { timeoutMs: PROBE_TIMEOUT_MS, cacheMs: config.server.probeCacheMs });
  const services: GatewayServices = {
    info,
    probeUpstreams: (probeOptions) => probe.check(probeOptions),
    polling: {
      notFoundGraceMs: config.subscriptions.pollNotFoundGraceMs,
      // A network a poll saw change (whoever changed it) is forgotten by every replica's cache.
      network: createNetworkPolling(config.subscriptions, registry, (networkId) => reads.changes.changed({ service: 'rest-v1', path: `/networks/${networkId}`, seen: true })),
    },
    provisioning: { jobs: provisionings, stepTimeoutMs: config.provisioning.stepTimeoutMs },
  };
  const makeContext = createContextFactory({
    config,
    httpLayer,
    loaderOptions,
    services,
    pollers,
    credentialOf: callers.verifier.tokenHash,
    sandboxOrganizationIds: sandbox?.restFacts?.().organizationIds.slice(0, 1) ?? [],
  });

  // Every door hands its operations to this one pipeline (compose-pipeline.ts, src/pipeline).
  const { schema, trusted, mcpOperationsDir, formatErrors, pipeline } = composePipeline({ config, fleet, gate, makeContext, logger, tracer, metrics, credentialOf: callers.verifier.tokenHash });
  // The doors in front of it and the pages (compose-doors.ts).
  const doors = await composeDoors({
    config,
    schema,
    pipeline,
    formatErrors,
    callerOf: callers.callerOf,
    trusted,
    mcpOperationsDir,
    sandboxToken: sandbox?.tokens.admin ?? null,
    version: info.version,
    logger,
    registry,
    probe,
    fleet,
    upstreamHealth: httpLayer.health,
    metrics,
  });

  return { logger, metrics, tracer, fleet, httpLayer, pollers, provisionings, schema, pipeline, ...doors, verifier: callers.verifier, callerOf: callers.callerOf, changeBus };
}
