/**
 * The auth tests' view of a running stack: C's `startStack()` (sandbox + gateway on real sockets,
 * 127.0.0.1, port 0) with the demo seed, a caller chosen by name, and the sandbox's call log.
 * `expectResult` prints the query and the whole response when an expectation on it fails.
 */
import type { GraphQLFormattedError } from 'graphql';
import type { CallCounts, RunningSandbox } from '../../../src/sandbox';
import { isObject } from '../../../src/core/parse';
import { startStack } from '../../helpers/stack';

export type Who = 'admin' | 'reader' | 'nobody' | null;

export interface GqlResult {
  status: number;
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

export async function startAuthStack(options: { batching?: boolean } = {}): Promise<AuthStack> {
  const stack = await startStack({ seed: 'demo', stepMs: 20, gatewayOptions: { loaderOptions: { batching: options.batching ?? true } } });
  return {
    sandbox: stack.sandbox,
    async gql(query, variables, who = 'admin') {
      const token = who === null ? null : stack.tokens[who];
      const { status, body } = await stack.gql(query, variables, { token });
      return { status, data: body.data ?? null, ...(body.errors ? { errors: body.errors } : {}) };
    },
    calls: () => stack.sandbox.control.calls(),
    resetCalls: () => stack.sandbox.control.resetCalls(),
    close: () => stack.close(),
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

/** A list in a response, or [] when the value is not a list. */
export function listAt(value: unknown, ...keys: Array<string | number>): unknown[] {
  const v = at(value, ...keys);
  return Array.isArray(v) ? v : [];
}
