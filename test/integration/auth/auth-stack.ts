/**
 * The auth tests' view of a running stack (sandbox + gateway), so the tests read the same
 * whichever harness starts it. Prints the query and the whole response when an expectation on
 * it fails (see `expectData`).
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { graphql, type GraphQLFormattedError } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { startSandbox, type RunningSandbox, type CallCounts } from '../../../src/sandbox';
import { createHttpLayer } from '../../../src/upstream/http';
import { createContext } from '../../../src/context';
import { resolvers } from '../../../src/resolvers';
import { formatError } from '../../../src/errors/format-error';
import { isObject } from '../../../src/upstream/parse';

export type Who = 'admin' | 'reader' | 'nobody' | null;

export interface GqlResult {
  data?: Record<string, unknown> | null;
  errors?: GraphQLFormattedError[];
}

export interface AuthStack {
  sandbox: RunningSandbox;
  gql(query: string, variables?: Record<string, unknown>, who?: Who): Promise<GqlResult>;
  /** Upstream calls per route since the last `resetCalls`. */
  calls(): CallCounts;
  resetCalls(): void;
  close(): Promise<void>;
}

const root = join(__dirname, '../../..');

export async function startAuthStack(options: { batching?: boolean } = {}): Promise<AuthStack> {
  const sandbox = await startSandbox({ seed: 'demo', stepMs: 20 });
  const http = createHttpLayer({
    upstreamBaseUrl: sandbox.baseUrl,
    searchUrl: null,
    searchCredentials: null,
    timeouts: { connectMs: 2000, headersMs: 5000, bodyMs: 5000 },
    retry: { attempts: 1, baseDelayMs: 10, maxDelayMs: 10, maxRetryAfterMs: 10 },
    maxConcurrentPerRequest: 8,
  });
  const typeDefs = readdirSync(join(root, 'schema'))
    .filter((f) => f.endsWith('.graphql'))
    .map((f) => readFileSync(join(root, 'schema', f), 'utf8'));
  const schema = makeExecutableSchema({ typeDefs, resolvers });
  const batching = options.batching ?? true;
  return {
    sandbox,
    async gql(query, variables, who = 'admin') {
      const token = who === null ? undefined : `Bearer ${sandbox.tokens[who]}`;
      const signal = new AbortController().signal;
      const calls = { count: 0 };
      const contextValue = createContext({
        http: http.forCaller({ authorization: token, signal, calls }),
        options: { batching },
        signal,
        authenticated: token !== undefined,
        calls,
        gateway: {
          info: { version: 'test', sandbox: true, batching, searchConfigured: false },
          probeUpstreams: async () => [],
        },
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
    const detail = `\n--- query ---\n${query}\n--- response ---\n${JSON.stringify(result, null, 2)}`;
    if (error instanceof Error) error.message += detail;
    throw error;
  }
}

/** The `extensions.code` of the error at a response path (e.g. `superUsers`), or undefined. */
export function errorCodeAt(result: GqlResult, path: string): unknown {
  return result.errors?.find((e) => (e.path ?? []).join('.') === path)?.extensions?.['code'];
}

/** Reads a nested value of a response without casts (`at(data, 'domain', 'resourceTypes')`). */
export function at(value: unknown, ...keys: Array<string | number>): unknown {
  let v = value;
  for (const key of keys) {
    v = Array.isArray(v) ? v[Number(key)] : isObject(v) ? v[String(key)] : undefined;
  }
  return v;
}
