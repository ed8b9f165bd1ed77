/**
 * The gateway's configuration: the only module that reads `process.env`. Each setting is declared
 * once in src/settings (by area: its variable, check, default and documentation; how to add one is
 * at the top of src/settings/index.ts); this module checks them all at start-up and assembles the
 * `Config` the rest of the code reads. A bad value throws ConfigError with a one-line message
 * naming it.
 */
import type { IdempotencyLimits } from './idempotency/store';
import type { Limits } from './limits/limits';
import type { TracingSettings } from './tracing/settings';
import { ConfigError, readSettings, refuseMisspelt, type Setting } from './settings';
import * as cache from './settings/cache';
import * as callers from './settings/callers';
import * as documents from './settings/documents';
import * as fleet from './settings/fleet';
import * as idempotency from './settings/idempotency';
import * as limits from './settings/limits';
import * as mcp from './settings/mcp';
import * as provisioning from './settings/provisioning';
import * as resilience from './settings/resilience';
import * as server from './settings/server';
import * as subscriptions from './settings/subscriptions';
import * as telemetry from './settings/telemetry';
import * as transports from './settings/transports';
import * as upstream from './settings/upstream';

export { ConfigError };
export { isLoopback } from './settings/server';

export type SandboxSeed = 'tiny' | 'demo' | 'large';

/** How GraphQL queries and mutations over HTTP are executed (`NETGRAPH_EXECUTOR`). */
export type ExecutorKind = 'jit' | 'graphql-js';

/** Which changes MCP clients may make (`MCP_MUTATIONS`, src/doors/mcp). */
export type McpMutations = (typeof mcp.MCP_MUTATION_KINDS)[number];

export interface Config {
  /**
   * `UPSTREAM_BASE_URL`: the platform's `{base_url}` (auth at `/auth/v1`, network management at
   * `/rest/v1`, identity at `/identity/v1`, management at `/core/v2`). Null: the embedded demo
   * sandbox is the upstream, which runs only when asked for: no `UPSTREAM_BASE_URL` and a loopback
   * `HOST` (127.0.0.1, ::1, localhost), or `SANDBOX=on` (demo only: it hands its admin token to
   * every browser). A blank `UPSTREAM_BASE_URL`, `SANDBOX=off` without one, or a non-loopback
   * `HOST` without either is a configuration error.
   * @default null on the default HOST, 127.0.0.1 — run the embedded sandbox upstream in-process
   */
  upstreamBaseUrl: string | null;
  /**
   * `PROBE_CACHE_MS`: how long one round of upstream probes answers `/readyz` and `checkUpstreams`
   * after it finished (0..60000; 0: only askers during the round share it). @default 2000
   */
  probeCacheMs: number;
  /**
   * `INTROSPECTION`: `on`/`off`. Off refuses `__schema` and `__type` at validation
   * (src/limits/introspection.ts); the IDE then cannot load the schema. @default true (`on`)
   */
  introspection: boolean;
  /**
   * `SEARCH_URL`: the event search service's address.
   * @default null — the sandbox's search service in sandbox mode; otherwise event fields answer NOT_CONFIGURED
   */
  searchUrl: string | null;
  /**
   * `SEARCH_USERNAME` + `SEARCH_PASSWORD`: basic credentials for the search service (both or neither).
   * Never sent to clients, never logged.
   * @default null
   */
  searchCredentials: { username: string; password: string } | null;
  /** `PORT`: where the gateway listens (0 picks a free port). @default 4000 */
  port: number;
  /** `HOST`: the interface the gateway listens on. @default '127.0.0.1' */
  host: string;
  /** `METRICS_PORT`: `/metrics` on this port only; null: on `PORT`. */
  metricsPort: number | null;
  /** `UPSTREAM_CONNECT_TIMEOUT_MS`: time to open a connection to an upstream. @default 5000 */
  connectTimeoutMs: number;
  /** `UPSTREAM_HEADERS_TIMEOUT_MS`: time from sending a request to the response headers. @default 10000 */
  headersTimeoutMs: number;
  /** `UPSTREAM_BODY_TIMEOUT_MS`: longest pause while reading a response body. @default 10000 */
  bodyTimeoutMs: number;
  /** `UPSTREAM_RETRY_ATTEMPTS`: attempts per upstream GET, first one included (1 = no retries; 1..10). @default 3 */
  retryAttempts: number;
  /** `UPSTREAM_RETRY_BASE_MS`: base of the exponential backoff between GET attempts (full jitter). @default 50 */
  retryBaseDelayMs: number;
  /** `UPSTREAM_RETRY_MAX_DELAY_MS`: upper bound of one backoff delay. @default 1000 */
  retryMaxDelayMs: number;
  /** `UPSTREAM_RETRY_AFTER_MAX_MS`: longest `Retry-After` the gateway waits for; a longer one ends the retries. @default 5000 */
  retryAfterMaxMs: number;
  /** `UPSTREAM_MAX_CONCURRENCY`: upstream calls one GraphQL request may have in flight at once (1..256); as many as the connection pool keeps per origin, so one level of a large graph goes out in one wave. @default 64 */
  maxConcurrentPerRequest: number;
  /**
   * `NETGRAPH_EXECUTOR`: `jit` or `graphql-js`. `jit` runs queries and mutations through
   * graphql-jit (compiled once per document and operation, graphql-js when a document does not
   * compile); `graphql-js` runs everything through graphql-js. Subscriptions always use graphql-js.
   * Both give identical results (src/pipeline/execute.ts).
   * @default 'jit'
   */
  executor: ExecutorKind;
  /** `SANDBOX_SEED`: data set of the embedded sandbox (`tiny`, `demo`, `large`). @default 'demo' */
  sandboxSeed: SandboxSeed;
  /** `NODE_ENV=development`: unexpected errors show their message and stack to clients. @default false */
  development: boolean;
  /**
   * `POLL_INTERVAL_MS`: pause between two polls of a subscription's shared poller after a change
   * (and before its second poll). @default 2000
   */
  pollIntervalMs: number;
  /**
   * `POLL_MAX_INTERVAL_MS`: ceiling of that pause, which grows 1.5× per poll without change and 2×
   * per transient error; at least `POLL_INTERVAL_MS`. @default 15000
   */
  pollMaxIntervalMs: number;
  /**
   * `NETWORK_POLL_INTERVAL_MS`: pause between two polls of a `networkChanges` poller after a change
   * and while a resource of the network is in progress (a status that is not final). @default 2000
   */
  networkPollIntervalMs: number;
  /**
   * `NETWORK_POLL_MAX_INTERVAL_MS`: ceiling of that pause while the network is quiet (it grows 1.5×
   * per poll without change); at least `NETWORK_POLL_INTERVAL_MS`. @default 30000
   */
  networkPollMaxIntervalMs: number;
  /** `POLL_MAX_ERRORS`: transient poll failures in a row (5xx, timeouts, 429) after which a subscription ends with the error (1..100). @default 5 */
  pollMaxErrors: number;
  /**
   * `POLL_NOT_FOUND_GRACE_MS`: how long `workflow` subscriptions wait for a business key the
   * upstream does not know yet (404 right after the change) before ending with NOT_FOUND. @default 10000
   */
  pollNotFoundGraceMs: number;
  /** `MAX_SUBSCRIPTIONS_PER_CONNECTION`: subscriptions one WebSocket (or one SSE stream) may run at once (1..10000). @default 20 */
  maxSubscriptionsPerConnection: number;
  /** `MAX_POLLERS`: shared pollers the gateway runs at once, all callers together (1..1000000). @default 1000 */
  maxPollers: number;
  /** `PROVISIONING_STEP_TIMEOUT_MS`: longest wait for one `provisionAppWan` step's status or workflow. @default 600000 (10 min) */
  provisioningStepTimeoutMs: number;
  /** `MAX_PROVISIONINGS`: `provisionAppWan` runs the gateway carries at once, all callers together (1..10000). @default 100 */
  maxProvisionings: number;
  /** `IDEMPOTENCY_*`: how long keys are kept, the first run's lease, a repeat's wait, and the bounds (src/settings/idempotency.ts). */
  idempotency: IdempotencySettings;
  /**
   * Operation limits (src/limits/README.md). Refused before running, with COST_ESTIMATED_TOO_EXPENSIVE:
   * `MAX_DOCUMENT_BYTES` (65536), `MAX_DOCUMENT_TOKENS` (5000), `MAX_DEPTH` (15), `MAX_ALIASES` (50),
   * `MAX_ESTIMATED_NODES` (2000000), `MAX_ESTIMATED_UPSTREAM_CALLS` (10000). Enforced while running,
   * with OPERATION_BUDGET_EXCEEDED: `OPERATION_MAX_UPSTREAM_CALLS` (5000), `OPERATION_TIMEOUT_MS`
   * (30000), `OPERATION_MAX_NODES` (500000), `OPERATION_MAX_RESPONSE_BYTES` (33554432).
   * Heavy operations take turns (src/limits/admission.ts): one estimated at `HEAVY_OPERATION_MIN_CALLS`
   * (100) upstream calls or more runs while it holds one of `HEAVY_OPERATION_CONCURRENCY` slots (the
   * machine's cores, at least 2).
   */
  limits: Limits;
  /**
   * The doors' own limits. WebSocket: `WS_MAX_CONNECTIONS` (10000) in all and `WS_CONNECTIONS_PER_CLIENT`
   * (a quarter of it) per client address; `WS_ALLOWED_ORIGINS`: comma-separated origins a browser may
   * open a socket from (unset: any). A WebSocket message is at most the HTTP body limit (1 MiB).
   * `WS_MAX_OPERATIONS_PER_CONNECTION` (100): operations one socket may have in flight.
   * SSE single connection mode: `SSE_MAX_RESERVATIONS` (1000) in all and `SSE_RESERVATIONS_PER_CALLER`
   * (10) per token; `SSE_RESERVATION_TTL_MS` (10000): an unopened reservation's life;
   * `SSE_MAX_BUFFERED_BYTES` (4 MiB): event bytes a stream may hold unread.
   */
  transport: TransportLimits;
  /** `APQ`: `on`/`off`: automatic persisted queries (in memory, documents by SHA-256). @default true */
  apq: boolean;
  /**
   * `TRUSTED_DOCUMENTS`: path of a persisted-operations manifest (Apollo's manifest format or a
   * `{ sha256: document }` map), loaded at start-up; `TRUSTED_DOCUMENTS_ONLY` (`on`/`off`, default
   * `on`): only its operations run. @default null — no manifest, every document may run
   */
  trustedDocuments: { path: string; only: boolean } | null;
  /**
   * OpenTelemetry traces, by the standard variables (src/tracing/README.md):
   * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL spans are POSTed to) or
   * `OTEL_EXPORTER_OTLP_ENDPOINT` (its `/v1/traces`), the first wins; `…_HEADERS` (`key=value,…`,
   * values percent-decoded, the traces variable's keys win), `…_PROTOCOL` (`http/protobuf` or
   * `http/json`), `…_COMPRESSION` (`gzip` or `none`), `…_TIMEOUT` (ms), each as
   * `OTEL_EXPORTER_OTLP_TRACES_*` or `OTEL_EXPORTER_OTLP_*`; `OTEL_SERVICE_NAME`,
   * `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_TRACES_SAMPLER` and `OTEL_TRACES_SAMPLER_ARG`.
   * `OTEL_SDK_DISABLED=true` or `OTEL_TRACES_EXPORTER=none` turn it off.
   * @default null — no endpoint: no tracing, the SDK is not even loaded
   */
  tracing: TracingSettings | null;
  /**
   * `MCP_MUTATIONS`: which changes MCP clients (`/mcp`) may make: `none` (no mutation tools, and
   * `execute` refuses mutations), `listed` (the shipped mutation tools only; `execute` refuses
   * mutations), `all` (those, and any mutation through `execute`).
   * @default 'listed'
   */
  mcpMutations: McpMutations;
  /** `PUBLIC_HOSTS`: the host names `/mcp` answers to; null for any (`*`). */
  publicHosts: ReadonlySet<string> | null;
  /** Shared state for a fleet of replicas, and per-caller shares (src/state/README.md). */
  fleet: FleetConfig;
  /** Who the caller is: verification with the platform, client addresses, per-caller subscriptions, event search (src/core/README.md). */
  callers: CallerSettings;
  /** Sharing and caching of upstream reads across requests (src/upstream/cache). */
  upstreamCache: UpstreamCacheConfig;
  /** How the gateway treats a struggling platform API: its circuit breaker and retry budget (src/upstream/health). */
  upstreamResilience: UpstreamResilience;
  /** `UPSTREAM_MAX_BODY_BYTES` */
  upstreamMaxBodyBytes: number;
  /** `UPSTREAM_FORWARD_TRACESTATE` */
  forwardTracestate: boolean;
}

/** Per upstream API (auth/v1, rest/v1, identity/v1, core/v2, search). */
export interface UpstreamResilience {
  breaker: { consecutiveFailures: number; failureRatio: number; minimumCalls: number; windowMs: number; openMs: number; slowCallMs: number };
  retryBudget: { ratio: number; minPerSecond: number; windowMs: number };
}

/** `UPSTREAM_SHARING`, `UPSTREAM_CACHE_MAX_BYTES`, `UPSTREAM_CACHE_MAX_ENTRIES`, `UPSTREAM_CACHE_TTLS`, `UPSTREAM_CACHE_STALE_IF_ERROR_SECONDS`. */
export interface UpstreamCacheConfig {
  sharing: boolean;
  maxBytes: number;
  maxEntries: number;
  ttls: ReadonlyMap<string, number>;
  staleIfErrorSeconds: number;
}

export interface CallerSettings {
  /** `CALLER_VERIFY_TTL_MS` */
  verifyTtlMs: number;
  /** `CALLER_VERIFY_REFUSED_TTL_MS` */
  refusedTtlMs: number;
  /** `TRUST_PROXY_HOPS` */
  trustProxyHops: number;
  /** `CLIENT_ADDRESS_HEADER` */
  clientAddressHeader: string | null;
  /** `MAX_SUBSCRIPTIONS_PER_CALLER` */
  maxSubscriptionsPerCaller: number;
  /** `MAX_ANONYMOUS_SUBSCRIPTIONS` */
  maxAnonymousSubscriptions: number;
  /** `EVENTS_ALLOWED_ORGANIZATIONS` */
  eventsAllowedOrganizations: ReadonlySet<string>;
}

export interface IdempotencySettings {
  ttlMs: number;
  leaseMs: number;
  waitMs: number;
  limits: IdempotencyLimits;
}

export interface FleetConfig {
  /**
   * `REDIS_URL`: `redis://` or `rediss://` (TLS), with credentials and a database number
   * (`rediss://user:password@host:6380/2`). Set: pollers, provisionings, persisted queries and
   * quotas are shared by every replica through it. @default null — all state in this process
   */
  redisUrl: string | null;
  /**
   * `FLEET_TOKEN_KEY`: 32 bytes (64 hex digits, or base64), the AES-256-GCM key a running
   * provisioning's token is kept under in Redis so another replica can resume the run. Never
   * logged. @default null — a run whose replica stops ends FAILED on the replica that finds it
   */
  tokenKey: Buffer | null;
  /** `MAX_POLLERS_PER_CALLER`: pollers one credential may start, its share of `MAX_POLLERS`. @default a quarter of MAX_POLLERS */
  maxPollersPerCaller: number;
  /** `MAX_PROVISIONINGS_PER_CALLER`: provisionings one credential may run at once. @default a quarter of MAX_PROVISIONINGS */
  maxProvisioningsPerCaller: number;
  /** `PROVISIONINGS_RETAINED`: provisioning records kept, running and finished (one credential keeps a quarter at most). @default 1000 */
  provisioningsRetained: number;
  /** `CALLER_UPSTREAM_CALLS_PER_MINUTE`: upstream calls one credential may cause per minute, across the fleet. @default null — no quota */
  callerUpstreamCallsPerMinute: number | null;
  /** `APQ_TTL_SECONDS`: how long a persisted query registration is kept after its last use. @default 86400 */
  apqTtlSeconds: number;
  /** `REDIS_TLS_CA_FILE` */
  redisTlsCaFile: string | null;
  /** `APQ_SHARED_MAX_BYTES` */
  apqSharedMaxBytes: number;
}

export interface TransportLimits {
  wsMaxConnections: number;
  wsConnectionsPerClient: number;
  wsAllowedOrigins: ReadonlySet<string> | null;
  wsMaxBufferedBytes: number;
  wsMaxOperationsPerConnection: number;
  sseMaxReservations: number;
  sseReservationsPerCaller: number;
  sseReservationTtlMs: number;
  sseMaxBufferedBytes: number;
}

type Env = Readonly<Record<string, string | undefined>>;
type Get = <T>(setting: Setting<T>) => T;

/** Read and validate the configuration (from `process.env` unless given another map). */
export function loadConfig(env: Env = process.env): Config {
  let config: Config;
  try {
    config = assemble(readSettings(env));
  } catch (error) {
    // A misspelling explains a later error best (UPSTREAM_BASE_URL must be set…), but only a near
    // miss is sure to be one.
    refuseMisspelt(Object.keys(env), { nearOnly: true });
    throw error;
  }
  refuseMisspelt(Object.keys(env), { nearOnly: false });
  return config;
}

function assemble(get: Get): Config {
  const username = get(upstream.SEARCH_USERNAME);
  const password = get(upstream.SEARCH_PASSWORD);
  const trustedPath = get(documents.TRUSTED_DOCUMENTS);
  return {
    upstreamBaseUrl: get(upstream.UPSTREAM_BASE_URL),
    probeCacheMs: get(server.PROBE_CACHE_MS),
    introspection: get(server.INTROSPECTION),
    searchUrl: get(upstream.SEARCH_URL),
    searchCredentials: username !== undefined && password !== undefined ? { username, password } : null,
    port: get(server.PORT),
    host: get(server.HOST),
    metricsPort: get(server.METRICS_PORT),
    connectTimeoutMs: get(upstream.UPSTREAM_CONNECT_TIMEOUT_MS),
    headersTimeoutMs: get(upstream.UPSTREAM_HEADERS_TIMEOUT_MS),
    bodyTimeoutMs: get(upstream.UPSTREAM_BODY_TIMEOUT_MS),
    retryAttempts: get(upstream.UPSTREAM_RETRY_ATTEMPTS),
    retryBaseDelayMs: get(upstream.UPSTREAM_RETRY_BASE_MS),
    retryMaxDelayMs: get(upstream.UPSTREAM_RETRY_MAX_DELAY_MS),
    retryAfterMaxMs: get(upstream.UPSTREAM_RETRY_AFTER_MAX_MS),
    maxConcurrentPerRequest: get(upstream.UPSTREAM_MAX_CONCURRENCY),
    executor: get(server.NETGRAPH_EXECUTOR),
    sandboxSeed: get(upstream.SANDBOX_SEED),
    development: get(server.NODE_ENV),
    pollIntervalMs: get(subscriptions.POLL_INTERVAL_MS),
    pollMaxIntervalMs: get(subscriptions.POLL_MAX_INTERVAL_MS),
    networkPollIntervalMs: get(subscriptions.NETWORK_POLL_INTERVAL_MS),
    networkPollMaxIntervalMs: get(subscriptions.NETWORK_POLL_MAX_INTERVAL_MS),
    pollMaxErrors: get(subscriptions.POLL_MAX_ERRORS),
    pollNotFoundGraceMs: get(subscriptions.POLL_NOT_FOUND_GRACE_MS),
    maxSubscriptionsPerConnection: get(subscriptions.MAX_SUBSCRIPTIONS_PER_CONNECTION),
    maxPollers: get(subscriptions.MAX_POLLERS),
    provisioningStepTimeoutMs: get(provisioning.PROVISIONING_STEP_TIMEOUT_MS),
    maxProvisionings: get(provisioning.MAX_PROVISIONINGS),
    idempotency: {
      ttlMs: get(idempotency.IDEMPOTENCY_TTL_MS),
      leaseMs: get(idempotency.IDEMPOTENCY_LEASE_MS),
      waitMs: get(idempotency.IDEMPOTENCY_WAIT_MS),
      limits: {
        maxKeys: get(idempotency.IDEMPOTENCY_MAX_KEYS),
        maxKeysPerIdentity: get(idempotency.IDEMPOTENCY_MAX_KEYS_PER_CALLER),
        maxBytes: get(idempotency.IDEMPOTENCY_MAX_BYTES),
        maxBytesPerIdentity: get(idempotency.IDEMPOTENCY_MAX_BYTES_PER_CALLER),
        maxResultBytes: get(idempotency.IDEMPOTENCY_MAX_RESULT_BYTES),
      },
    },
    limits: {
      price: {
        maxDocumentBytes: get(limits.MAX_DOCUMENT_BYTES),
        maxDocumentTokens: get(limits.MAX_DOCUMENT_TOKENS),
        maxDepth: get(limits.MAX_DEPTH),
        maxAliases: get(limits.MAX_ALIASES),
        maxNodes: get(limits.MAX_ESTIMATED_NODES),
        maxUpstreamCalls: get(limits.MAX_ESTIMATED_UPSTREAM_CALLS),
      },
      budget: {
        upstreamCalls: get(limits.OPERATION_MAX_UPSTREAM_CALLS),
        deadlineMs: get(limits.OPERATION_TIMEOUT_MS),
        nodes: get(limits.OPERATION_MAX_NODES),
        responseBytes: get(limits.OPERATION_MAX_RESPONSE_BYTES),
      },
      admission: {
        heavyConcurrency: get(limits.HEAVY_OPERATION_CONCURRENCY),
        heavyMinCalls: get(limits.HEAVY_OPERATION_MIN_CALLS),
        heavyQueuePerCaller: get(limits.HEAVY_OPERATION_QUEUE_PER_CALLER),
      },
    },
    transport: {
      wsMaxConnections: get(transports.WS_MAX_CONNECTIONS),
      wsConnectionsPerClient: get(transports.WS_CONNECTIONS_PER_CLIENT),
      wsAllowedOrigins: get(transports.WS_ALLOWED_ORIGINS),
      wsMaxBufferedBytes: get(transports.WS_MAX_BUFFERED_BYTES),
      wsMaxOperationsPerConnection: get(transports.WS_MAX_OPERATIONS_PER_CONNECTION),
      sseMaxReservations: get(transports.SSE_MAX_RESERVATIONS),
      sseReservationsPerCaller: get(transports.SSE_RESERVATIONS_PER_CALLER),
      sseReservationTtlMs: get(transports.SSE_RESERVATION_TTL_MS),
      sseMaxBufferedBytes: get(transports.SSE_MAX_BUFFERED_BYTES),
    },
    apq: get(documents.APQ),
    trustedDocuments: trustedPath === undefined ? null : { path: trustedPath, only: get(documents.TRUSTED_DOCUMENTS_ONLY) },
    tracing: tracing(get),
    mcpMutations: get(mcp.MCP_MUTATIONS),
    publicHosts: get(mcp.PUBLIC_HOSTS),
    fleet: {
      redisUrl: get(fleet.REDIS_URL),
      tokenKey: get(fleet.FLEET_TOKEN_KEY),
      maxPollersPerCaller: get(subscriptions.MAX_POLLERS_PER_CALLER),
      maxProvisioningsPerCaller: get(provisioning.MAX_PROVISIONINGS_PER_CALLER),
      provisioningsRetained: get(provisioning.PROVISIONINGS_RETAINED),
      callerUpstreamCallsPerMinute: get(limits.CALLER_UPSTREAM_CALLS_PER_MINUTE),
      apqTtlSeconds: get(documents.APQ_TTL_SECONDS),
      redisTlsCaFile: get(fleet.REDIS_TLS_CA_FILE),
      apqSharedMaxBytes: get(fleet.APQ_SHARED_MAX_BYTES),
    },
    upstreamCache: {
      sharing: get(cache.UPSTREAM_SHARING),
      maxBytes: get(cache.UPSTREAM_CACHE_MAX_BYTES),
      maxEntries: get(cache.UPSTREAM_CACHE_MAX_ENTRIES),
      ttls: get(cache.UPSTREAM_CACHE_TTLS),
      staleIfErrorSeconds: get(cache.UPSTREAM_CACHE_STALE_IF_ERROR_SECONDS),
    },
    upstreamResilience: {
      breaker: {
        consecutiveFailures: get(resilience.UPSTREAM_BREAKER_FAILURES),
        failureRatio: get(resilience.UPSTREAM_BREAKER_FAILURE_PERCENT) / 100,
        minimumCalls: get(resilience.UPSTREAM_BREAKER_MIN_CALLS),
        windowMs: get(resilience.UPSTREAM_BREAKER_WINDOW_MS),
        openMs: get(resilience.UPSTREAM_BREAKER_PROBE_MS),
        slowCallMs: get(resilience.UPSTREAM_SLOW_CALL_MS),
      },
      retryBudget: {
        ratio: get(resilience.UPSTREAM_RETRY_BUDGET_PERCENT) / 100,
        minPerSecond: get(resilience.UPSTREAM_RETRY_BUDGET_MIN_PER_SECOND),
        windowMs: get(resilience.UPSTREAM_BREAKER_WINDOW_MS),
      },
    },
    upstreamMaxBodyBytes: get(upstream.UPSTREAM_MAX_BODY_BYTES),
    forwardTracestate: get(upstream.UPSTREAM_FORWARD_TRACESTATE),
    callers: {
      verifyTtlMs: get(callers.CALLER_VERIFY_TTL_MS),
      refusedTtlMs: get(callers.CALLER_VERIFY_REFUSED_TTL_MS),
      trustProxyHops: get(callers.TRUST_PROXY_HOPS),
      clientAddressHeader: get(callers.CLIENT_ADDRESS_HEADER),
      maxSubscriptionsPerCaller: get(callers.MAX_SUBSCRIPTIONS_PER_CALLER),
      maxAnonymousSubscriptions: get(callers.MAX_ANONYMOUS_SUBSCRIPTIONS),
      eventsAllowedOrganizations: get(callers.EVENTS_ALLOWED_ORGANIZATIONS),
    },
  };
}

/** Null (the SDK never loaded) without an endpoint, or when turned off. */
function tracing(get: Get): TracingSettings | null {
  const base = get(telemetry.OTEL_EXPORTER_OTLP_ENDPOINT);
  const tracesUrl = get(telemetry.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) ?? (base !== null ? `${base}/v1/traces` : null);
  const disabled = get(telemetry.OTEL_SDK_DISABLED) === 'true' || get(telemetry.OTEL_TRACES_EXPORTER) === 'none';
  if (tracesUrl === null || disabled) return null;
  return {
    tracesUrl,
    headers: { ...get(telemetry.OTEL_EXPORTER_OTLP_HEADERS), ...get(telemetry.OTEL_EXPORTER_OTLP_TRACES_HEADERS) },
    serviceName: get(telemetry.OTEL_SERVICE_NAME),
    resourceAttributes: get(telemetry.OTEL_RESOURCE_ATTRIBUTES),
    protocol: get(telemetry.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL),
    compression: get(telemetry.OTEL_EXPORTER_OTLP_TRACES_COMPRESSION),
    timeoutMs: get(telemetry.OTEL_EXPORTER_OTLP_TRACES_TIMEOUT),
    sampler: { name: get(telemetry.OTEL_TRACES_SAMPLER), ratio: get(telemetry.OTEL_TRACES_SAMPLER_ARG) },
  };
}
