/**
 * The one place errors are formatted for clients, whatever the door: every error gets a code
 * (`extensions.code`), known errors keep theirs (src/errors), anything unexpected is masked to
 * INTERNAL_SERVER_ERROR (details in development only). An error may ask for an HTTP status and
 * headers (`extensions.http`, as Apollo's errors do); they are lifted out of the body.
 */
import { GraphQLError, Kind, type GraphQLFormattedError } from 'graphql';
import { formatError as formatKnown } from '../errors/format-error';
import { toGraphQLError } from '../errors/to-graphql-error';

export interface FormattedErrors {
  formatted: GraphQLFormattedError[];
  /** A status one of the errors asked for. */
  status: number | undefined;
  headers: Array<[string, string]>;
}

export type ErrorFormatter = (errors: readonly unknown[]) => FormattedErrors;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * graphql-js's wording of a variable that does not coerce: BAD_USER_INPUT, as Apollo marks it
 * (its `isBadUserInputGraphQLError`), so every door gives the same code.
 */
export function isVariableError(error: GraphQLError): boolean {
  const node = error.nodes?.[0];
  if (error.nodes?.length !== 1 || node?.kind !== Kind.VARIABLE_DEFINITION) return false;
  const name = node.variable.name.value;
  return ['has invalid value', 'got invalid value ', 'of required type ', 'of non-null type '].some((words) => error.message.startsWith(`Variable "$${name}" ${words}`));
}

function isClientStatus(http: unknown): boolean {
  return isRecord(http) && typeof http['status'] === 'number' && http['status'] >= 400 && http['status'] < 500;
}

/** A GraphQLError for anything thrown, its code from src/errors when it is one of ours. */
function asGraphQLError(error: unknown): GraphQLError {
  if (error instanceof GraphQLError) return error;
  const known = toGraphQLError(error);
  if (known) return known;
  return new GraphQLError(error instanceof Error ? error.message : `Unexpected error value: ${String(error)}`, { originalError: error instanceof Error ? error : null });
}

export function createErrorFormatter(options: { development: boolean }): ErrorFormatter {
  const enrich = (error: GraphQLError, lifted: FormattedErrors): GraphQLFormattedError => {
    const extensions: Record<string, unknown> = { ...error.extensions };
    const http = extensions['http'];
    // No code of its own: a variable that does not coerce, or a request error asking for a 4xx (Apollo's
    // "provided sha does not match query") is the client's; anything else is ours.
    if (extensions['code'] === undefined) extensions['code'] = isVariableError(error) ? 'BAD_USER_INPUT' : isClientStatus(http) ? 'BAD_REQUEST' : 'INTERNAL_SERVER_ERROR';
    if (http !== undefined) {
      if (isRecord(http)) {
        if (typeof http['status'] === 'number' && http['status'] !== 0) lifted.status = http['status'];
        if (http['headers'] instanceof Map) for (const [name, value] of http['headers']) lifted.headers.push([String(name), String(value)]);
      }
      delete extensions['http'];
    }
    if (options.development) extensions['stacktrace'] = error.stack?.split('\n');
    return { ...error.toJSON(), extensions };
  };
  return (errors) => {
    const lifted: FormattedErrors = { formatted: [], status: undefined, headers: [] };
    for (const raw of errors) {
      const error = asGraphQLError(raw);
      try {
        lifted.formatted.push(formatKnown(enrich(error, lifted), error, options));
      } catch {
        lifted.formatted.push({ message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } });
      }
    }
    return lifted;
  };
}

/** The codes of formatted errors (log line, metrics). */
export function errorCodes(errors: readonly GraphQLFormattedError[] | undefined): string[] {
  return (errors ?? []).map((e) => (typeof e.extensions?.['code'] === 'string' ? e.extensions['code'] : 'UNKNOWN'));
}

/** Which limit each limit error names (`extensions.cost.limit`, `extensions.limit`): metrics. */
export function limitsOf(errors: readonly GraphQLFormattedError[] | undefined): Array<{ code: string; limit: string }> {
  const found: Array<{ code: string; limit: string }> = [];
  for (const e of errors ?? []) {
    const code = e.extensions?.['code'];
    const cost = e.extensions?.['cost'];
    const limit = code === 'COST_ESTIMATED_TOO_EXPENSIVE' && isRecord(cost) ? cost['limit'] : e.extensions?.['limit'];
    if (typeof code === 'string' && ['COST_ESTIMATED_TOO_EXPENSIVE', 'OPERATION_BUDGET_EXCEEDED', 'RATE_LIMITED'].includes(code) && typeof limit === 'string') found.push({ code, limit });
  }
  return found;
}
