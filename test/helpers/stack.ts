/**
 * Integration-test kit: the sandbox upstream and the gateway on real sockets (127.0.0.1, port 0),
 * a `gql` caller, and assertions that print the query and the whole response when they fail.
 *
 *   const stack = await startStack({ seed: 'tiny' });
 *   afterAll(() => stack.close());
 *   const res = await stack.gql('{ networkGroups { totalCount } }');
 *   expectNoErrors(res);
 */
import { loadConfig, type Config } from '../../src/config';
import { startSandbox, type Clock, type RunningSandbox, type SeedSize } from '../../src/sandbox';
import { startGateway, type RunningGateway, type StartGatewayOptions } from '../../src/server';

export interface StackOptions {
  /** Sandbox data set. @default 'tiny' */
  seed?: SeedSize;
  /** Length of one asynchronous sandbox step in ms. @default 50 */
  stepMs?: number;
  /** Drive the sandbox's asynchronous progress (e.g. a ManualClock: `clock.advance()` moves one step); overrides `stepMs`. */
  clock?: Clock;
  /** Gateway options (sandbox is filled in). */
  gatewayOptions?: Omit<StartGatewayOptions, 'sandbox'>;
  /** Overrides of the gateway configuration (defaults: port 0, fast retries, short timeouts). */
  config?: ConfigOverrides;
}

export interface GqlResponseBody {
  data?: Record<string, unknown> | null;
  errors?: Array<{ message: string; path?: ReadonlyArray<string | number>; extensions?: Record<string, unknown> }>;
}

export interface GqlResult {
  status: number;
  body: GqlResponseBody;
  /** What was sent, for failure messages. */
  request: { query: string; variables?: Record<string, unknown> | undefined };
}

export interface GqlOptions {
  /** Bearer token; `null` sends no Authorization header. @default the sandbox admin token */
  token?: string | null;
  /** Extra request headers. */
  headers?: Record<string, string>;
  operationName?: string;
}

export interface Stack {
  /** `http://127.0.0.1:<port>/graphql` */
  gatewayUrl: string;
  /** `ws://127.0.0.1:<port>/graphql` */
  wsUrl: string;
  /** `http://127.0.0.1:<port>/graphql/stream` (subscriptions over SSE) */
  streamUrl: string;
  /** The gateway's running shared pollers and their subscribers. */
  pollerStats(): { pollers: number; subscribers: number };
  /** Where the gateway serves `/metrics` (its own port with `METRICS_PORT`). */
  metricsUrl: string;
  /** The gateway's open WebSockets and the bytes they hold unsent. */
  wsStats(): ReturnType<RunningGateway['wsStats']>;
  /** The gateway's event-stream reservations, open streams and serialized results. */
  sseStats(): ReturnType<RunningGateway['sseStats']>;
  /** Origin of the gateway (for /healthz etc.). */
  origin: string;
  sandbox: RunningSandbox;
  tokens: { admin: string; reader: string; nobody: string };
  /** Every request log line the gateway wrote. */
  logs: string[];
  gql(query: string, variables?: Record<string, unknown>, options?: GqlOptions): Promise<GqlResult>;
  close(): Promise<void>;
}

/**
 * The one way tests start a gateway in this process: on port 0 with `testConfig(overrides)`,
 * no request log unless `options.log` asks for one. `startStack` uses it with the sandbox;
 * a test with its own upstream (a scripted one, a proxy) calls it directly.
 */
export function startTestGateway(overrides: ConfigOverrides = {}, options: StartGatewayOptions = {}): Promise<RunningGateway> {
  return startGateway(testConfig(overrides), { log: null, ...options });
}

/** Settings a test changes, slice by slice; the rest of each slice stays as `testConfig` has it. */
export type ConfigOverrides = { readonly [A in keyof Config]?: Partial<Config[A]> };

/** Gateway configuration for tests: fast retries so fault tests stay quick. */
export function testConfig(overrides: ConfigOverrides = {}): Config {
  const loaded = loadConfig({ NETGRAPH_EXECUTOR: process.env['NETGRAPH_EXECUTOR'] });
  // The executor comes from the environment: `npm test` runs the integration suites on both.
  const base: Config = {
    ...loaded,
    server: { ...loaded.server, port: 0, host: '127.0.0.1' },
    upstream: { ...loaded.upstream, retryBaseDelayMs: 5, retryMaxDelayMs: 20, retryAfterMaxMs: 1000, connectTimeoutMs: 2000, headersTimeoutMs: 5000, bodyTimeoutMs: 5000 },
    // A verdict, accepted or refused, lasts the whole suite: call counts and the verdicts a test
    // reads never depend on how long a loaded machine took between two steps.
    callers: { ...loaded.callers, verifyTtlMs: 3_600_000, refusedTtlMs: 600_000 },
    // A loaded machine is slow, not failing: no attempt counts as slow against its API's breaker
    // (UPSTREAM_SLOW_CALL_MS) unless a test asks for it.
    resilience: { ...loaded.resilience, slowCallMs: 0 },
  };
  return withOverrides(base, overrides);
}

/** `base` with each slice's overrides laid over it (every slice listed: a new area fails to compile here). */
export function withOverrides(base: Config, overrides: ConfigOverrides): Config {
  return {
    server: { ...base.server, ...overrides.server },
    upstream: { ...base.upstream, ...overrides.upstream },
    resilience: { ...base.resilience, ...overrides.resilience },
    cache: { ...base.cache, ...overrides.cache },
    callers: { ...base.callers, ...overrides.callers },
    documents: { ...base.documents, ...overrides.documents },
    limits: { ...base.limits, ...overrides.limits },
    transports: { ...base.transports, ...overrides.transports },
    subscriptions: { ...base.subscriptions, ...overrides.subscriptions },
    provisioning: { ...base.provisioning, ...overrides.provisioning },
    idempotency: { ...base.idempotency, ...overrides.idempotency },
    fleet: { ...base.fleet, ...overrides.fleet },
    mcp: { ...base.mcp, ...overrides.mcp },
    telemetry: { ...base.telemetry, ...overrides.telemetry },
  };
}

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const sandbox = await startSandbox({ port: 0, seed: options.seed ?? 'tiny', stepMs: options.stepMs ?? 50, ...(options.clock ? { clock: options.clock } : {}) });
  const logs: string[] = [];
  let gateway: RunningGateway;
  try {
    gateway = await startTestGateway({ ...options.config, upstream: { baseUrl: null, ...options.config?.upstream } }, {
      log: (line) => logs.push(line),
      ...options.gatewayOptions,
      sandbox,
    });
  } catch (error) {
    await sandbox.close();
    throw error;
  }
  // The demo tokens are verified once now (the platform's identity check, cached): tests that count
  // the upstream calls of what they ask see only those calls. Not when the test put another
  // upstream (a closed port, a fake) in the sandbox's place: that one may not answer the check.
  if ((options.config?.upstream?.baseUrl ?? null) === null) await Promise.all(Object.values(sandbox.tokens).map((token) => gateway.verifier.verify(`Bearer ${token}`)));
  sandbox.control.resetCalls();
  let closing: Promise<void> | null = null;
  return {
    gatewayUrl: gateway.url,
    wsUrl: gateway.wsUrl,
    streamUrl: gateway.streamUrl,
    pollerStats: () => gateway.pollerStats(),
    wsStats: () => gateway.wsStats(),
    sseStats: () => gateway.sseStats(),
    metricsUrl: gateway.metricsUrl,
    origin: new URL(gateway.url).origin,
    sandbox,
    tokens: sandbox.tokens,
    logs,
    gql: (query, variables, gqlOptions = {}) => postGraphQL(gateway.url, query, variables, { token: sandbox.tokens.admin, ...gqlOptions }),
    close() {
      // Idempotent, so a test may close early and its afterAll/finally still close safely.
      closing ??= (async () => {
        await gateway.close();
        await sandbox.close();
      })();
      return closing;
    },
  };
}

/** POST one GraphQL request as a JSON body. */
export async function postGraphQL(url: string, query: string, variables: Record<string, unknown> | undefined, options: GqlOptions = {}): Promise<GqlResult> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', ...options.headers };
  if (options.token) headers['authorization'] = `Bearer ${options.token}`;
  const res = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ query, ...(variables ? { variables } : {}), ...(options.operationName ? { operationName: options.operationName } : {}) }),
  });
  const text = await res.text();
  const body = toResponseBody(text);
  if (!body) throw new Error(`gateway answered ${res.status} with a body that is not a GraphQL response:\n${text}\nquery:\n${query}`);
  return { status: res.status, body, request: { query, variables } };
}

function toResponseBody(text: string): GqlResponseBody | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { data, errors } = parsed as { data?: unknown; errors?: unknown };
  if (data !== undefined && data !== null && (typeof data !== 'object' || Array.isArray(data))) return null;
  if (errors !== undefined && !Array.isArray(errors)) return null;
  // Shape checked above: an object with an optional data object and an optional errors array.
  return parsed as GqlResponseBody;
}

function describe(result: GqlResult): string {
  const vars = result.request.variables ? `\nvariables: ${JSON.stringify(result.request.variables)}` : '';
  return `query:\n${result.request.query.trim()}${vars}\nresponse (HTTP ${result.status}):\n${JSON.stringify(result.body, null, 2)}`;
}

/** Fails, printing query and response, unless the request succeeded without errors. Returns `data`. */
export function expectNoErrors(result: GqlResult): Record<string, unknown> {
  if (result.status !== 200 || (result.body.errors?.length ?? 0) > 0 || !result.body.data) {
    throw new Error(`expected no errors\n${describe(result)}`);
  }
  return result.body.data;
}

/**
 * Fails, printing query and response, unless an error with `code` sits at `path`
 * (e.g. `['networkGroup', 'networks']`). Returns that error.
 */
export function expectErrorAt(result: GqlResult, path: ReadonlyArray<string | number>, code: string): NonNullable<GqlResponseBody['errors']>[number] {
  const match = result.body.errors?.find((e) => JSON.stringify(e.path ?? []) === JSON.stringify(path) && e.extensions?.['code'] === code);
  if (!match) throw new Error(`expected a ${code} error at ${JSON.stringify(path)}\n${describe(result)}`);
  return match;
}

/** Fails, printing query and response, unless some error carries `code`. Returns the first. */
export function expectErrorCode(result: GqlResult, code: string): NonNullable<GqlResponseBody['errors']>[number] {
  const match = result.body.errors?.find((e) => e.extensions?.['code'] === code);
  if (!match) throw new Error(`expected an error with code ${code}\n${describe(result)}`);
  return match;
}

/** Read a value at a path of `data` (e.g. `['networkGroups', 'nodes', 0, 'name']`), printing the response when absent. */
export function dataAt(result: GqlResult, path: ReadonlyArray<string | number>): unknown {
  let value: unknown = result.body.data;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) throw new Error(`no data at ${JSON.stringify(path)}\n${describe(result)}`);
    value = (value as Record<string | number, unknown>)[key];
  }
  return value;
}
