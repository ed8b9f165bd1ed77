/**
 * The network tests' stack: the sandbox on a real socket (127.0.0.1, port 0) and the gateway's
 * schema, resolvers, context and HTTP layer executing each operation. Prints the query and the
 * whole response when an expectation on it fails (`expectResult`).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { graphql, type GraphQLFormattedError } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { startSandbox, type RunningSandbox, type CallCounts, type SeedSize } from '../../../src/sandbox';
import { createHttpLayer } from '../../../src/upstream/http';
import { createContext } from '../../../src/context';
import { resolvers } from '../../../src/resolvers';
import { formatError } from '../../../src/errors/format-error';
import { isObject } from '../../../src/upstream/parse';

export type Who = 'admin' | 'reader' | 'nobody';

export interface GqlResult {
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
}

export interface NetworkStack {
  sandbox: RunningSandbox;
  gql(query: string, variables?: Record<string, unknown>, who?: Who): Promise<GqlResult>;
  /** Upstream calls per route since the last `resetCalls`. */
  calls(): CallCounts;
  resetCalls(): void;
  close(): Promise<void>;
}

const root = join(__dirname, '../../..');
const typeDefs = readdirSync(join(root, 'schema'))
  .filter((f) => f.endsWith('.graphql'))
  .map((f) => readFileSync(join(root, 'schema', f), 'utf8'));
const schema = makeExecutableSchema({ typeDefs, resolvers });

export interface StackOptions {
  seed?: SeedSize;
  batching?: boolean;
  /** GET attempts per call (1 = no retry). */
  attempts?: number;
  /** Send upstream calls here instead of the sandbox (a closed port, a custom upstream). */
  upstreamBaseUrl?: string;
}

export async function startNetworkStack(options: StackOptions = {}): Promise<NetworkStack> {
  const sandbox = await startSandbox({ seed: options.seed ?? 'tiny', stepMs: 20 });
  const http = createHttpLayer({
    upstreamBaseUrl: options.upstreamBaseUrl ?? sandbox.baseUrl,
    searchUrl: null,
    searchCredentials: null,
    timeouts: { connectMs: 2000, headersMs: 5000, bodyMs: 5000 },
    retry: { attempts: options.attempts ?? 1, baseDelayMs: 5, maxDelayMs: 10, maxRetryAfterMs: 10 },
    maxConcurrentPerRequest: 8,
  });
  const batching = options.batching ?? true;
  return {
    sandbox,
    async gql(query, variables, who = 'admin') {
      const token = `Bearer ${sandbox.tokens[who]}`;
      const signal = new AbortController().signal;
      const contextValue = createContext({
        http: http.forCaller({ authorization: token, signal, calls: { count: 0 } }),
        options: { batching },
        signal,
        authenticated: true,
        calls: { count: 0 },
        gateway: { info: { version: 'test', sandbox: true, batching, searchConfigured: false }, probeUpstreams: async () => [] },
      });
      const result = await graphql({ schema, source: query, variableValues: variables ?? null, contextValue });
      const errors = result.errors?.map((e) => formatError(e.toJSON(), e, { development: true }));
      return { data: result.data ?? null, ...(errors ? { errors } : {}) };
    },
    calls: () => sandbox.control.calls(),
    resetCalls: () => sandbox.control.resetCalls(),
    async close() {
      await http.close();
      await sandbox.close();
    },
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
