/**
 * The gateway's configuration: the only module that reads `process.env`. Every variable is
 * validated at start-up; a bad value throws ConfigError with a one-line message naming it.
 */
import { DEFAULT_LIMITS, type Limits } from './limits/limits';
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

export interface Config {
  /**
   * `UPSTREAM_BASE_URL`: the platform's `{base_url}` (auth at `/auth/v1`, network management at
   * `/rest/v1`, identity at `/identity/v1`, management at `/core/v2`).
   * @default null — run the embedded sandbox upstream in-process
   */
  upstreamBaseUrl: string | null;
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
  /** `UPSTREAM_RETRY_AFTER_MAX_MS`: longest `Retry-After` the gateway waits for; a longer one ends the retries. @default 5000 */
  retryAfterMaxMs: number;
  /** `UPSTREAM_MAX_CONCURRENCY`: upstream calls one GraphQL request may have in flight at once (1..256); as many as the connection pool keeps per origin, so one level of a large graph goes out in one wave. @default 64 */
  maxConcurrentPerRequest: number;
  /**
   * `NETGRAPH_BATCHING`: `on` or `off`. Off disables DataLoader batching and caching and the
   * cheaper relationship plans; it exists for the benchmark's comparison.
   * @default true (`on`)
   */
  batching: boolean;
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
  /** `APQ`: `on`/`off`: automatic persisted queries (Apollo's in-memory cache, documents by SHA-256). @default true */
  apq: boolean;
  /**
   * `TRUSTED_DOCUMENTS`: path of a persisted-operations manifest (Apollo's manifest format or a
   * `{ sha256: document }` map), loaded at start-up; `TRUSTED_DOCUMENTS_ONLY` (`on`/`off`, default
   * `on`): only its operations run. @default null — no manifest, every document may run
   */
  trustedDocuments: { path: string; only: boolean } | null;
  /**
   * `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` (the full URL spans are POSTed to), or
   * `OTEL_EXPORTER_OTLP_ENDPOINT` (its `/v1/traces` is used), as in the OpenTelemetry spec; the
   * first wins. `OTEL_SERVICE_NAME` names the service on every span (default `netgraph`).
   * OTLP/HTTP with JSON bodies (src/tracing/README.md).
   * @default null — no tracing at all
   */
  tracing: { tracesUrl: string; serviceName: string } | null;
  /** Shared state for a fleet of replicas, and per-caller shares (src/state/README.md). */
  fleet: FleetConfig;
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
    },
  };
}

function tracing(env: Env): Config['tracing'] {
  const traces = url(env, 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT');
  const base = url(env, 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const serviceName = read(env, 'OTEL_SERVICE_NAME') ?? 'netgraph';
  if (!/^[\w.-]{1,128}$/.test(serviceName)) throw new ConfigError(`OTEL_SERVICE_NAME must be 1-128 letters, digits, '.', '_' or '-'; got ${JSON.stringify(serviceName)}`);
  const tracesUrl = traces ?? (base !== null ? `${base}/v1/traces` : null);
  return tracesUrl === null ? null : { tracesUrl, serviceName };
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

/** Read and validate the configuration (from `process.env` unless given another map). */
export function loadConfig(env: Env = process.env): Config {
  const host = read(env, 'HOST') ?? '127.0.0.1';
  const pollIntervalMs = int(env, 'POLL_INTERVAL_MS', 2000, 1, MAX_MS);
  const pollMaxIntervalMs = int(env, 'POLL_MAX_INTERVAL_MS', Math.max(15_000, pollIntervalMs), 1, MAX_MS);
  if (pollMaxIntervalMs < pollIntervalMs) throw new ConfigError(`POLL_MAX_INTERVAL_MS must be at least POLL_INTERVAL_MS (${pollIntervalMs}); got ${pollMaxIntervalMs}`);
  const maxPollers = int(env, 'MAX_POLLERS', 1000, 1, 1_000_000);
  const maxProvisionings = int(env, 'MAX_PROVISIONINGS', 100, 1, 10_000);
  if (/\s|\//.test(host)) throw new ConfigError(`HOST must be a host name or IP address; got ${JSON.stringify(host)}`);
  return {
    upstreamBaseUrl: url(env, 'UPSTREAM_BASE_URL'),
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
    retryAfterMaxMs: int(env, 'UPSTREAM_RETRY_AFTER_MAX_MS', 5000, 0, MAX_MS),
    maxConcurrentPerRequest: int(env, 'UPSTREAM_MAX_CONCURRENCY', 64, 1, 256),
    batching: oneOf(env, 'NETGRAPH_BATCHING', ['on', 'off'] as const, 'on') === 'on',
    executor: oneOf(env, 'NETGRAPH_EXECUTOR', ['jit', 'graphql-js'] as const, 'jit'),
    sandboxSeed: oneOf(env, 'SANDBOX_SEED', ['tiny', 'demo', 'large'] as const, 'demo'),
    development: read(env, 'NODE_ENV') === 'development',
    pollIntervalMs,
    pollMaxIntervalMs,
    pollMaxErrors: int(env, 'POLL_MAX_ERRORS', 5, 1, 100),
    pollNotFoundGraceMs: int(env, 'POLL_NOT_FOUND_GRACE_MS', 10_000, 0, MAX_MS),
    maxSubscriptionsPerConnection: int(env, 'MAX_SUBSCRIPTIONS_PER_CONNECTION', 20, 1, 10_000),
    maxPollers,
    provisioningStepTimeoutMs: int(env, 'PROVISIONING_STEP_TIMEOUT_MS', 600_000, 1, 3_600_000),
    maxProvisionings,
    limits: limits(env),
    apq: oneOf(env, 'APQ', ['on', 'off'] as const, 'on') === 'on',
    trustedDocuments: trustedDocuments(env),
    tracing: tracing(env),
    fleet: fleet(env, maxPollers, maxProvisionings),
  };
}
