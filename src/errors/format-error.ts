/**
 * The masking step of the one error formatter (src/pipeline/format.ts): known errors keep their code,
 * anything unexpected is masked to INTERNAL_SERVER_ERROR, with details only in development.
 */
import { GraphQLError, type GraphQLFormattedError } from 'graphql';
import { ErrorCode } from './codes';
import { toGraphQLError } from './to-graphql-error';

export interface FormatErrorOptions {
  /** Show the masked error's message and stack (NODE_ENV=development only). */
  development: boolean;
}

export function formatError(formatted: GraphQLFormattedError, error: unknown, options: FormatErrorOptions): GraphQLFormattedError {
  const cause = rootCause(error);
  const known = toGraphQLError(cause);
  if (known) return { ...withoutStack(formatted, options), message: known.message, extensions: { ...known.extensions } };
  // GraphQL's own errors (syntax, validation, variable coercion, our scalars) carry a code already.
  if (cause instanceof GraphQLError) {
    const code = cause.extensions['code'] ?? formatted.extensions?.['code'];
    if (typeof code === 'string' && code !== ErrorCode.INTERNAL_SERVER_ERROR) {
      return { ...withoutStack(formatted, options), extensions: { ...withoutStack(formatted, options).extensions, code } };
    }
    if (!cause.originalError && cause === error) return withoutStack(formatted, options);
  }
  const masked: GraphQLFormattedError = {
    message: 'Unexpected error.',
    ...(formatted.locations ? { locations: formatted.locations } : {}),
    ...(formatted.path ? { path: formatted.path } : {}),
    extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR },
  };
  if (options.development && cause instanceof Error) {
    return { ...masked, extensions: { code: ErrorCode.INTERNAL_SERVER_ERROR, detail: cause.message, stacktrace: cause.stack?.split('\n') ?? [] } };
  }
  return masked;
}

/** The error a resolver threw, under graphql-js's located-error wrappers. */
function rootCause(error: unknown): unknown {
  let e = error;
  for (let depth = 0; e instanceof GraphQLError && e.originalError && depth < 5; depth += 1) e = e.originalError;
  return e;
}

function withoutStack(formatted: GraphQLFormattedError, options: FormatErrorOptions): GraphQLFormattedError {
  if (options.development || !formatted.extensions || !('stacktrace' in formatted.extensions)) return formatted;
  const { stacktrace: _stacktrace, ...extensions } = formatted.extensions;
  return { ...formatted, extensions };
}
