/**
 * The one table from the gateway's typed errors to GraphQL errors with a stable `extensions.code`.
 * Anything not in the table is unexpected and gets masked by format-error.ts.
 */
import { GraphQLError } from 'graphql';
import { ShapeError } from './shape-error';
import { BadInputError, BudgetExceededError, CostTooExpensiveError, ErrorCode, GatewayError, LimitExceededError, UpstreamError } from './codes';

/** One row per error class: returns null when the error is not of that class. */
type Rule = (error: unknown) => GraphQLError | null;

function rule<E>(cls: abstract new (...args: never[]) => E, convert: (error: E) => GraphQLError): Rule {
  return (error) => (error instanceof cls ? convert(error) : null);
}

const RULES: readonly Rule[] = [
  rule(
    UpstreamError,
    (e) => new GraphQLError(e.message, { extensions: { code: e.code, upstream: { ...e.upstream }, ...(e.outcomeUnknown ? { outcomeUnknown: true } : {}), ...(e.retryAfter !== null ? { retryAfter: e.retryAfter } : {}) } }),
  ),
  rule(GatewayError, (e) => new GraphQLError(e.message, { extensions: { code: e.code, ...(e.field !== null ? { field: e.field } : {}) } })),
  rule(BadInputError, (e) => new GraphQLError(e.message, { extensions: { code: ErrorCode.BAD_USER_INPUT, field: e.field } })),
  rule(LimitExceededError, (e) => new GraphQLError(e.message, { extensions: { code: e.code, limit: e.limit, max: e.max, scope: e.scope, retryAfter: e.retryAfter } })),
  rule(
    CostTooExpensiveError,
    (e) => new GraphQLError(e.message, { extensions: { code: e.code, cost: { estimated: e.estimated, max: e.max, limit: e.limit } } }),
  ),
  rule(BudgetExceededError, (e) => new GraphQLError(e.message, { extensions: { code: e.code, limit: e.limit, max: e.max } })),
  // A client's parser met a body outside the contract's shape; clients wrap it in UpstreamError
  // when they know the call, this covers the rest.
  rule(ShapeError, (e) => new GraphQLError(`the upstream answered with an unexpected shape (${e.message})`, { extensions: { code: ErrorCode.UPSTREAM_BAD_RESPONSE } })),
];

/** The GraphQL form of a known gateway error; null when the error is not one of ours. */
export function toGraphQLError(error: unknown): GraphQLError | null {
  for (const convert of RULES) {
    const converted = convert(error);
    if (converted) return converted;
  }
  return null;
}
