/**
 * The network tests' view of C's `startStack()`: the sandbox and the gateway on real sockets
 * (127.0.0.1, port 0), one caller identity per request, results as `{ data, errors }`, and the
 * sandbox's call log. Prints the query and the whole response when an expectation on it fails
 * (`expectResult`).
 */
import type { GraphQLFormattedError } from 'graphql';
import type { RunningSandbox, CallCounts, SeedSize } from '../../../src/sandbox';
import { isObject } from '../../../src/core/parse';
import { postGraphQL, startStack, startTestGateway } from '../../helpers/stack';

export type Who = 'admin' | 'reader' | 'nobody';

export interface GqlResult {
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<Pick<GraphQLFormattedError, 'message' | 'path' | 'extensions'>>;
}

export interface NetworkStack {
  sandbox: RunningSandbox;
  gql(query: string, variables?: Record<string, unknown>, who?: Who): Promise<GqlResult>;
  /** Upstream calls per route since the last `resetCalls`. */
  calls(): CallCounts;
  resetCalls(): void;
  close(): Promise<void>;
}

export interface StackOptions {
  seed?: SeedSize;
  batching?: boolean;
  /** GET attempts per call (1 = no retry). */
  attempts?: number;
  /** Send upstream calls here instead of the sandbox (a closed port, a custom upstream). */
  upstreamBaseUrl?: string;
}

export async function startNetworkStack(options: StackOptions = {}): Promise<NetworkStack> {
  const stack = await startStack({
    seed: options.seed ?? 'tiny',
    stepMs: 20,
    gatewayOptions: { loaderOptions: { batching: options.batching ?? true } },
    config: {
      upstream: { retryAttempts: options.attempts ?? 1, ...(options.upstreamBaseUrl === undefined ? {} : { baseUrl: options.upstreamBaseUrl }) },
    },
  });
  const { sandbox } = stack;
  return {
    sandbox,
    async gql(query, variables, who = 'admin') {
      // Non-200 answers (a literal that fails validation is HTTP 400) still carry a GraphQL body.
      const result = await stack.gql(query, variables, { token: sandbox.tokens[who] });
      return result.body;
    },
    calls: () => sandbox.control.calls(),
    resetCalls: () => sandbox.control.resetCalls(),
    close: () => stack.close(),
  };
}

/** Runs `check` on the result; on failure, the message shows the query and the whole response. */
export function expectResult(query: string, result: GqlResult, check: (r: GqlResult) => void): void {
  try {
    check(result);
  } catch (error) {
    if (error instanceof Error) error.message += `\n--- query ---\n${query}\n--- response ---\n${JSON.stringify(result, null, 2)}`;
    throw error;
  }
}

/** The `extensions.code` of the error at a response path (e.g. `hosts`), or undefined. */
export function errorCodeAt(result: GqlResult, path: string): unknown {
  return result.errors?.find((e) => (e.path ?? []).join('.') === path)?.extensions?.['code'];
}

/** Reads a nested value of a response without casts (`at(data, 'network', 'endpoints')`). */
export function at(value: unknown, ...keys: Array<string | number>): unknown {
  let v = value;
  for (const key of keys) v = Array.isArray(v) ? v[Number(key)] : isObject(v) ? v[String(key)] : undefined;
  return v;
}

/** Calls of the routes under `/rest/v1` (and identity) only, keyed `GET /rest/v1/...`. */
export function restCalls(counts: CallCounts): Record<string, number> {
  return Object.fromEntries(Object.entries(counts.byRoute).filter(([k]) => k.includes('/rest/v1') || k.includes('/identity/v1')));
}

/** A second gateway on the same sandbox (e.g. batching off next to batching on), for comparing answers. */
export interface ExtraGateway {
  gql(query: string, variables?: Record<string, unknown>): Promise<GqlResult>;
  close(): Promise<void>;
}

export interface ExtraGatewayOptions {
  /** Loaders batch and cache (the benchmark's baseline turns it off). @default true */
  batching?: boolean;
  /** Send upstream calls here instead of the sandbox. */
  upstreamBaseUrl?: string;
}

export async function startExtraGateway(sandbox: RunningSandbox, options: ExtraGatewayOptions = {}): Promise<ExtraGateway> {
  const gateway = await startTestGateway({ upstream: { baseUrl: options.upstreamBaseUrl ?? null, retryAttempts: 1 } }, { sandbox, loaderOptions: { batching: options.batching ?? true } });
  return {
    gql: async (query, variables) => (await postGraphQL(gateway.url, query, variables, { token: sandbox.tokens.admin })).body,
    close: () => gateway.close(),
  };
}

/**
 * Ids of a rest/v1 list read straight from the sandbox (admin token, no gateway): the test's own
 * view of the upstream. Relation lists are not paginated; a paginated list must fit one page.
 * The sandbox logs these calls: read before `resetCalls`.
 */
export async function sandboxIds(sandbox: RunningSandbox, path: string): Promise<string[]> {
  const res = await fetch(`${sandbox.baseUrl}/rest/v1${path}?size=100000`, { headers: { authorization: `Bearer ${sandbox.tokens.admin}` } });
  if (res.status !== 200) throw new Error(`sandbox GET ${path}: ${res.status}`);
  const body: unknown = await res.json();
  const embedded = at(body, '_embedded');
  const list = isObject(embedded) ? Object.values(embedded).find(Array.isArray) : undefined;
  const totalPages = at(body, 'page', 'totalPages');
  if (typeof totalPages === 'number' && totalPages > 1) throw new Error(`sandbox GET ${path}: more than one page`);
  if (list === undefined) return [];
  return list.map((item: unknown) => String(at(item, 'id')));
}
