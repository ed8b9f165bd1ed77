/**
 * The gateway's configuration: the only module that reads `process.env`. Every variable is
 * validated at start-up; a bad value throws ConfigError with a one-line message naming it.
 */
import { DEFAULT_LIMITS, type Limits } from './limits/limits';
import { SAMPLERS, type SamplerName, type TracingSettings } from './tracing/settings';
import { defaultShare } from './limits/shares';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export type SandboxSeed = 'tiny' | 'demo' | 'large';

/** How GraphQL queries and mutations over HTTP are executed (`NETGRAPH_EXECUTOR`). */
export type ExecutorKind = 'jit' | 'graphql-js';

/** Which changes MCP clients may make (`MCP_MUTATIONS`, src/doors/mcp). */
export type McpMutations = 'none' | 'listed' | 'all';

/** Per upstream API (auth/v1, rest/v1 with identity/v1, core/v2, search). */
export interface UpstreamResilience {
  breaker: {
    /** `UPSTREAM_BREAKER_FAILURES`: failures in a row (5xx, timeouts, connection errors) that open the breaker. @default 10 */
    consecutiveFailures: number;
    /** `UPSTREAM_BREAKER_FAILURE_PERCENT` / 100: share of failed calls in the window that opens it. @default 0.75 */
    failureRatio: number;
    /** `UPSTREAM_BREAKER_MIN_CALLS`: calls in the window before the share is judged. @default 20 */
    minimumCalls: number;
    /** `UPSTREAM_BREAKER_WINDOW_MS`: the sliding window of the share. @default 10000 */
    windowMs: number;
    /** `UPSTREAM_BREAKER_PROBE_MS`: how long an open breaker fails fast before one probe goes. @default 1000 */
    openMs: number;
  };
  retryBudget: {
    /** `UPSTREAM_RETRY_BUDGET_PERCENT` / 100: retries at most this share of first attempts over the window. @default 0.2 */
    ratio: number;
    /** `UPSTREAM_RETRY_BUDGET_MIN_PER_SECOND`: retries allowed per second whatever the share. @default 1 */
    minPerSecond: number;
    /** The budget's window (the breaker's, `UPSTREAM_BREAKER_WINDOW_MS`). */
    windowMs: number;
  };
}

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
  /** `UPSTREAM_RETRY_AFTER_MAX_MS`: longest window a 429/503 `Retry-After` closes an upstream API for; a longer one is cut to it. @default 60000 */
  retryAfterMaxMs: number;
  /** Sharing and caching of upstream reads across requests (src/upstream/cache). */
  upstreamCache: UpstreamCacheConfig;
  /** How the gateway treats a struggling platform API: its circuit breaker and retry budget (src/upstream/health). */
  upstreamResilience: UpstreamResilience;
  /** `UPSTREAM_MAX_BODY_BYTES`: largest upstream response body read; a larger one is `UPSTREAM_BAD_RESPONSE`, its read stopped. @default 33554432 */
  upstreamMaxBodyBytes: number;
  /** `UPSTREAM_FORWARD_TRACESTATE`: `on` passes a caller's `tracestate` to the platform with `traceparent`. @default off */
  forwardTracestate: boolean;
  /** `UPSTREAM_MAX_CONCURRENCY`: upstream calls one GraphQL request may have in flight at once (1..256); as many as the connection pool keeps per origin, so one level of a large graph goes out in one wave. @default 64 */
  maxConcurrentPerRequest: number;
  /**
   * `NETGRAPH_EXECUTOR`: `jit` or `graphql-js`. `jit` runs queries and mutations through
   * graphql-jit (compiled once per document and operation, graphql-js when a document does not
   * compile); `graphql-js` runs everything through graphql-js. Subscriptions always use graphql-js.
   * Both give identical results (src/server/executor.ts).
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
  /** Shared state for a fleet of replicas, and per-caller shares (src/state/README.md). */
  fleet: FleetConfig;
}

export interface UpstreamCacheConfig {
  /**
   * `UPSTREAM_SHARING`: `on`/`off`. On: identical upstream GETs (same service, URL, headers and
   * credential) in flight at once share one call, across requests. @default true (`on`)
   */
  sharing: boolean;
  /**
   * `UPSTREAM_CACHE_MAX_BYTES`: memory the private upstream cache may hold (per replica); 0 turns it
   * off. It keeps what the upstream's `Cache-Control`/`Expires` allow, per credential. @default 67108864 (64 MiB)
   */
  maxBytes: number;
  /**
   * `UPSTREAM_CACHE_TTLS`: `kind=seconds,…` — how long responses of a resource kind (the
   * collection its path ends in: `dataCenters`, `geoRegions`, `networkConfigMetadata`) that carry
   * no caching header stay fresh. @default none: header-less responses are never cached
   */
  ttls: ReadonlyMap<string, number>;
  /**
   * `UPSTREAM_CACHE_STALE_IF_ERROR_SECONDS`: while an API's circuit breaker is open, a cached answer
   * past its freshness by at most this long answers instead of the error, and the response says how
   * old it is (`extensions.staleUpstream`). @default 0 (off)
   */
  staleIfErrorSeconds: number;
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
}

type Env = Readonly<Record<string, string | undefined>>;

export interface TransportLimits {
  wsMaxConnections: number;
  wsConnectionsPerClient: number;
  wsAllowedOrigins: ReadonlySet<string> | null;
  sseMaxReservations: number;
  sseReservationsPerCaller: number;
  sseReservationTtlMs: number;
  sseMaxBufferedBytes: number;
}

function transport(env: Env): TransportLimits {
  const wsMaxConnections = int(env, 'WS_MAX_CONNECTIONS', 10_000, 1, 1_000_000);
  const sseMaxReservations = int(env, 'SSE_MAX_RESERVATIONS', 1000, 1, 1_000_000);
  const origins = read(env, 'WS_ALLOWED_ORIGINS');
  let wsAllowedOrigins: Set<string> | null = null;
  if (origins !== undefined) {
    wsAllowedOrigins = new Set(origins.split(',').map((o) => o.trim()).filter((o) => o !== ''));
    for (const origin of wsAllowedOrigins) {
      if (!/^https?:\/\/[^/\s]+$/.test(origin)) throw new ConfigError(`WS_ALLOWED_ORIGINS must list origins such as https://app.example.com (scheme and host, no path); got ${JSON.stringify(origin)}`);
    }
  }
  return {
    wsMaxConnections,
    wsConnectionsPerClient: int(env, 'WS_CONNECTIONS_PER_CLIENT', Math.max(1, Math.floor(wsMaxConnections / 4)), 1, wsMaxConnections),
    wsAllowedOrigins,
    sseMaxReservations,
    sseReservationsPerCaller: int(env, 'SSE_RESERVATIONS_PER_CALLER', Math.min(10, sseMaxReservations), 1, sseMaxReservations),
    sseReservationTtlMs: int(env, 'SSE_RESERVATION_TTL_MS', 10_000, 100, MAX_MS),
    sseMaxBufferedBytes: int(env, 'SSE_MAX_BUFFERED_BYTES', 4 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
  };
}

function read(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function url(env: Env, name: string): string | null {
  const value = read(env, name);
  if (value === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL; got ${JSON.stringify(value)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL; got ${JSON.stringify(value)}`);
  // Credentials in a URL end up in logs and error messages: search has its own variables for them.
  if (parsed.username || parsed.password) throw new ConfigError(`${name} must not carry credentials${name.startsWith('SEARCH') ? ' (use SEARCH_USERNAME/SEARCH_PASSWORD)' : ''}`);
  if (parsed.search || parsed.hash) throw new ConfigError(`${name} must not have a query string or fragment`);
  return parsed.href.replace(/\/+$/, '');
}

function int(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = read(env, name);
  if (value === undefined) return fallback;
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(value)}`);
  return n;
}

function oneOf<T extends string>(env: Env, name: string, allowed: readonly T[], fallback: T): T {
  const value = read(env, name);
  if (value === undefined) return fallback;
  const match = allowed.find((a) => a === value.toLowerCase());
  if (match === undefined) throw new ConfigError(`${name} must be one of ${allowed.join(', ')}; got ${JSON.stringify(value)}`);
  return match;
}

function credentials(env: Env): Config['searchCredentials'] {
  const username = read(env, 'SEARCH_USERNAME');
  const password = env['SEARCH_PASSWORD'] === '' ? undefined : env['SEARCH_PASSWORD'];
  if (username === undefined && password === undefined) return null;
  // Never echo the password, not even in a config error.
  if (username === undefined) throw new ConfigError('SEARCH_USERNAME must be set when SEARCH_PASSWORD is');
  if (password === undefined) throw new ConfigError('SEARCH_PASSWORD must be set when SEARCH_USERNAME is');
  return { username, password };
}

const MAX_MS = 600_000;

function trustedDocuments(env: Env): Config['trustedDocuments'] {
  const path = read(env, 'TRUSTED_DOCUMENTS');
  const only = oneOf(env, 'TRUSTED_DOCUMENTS_ONLY', ['on', 'off'] as const, 'on') === 'on';
  if (path === undefined) {
    if (read(env, 'TRUSTED_DOCUMENTS_ONLY') !== undefined) throw new ConfigError('TRUSTED_DOCUMENTS_ONLY needs TRUSTED_DOCUMENTS (the manifest path)');
    return null;
  }
  return { path, only };
}

function limits(env: Env): Limits {
  const { price, budget, admission } = DEFAULT_LIMITS;
  return {
    price: {
      // The request body (queries plus variables) is capped at 1 MiB by the HTTP handler.
      maxDocumentBytes: int(env, 'MAX_DOCUMENT_BYTES', price.maxDocumentBytes, 64, 1024 * 1024),
      maxDocumentTokens: int(env, 'MAX_DOCUMENT_TOKENS', price.maxDocumentTokens, 10, 1_000_000),
      maxDepth: int(env, 'MAX_DEPTH', price.maxDepth, 2, 1000),
      maxAliases: int(env, 'MAX_ALIASES', price.maxAliases, 0, 100_000),
      maxNodes: int(env, 'MAX_ESTIMATED_NODES', price.maxNodes, 1, 1_000_000_000),
      maxUpstreamCalls: int(env, 'MAX_ESTIMATED_UPSTREAM_CALLS', price.maxUpstreamCalls, 1, 100_000_000),
    },
    budget: {
      upstreamCalls: int(env, 'OPERATION_MAX_UPSTREAM_CALLS', budget.upstreamCalls, 1, 10_000_000),
      deadlineMs: int(env, 'OPERATION_TIMEOUT_MS', budget.deadlineMs, 1, 3_600_000),
      nodes: int(env, 'OPERATION_MAX_NODES', budget.nodes, 1, 1_000_000_000),
      responseBytes: int(env, 'OPERATION_MAX_RESPONSE_BYTES', budget.responseBytes, 1024, 1024 * 1024 * 1024),
    },
    admission: {
      heavyConcurrency: int(env, 'HEAVY_OPERATION_CONCURRENCY', admission.heavyConcurrency, 1, 10_000),
      heavyMinCalls: int(env, 'HEAVY_OPERATION_MIN_CALLS', admission.heavyMinCalls, 1, 100_000_000),
      heavyQueuePerCaller: int(env, 'HEAVY_OPERATION_QUEUE_PER_CALLER', admission.heavyQueuePerCaller, 1, 100_000),
    },
  };
}

/** The traces variable of an exporter setting when it is set, else the general one (the OTLP exporter spec). */
function otlpName(env: Env, setting: string): string {
  const traces = `OTEL_EXPORTER_OTLP_TRACES_${setting}`;
  return read(env, traces) !== undefined ? traces : `OTEL_EXPORTER_OTLP_${setting}`;
}

/**
 * A `key=value,key=value` list (the W3C baggage form the OTLP spec uses for headers and resource
 * attributes), values percent-decoded. Values are never echoed in an error: headers carry keys.
 */
function keyValues(env: Env, name: string, validKey: RegExp): Record<string, string> {
  const text = read(env, name);
  const pairs: Record<string, string> = {};
  if (text === undefined) return pairs;
  for (const item of text.split(',')) {
    if (item.trim() === '') continue;
    const at = item.indexOf('=');
    const key = at < 0 ? '' : item.slice(0, at).trim();
    if (!validKey.test(key)) throw new ConfigError(`${name} must be a list of key=value pairs separated by commas; an entry has no valid key`);
    let value: string;
    try {
      value = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      throw new ConfigError(`${name}: the value of ${key} is not valid percent-encoding`);
    }
    pairs[key] = value;
  }
  return pairs;
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const RESOURCE_KEY = /^[\w.\-/]{1,255}$/;

function sampler(env: Env): TracingSettings['sampler'] {
  const name = oneOf<SamplerName>(env, 'OTEL_TRACES_SAMPLER', SAMPLERS, 'parentbased_always_on');
  const arg = read(env, 'OTEL_TRACES_SAMPLER_ARG');
  if (!name.endsWith('traceidratio') || arg === undefined) return { name, ratio: 1 };
  const ratio = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(arg) ? Number(arg) : NaN;
  if (!(ratio >= 0 && ratio <= 1)) throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1; got ${JSON.stringify(arg)}`);
  return { name, ratio };
}

function tracing(env: Env): Config['tracing'] {
  const traces = url(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const base = url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const resourceAttributes = keyValues(env, 'OTEL_RESOURCE_ATTRIBUTES', RESOURCE_KEY);
  // OTEL_SERVICE_NAME wins over a service.name among the resource attributes.
  const serviceName = read(env, 'OTEL_SERVICE_NAME') ?? resourceAttributes['service.name'] ?? 'netgraph';
  if (!/^[\w.-]{1,128}$/.test(serviceName)) throw new ConfigError(`OTEL_SERVICE_NAME must be 1-128 letters, digits, '.', '_' or '-'; got ${JSON.stringify(serviceName)}`);
  const headers = { ...keyValues(env, 'OTEL_EXPORTER_OTLP_HEADERS', HEADER_NAME), ...keyValues(env, 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', HEADER_NAME) };
  const settings = {
    protocol: oneOf(env, otlpName(env, 'PROTOCOL'), ['http/protobuf', 'http/json'] as const, 'http/protobuf'),
    compression: oneOf(env, otlpName(env, 'COMPRESSION'), ['gzip', 'none'] as const, 'none'),
    timeoutMs: int(env, otlpName(env, 'TIMEOUT'), 10_000, 1, MAX_MS),
    sampler: sampler(env),
  };
  const disabled = oneOf(env, 'OTEL_SDK_DISABLED', ['true', 'false'] as const, 'false') === 'true' || oneOf(env, 'OTEL_TRACES_EXPORTER', ['otlp', 'none'] as const, 'otlp') === 'none';
  const tracesUrl = traces ?? (base !== null ? `${base}/v1/traces` : null);
  if (tracesUrl === null || disabled) return null;
  return { tracesUrl, headers, serviceName, resourceAttributes, ...settings };
}

/** Where the platform is; null when the demo sandbox stands in for it, and may (see `Config.upstreamBaseUrl`). */
function upstream(env: Env, host: string): string | null {
  const given = env['UPSTREAM_BASE_URL'];
  if (given !== undefined && given.trim() === '') throw new ConfigError("UPSTREAM_BASE_URL is blank: set the platform's base URL, or leave the variable out (the demo sandbox then runs on a loopback HOST only)");
  const upstreamBaseUrl = url(env, 'UPSTREAM_BASE_URL');
  const sandbox = read(env, 'SANDBOX') === undefined ? null : oneOf(env, 'SANDBOX', ['on', 'off'] as const, 'off') === 'on';
  if (upstreamBaseUrl !== null) {
    if (sandbox === true) throw new ConfigError('SANDBOX=on serves the demo sandbox instead of a platform: leave out UPSTREAM_BASE_URL or SANDBOX');
    return upstreamBaseUrl;
  }
  if (sandbox === false) throw new ConfigError('UPSTREAM_BASE_URL must be set (SANDBOX=off: the demo sandbox never runs)');
  if (sandbox === null && !isLoopback(host)) {
    throw new ConfigError(`UPSTREAM_BASE_URL must be set when HOST (${host}) is not a loopback address; SANDBOX=on serves the demo sandbox there instead (demo only: it hands out an admin token)`);
  }
  return null;
}

/** 127.0.0.0/8, ::1 and localhost: only this machine can reach the gateway. */
export function isLoopback(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[(.*)\]$/, '$1');
  return h === 'localhost' || h === '::1' || h === '::ffff:127.0.0.1' || /^127(?:\.\d{1,3}){3}$/.test(h);
}

/**
 * Refuses a variable that looks like a misspelt setting, which would otherwise be ignored in
 * silence (a misspelt UPSTREAM_BASE_URL once meant the demo): any unread `UPSTREAM_*` or
 * `NETGRAPH_*`, and any unread name within two edits of a setting's (case, `_`, `-` and `.`
 * ignored; settings of 8 letters or more, so HOME is not taken for HOST). Kubernetes' service
 * variables (`<SERVICE>_SERVICE_HOST`, `<SERVICE>_PORT_…`, made for a Service named `netgraph`
 * or `upstream`) are not settings and are let through.
 */
function refuseMisspelt(present: readonly string[], settings: ReadonlySet<string>, options: { nearOnly: boolean }): void {
  const known = [...settings].map((name) => ({ name, key: squash(name) })).filter((s) => s.key.length >= 8);
  for (const name of present) {
    if (settings.has(name) || SERVICE_LINK.test(name) || name.startsWith('npm_')) continue;
    const key = squash(name);
    const near = known.filter((s) => Math.abs(s.key.length - key.length) <= 2 && editDistance(s.key, key) <= 2);
    const closest = near.sort((a, b) => editDistance(a.key, key) - editDistance(b.key, key))[0];
    if (closest === undefined && (options.nearOnly || !/^(UPSTREAM|NETGRAPH)_/i.test(name))) continue;
    throw new ConfigError(`${name} is not a setting of this gateway${closest ? `; did you mean ${closest.name}?` : ''} (see the configuration table in README.md)`);
  }
}

const SERVICE_LINK = /^[A-Z][A-Z\d_]*_(?:SERVICE_HOST|SERVICE_PORT(?:_[A-Z\d_]+)?|PORT(?:_\d+_(?:TCP|UDP|SCTP)(?:_(?:PROTO|PORT|ADDR))?)?)$/;

function squash(name: string): string {
  return name.toUpperCase().replace(/[_.-]/g, '');
}

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const d = new Uint16Array((a.length + 1) * width);
  const at = (i: number, j: number): number => d[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i += 1) d[i * width] = i;
  for (let j = 0; j <= b.length; j += 1) d[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * width + j] = v;
    }
  }
  return at(a.length, b.length);
}

/** `REDIS_URL`, checked without ever echoing its password. */
function redisUrl(env: Env): string | null {
  const value = read(env, 'REDIS_URL');
  if (value === undefined) return null;
  const bad = (why: string): ConfigError => new ConfigError(`REDIS_URL must be a redis:// or rediss:// URL with a host${why}`);
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw bad('');
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') throw bad(`; got the scheme ${JSON.stringify(parsed.protocol)}`);
  if (parsed.hostname === '') throw bad('');
  if (parsed.search || parsed.hash) throw bad(', without a query string or fragment');
  const db = parsed.pathname.replace(/^\//, '');
  if (db !== '' && !/^\d{1,5}$/.test(db)) throw bad(`, and a database number as its path; got ${JSON.stringify(db)}`);
  return parsed.href;
}

/** `FLEET_TOKEN_KEY`: 32 bytes, hex or base64. */
function tokenKey(env: Env): Buffer | null {
  const value = read(env, 'FLEET_TOKEN_KEY');
  if (value === undefined) return null;
  const key = /^[0-9a-f]{64}$/i.test(value) ? Buffer.from(value, 'hex') : /^[A-Za-z0-9+/_-]{43}=?$/.test(value) ? Buffer.from(value, 'base64') : null;
  // The key itself is never echoed.
  if (key === null || key.length !== 32) throw new ConfigError('FLEET_TOKEN_KEY must be 32 bytes: 64 hex digits, or 44 characters of base64');
  return key;
}

function fleet(env: Env, maxPollers: number, maxProvisionings: number): FleetConfig {
  const quota = int(env, 'CALLER_UPSTREAM_CALLS_PER_MINUTE', 0, 1, 100_000_000);
  return {
    redisUrl: redisUrl(env),
    tokenKey: tokenKey(env),
    maxPollersPerCaller: int(env, 'MAX_POLLERS_PER_CALLER', defaultShare(maxPollers), 1, maxPollers),
    maxProvisioningsPerCaller: int(env, 'MAX_PROVISIONINGS_PER_CALLER', defaultShare(maxProvisionings), 1, maxProvisionings),
    provisioningsRetained: int(env, 'PROVISIONINGS_RETAINED', Math.max(1000, maxProvisionings), maxProvisionings, 1_000_000),
    callerUpstreamCallsPerMinute: quota === 0 ? null : quota,
    apqTtlSeconds: int(env, 'APQ_TTL_SECONDS', 86_400, 1, 30 * 86_400),
  };
}

function upstreamCache(env: Env): UpstreamCacheConfig {
  return {
    sharing: oneOf(env, 'UPSTREAM_SHARING', ['on', 'off'] as const, 'on') === 'on',
    maxBytes: int(env, 'UPSTREAM_CACHE_MAX_BYTES', 64 * 1024 * 1024, 0, 16 * 1024 * 1024 * 1024),
    ttls: cacheTtls(env),
    staleIfErrorSeconds: int(env, 'UPSTREAM_CACHE_STALE_IF_ERROR_SECONDS', 0, 0, 7 * 86_400),
  };
}

/** `UPSTREAM_CACHE_TTLS`: `kind=seconds` pairs, comma separated. */
function cacheTtls(env: Env): ReadonlyMap<string, number> {
  const value = read(env, 'UPSTREAM_CACHE_TTLS');
  const ttls = new Map<string, number>();
  if (value === undefined) return ttls;
  for (const pair of value.split(',')) {
    const match = /^\s*([A-Za-z][A-Za-z0-9-]*)\s*=\s*(\d{1,7})\s*$/.exec(pair);
    if (match === null || match[1] === undefined || match[2] === undefined) {
      throw new ConfigError(`UPSTREAM_CACHE_TTLS must be kind=seconds pairs separated by commas (e.g. dataCenters=300,geoRegions=300); got ${JSON.stringify(pair.trim())}`);
    }
    ttls.set(match[1], Number(match[2]));
  }
  return ttls;
}

function upstreamResilience(env: Env): UpstreamResilience {
  const windowMs = int(env, 'UPSTREAM_BREAKER_WINDOW_MS', 10_000, 1000, MAX_MS);
  return {
    breaker: {
      consecutiveFailures: int(env, 'UPSTREAM_BREAKER_FAILURES', 10, 1, 100_000),
      failureRatio: int(env, 'UPSTREAM_BREAKER_FAILURE_PERCENT', 75, 1, 100) / 100,
      minimumCalls: int(env, 'UPSTREAM_BREAKER_MIN_CALLS', 20, 1, 100_000),
      windowMs,
      openMs: int(env, 'UPSTREAM_BREAKER_PROBE_MS', 1000, 1, MAX_MS),
    },
    retryBudget: {
      ratio: int(env, 'UPSTREAM_RETRY_BUDGET_PERCENT', 20, 0, 100) / 100,
      minPerSecond: int(env, 'UPSTREAM_RETRY_BUDGET_MIN_PER_SECOND', 1, 0, 10_000),
      windowMs,
    },
  };
}

/** Read and validate the configuration (from `process.env` unless given another map). */
export function loadConfig(env: Env = process.env): Config {
  // Every variable is read on every load, even one that ends up unused: the names read are the
  // settings, and anything close to one of them is a misspelling (refuseMisspelt).
  const names = new Set<string>();
  const recorded = new Proxy(env, {
    get(target, name) {
      if (typeof name === 'string') names.add(name);
      return Reflect.get(target, name);
    },
  });
  let config: Config;
  try {
    config = readConfig(recorded);
  } catch (error) {
    // A misspelling explains a later error best (UPSTREAM_BASE_URL must be set…); names not read
    // yet are not all known, so only near misses count here.
    refuseMisspelt(Object.keys(env), names, { nearOnly: true });
    throw error;
  }
  refuseMisspelt(Object.keys(env), names, { nearOnly: false });
  return config;
}

function readConfig(env: Env): Config {
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const pollIntervalMs = int(env, 'POLL_INTERVAL_MS', 2000, 1, MAX_MS);
  const pollMaxIntervalMs = int(env, 'POLL_MAX_INTERVAL_MS', Math.max(15_000, pollIntervalMs), 1, MAX_MS);
  if (pollMaxIntervalMs < pollIntervalMs) throw new ConfigError(`POLL_MAX_INTERVAL_MS must be at least POLL_INTERVAL_MS (${pollIntervalMs}); got ${pollMaxIntervalMs}`);
  const networkPollIntervalMs = int(env, 'NETWORK_POLL_INTERVAL_MS', 2000, 1, MAX_MS);
  const networkPollMaxIntervalMs = int(env, 'NETWORK_POLL_MAX_INTERVAL_MS', Math.max(30_000, networkPollIntervalMs), 1, MAX_MS);
  if (networkPollMaxIntervalMs < networkPollIntervalMs) {
    throw new ConfigError(`NETWORK_POLL_MAX_INTERVAL_MS must be at least NETWORK_POLL_INTERVAL_MS (${networkPollIntervalMs}); got ${networkPollMaxIntervalMs}`);
  }
  const maxPollers = int(env, 'MAX_POLLERS', 1000, 1, 1_000_000);
  const maxProvisionings = int(env, 'MAX_PROVISIONINGS', 100, 1, 10_000);
  if (/\s|\//.test(host)) throw new ConfigError(`HOST must be a host name or IP address; got ${JSON.stringify(host)}`);
  return {
    upstreamBaseUrl: upstream(env, host),
    probeCacheMs: int(env, 'PROBE_CACHE_MS', 2000, 0, 60_000),
    introspection: oneOf(env, 'INTROSPECTION', ['on', 'off'] as const, 'on') === 'on',
    searchUrl: url(env, 'SEARCH_URL'),
    searchCredentials: credentials(env),
    port: int(env, 'PORT', 4000, 0, 65535),
    host,
    connectTimeoutMs: int(env, 'UPSTREAM_CONNECT_TIMEOUT_MS', 5000, 1, MAX_MS),
    headersTimeoutMs: int(env, 'UPSTREAM_HEADERS_TIMEOUT_MS', 10_000, 1, MAX_MS),
    bodyTimeoutMs: int(env, 'UPSTREAM_BODY_TIMEOUT_MS', 10_000, 1, MAX_MS),
    retryAttempts: int(env, 'UPSTREAM_RETRY_ATTEMPTS', 3, 1, 10),
    retryBaseDelayMs: int(env, 'UPSTREAM_RETRY_BASE_MS', 50, 0, MAX_MS),
    retryMaxDelayMs: int(env, 'UPSTREAM_RETRY_MAX_DELAY_MS', 1000, 0, MAX_MS),
    retryAfterMaxMs: int(env, 'UPSTREAM_RETRY_AFTER_MAX_MS', 60_000, 0, MAX_MS),
    upstreamResilience: upstreamResilience(env),
    upstreamMaxBodyBytes: int(env, 'UPSTREAM_MAX_BODY_BYTES', 32 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    forwardTracestate: oneOf(env, 'UPSTREAM_FORWARD_TRACESTATE', ['on', 'off'] as const, 'off') === 'on',
    maxConcurrentPerRequest: int(env, 'UPSTREAM_MAX_CONCURRENCY', 64, 1, 256),
    upstreamCache: upstreamCache(env),
    executor: oneOf(env, 'NETGRAPH_EXECUTOR', ['jit', 'graphql-js'] as const, 'jit'),
    sandboxSeed: oneOf(env, 'SANDBOX_SEED', ['tiny', 'demo', 'large'] as const, 'demo'),
    development: read(env, 'NODE_ENV') === 'development',
    pollIntervalMs,
    pollMaxIntervalMs,
    networkPollIntervalMs,
    networkPollMaxIntervalMs,
    pollMaxErrors: int(env, 'POLL_MAX_ERRORS', 5, 1, 100),
    pollNotFoundGraceMs: int(env, 'POLL_NOT_FOUND_GRACE_MS', 10_000, 0, MAX_MS),
    maxSubscriptionsPerConnection: int(env, 'MAX_SUBSCRIPTIONS_PER_CONNECTION', 20, 1, 10_000),
    maxPollers,
    provisioningStepTimeoutMs: int(env, 'PROVISIONING_STEP_TIMEOUT_MS', 600_000, 1, 3_600_000),
    maxProvisionings,
    limits: limits(env),
    transport: transport(env),
    apq: oneOf(env, 'APQ', ['on', 'off'] as const, 'on') === 'on',
    trustedDocuments: trustedDocuments(env),
    tracing: tracing(env),
    mcpMutations: oneOf(env, 'MCP_MUTATIONS', ['none', 'listed', 'all'] as const, 'listed'),
    fleet: fleet(env, maxPollers, maxProvisionings),
  };
}
