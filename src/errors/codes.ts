/**
 * The error codes a client can rely on (`extensions.code`); README.md "Errors" lists them for clients.
 * It imports from src/ only the table of upstream APIs (itself a leaf), for the services' names.
 */
import type { UpstreamService } from '../core/upstream-apis';

export const ErrorCode = {
  BAD_USER_INPUT: 'BAD_USER_INPUT',
  UNAUTHENTICATED: 'UNAUTHENTICATED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  RATE_LIMITED: 'RATE_LIMITED',
  UPSTREAM_ERROR: 'UPSTREAM_ERROR',
  UPSTREAM_TIMEOUT: 'UPSTREAM_TIMEOUT',
  UPSTREAM_UNAVAILABLE: 'UPSTREAM_UNAVAILABLE',
  UPSTREAM_BAD_RESPONSE: 'UPSTREAM_BAD_RESPONSE',
  NOT_CONFIGURED: 'NOT_CONFIGURED',
  /** An asynchronous change ended badly: its resource reached ERROR (or vanished), or its workflow FAILED. */
  RESOURCE_ERROR: 'RESOURCE_ERROR',
  /** The operation's estimated cost is over a configured maximum: refused before any upstream call. */
  COST_ESTIMATED_TOO_EXPENSIVE: 'COST_ESTIMATED_TOO_EXPENSIVE',
  /** A running operation crossed one of its budgets (upstream calls, deadline, nodes, response bytes). */
  OPERATION_BUDGET_EXCEEDED: 'OPERATION_BUDGET_EXCEEDED',
  /** Trusted-documents mode: the operation is not in the registered list. */
  PERSISTED_QUERY_NOT_IN_LIST: 'PERSISTED_QUERY_NOT_IN_LIST',
  /** The request itself is not a GraphQL request the gateway can read (malformed JSON, invalid UTF-8). */
  BAD_REQUEST: 'BAD_REQUEST',
  INTERNAL_SERVER_ERROR: 'INTERNAL_SERVER_ERROR',
  /** The idempotency key was used before with another operation or other variables (HTTP 422): refused, no call. */
  IDEMPOTENCY_KEY_REUSED: 'IDEMPOTENCY_KEY_REUSED',
  /** The first request with this idempotency key still runs (HTTP 409, `retryAfter`): refused, no call. */
  IDEMPOTENCY_KEY_IN_PROGRESS: 'IDEMPOTENCY_KEY_IN_PROGRESS',
  /** The first request with this idempotency key left no result to replay (`outcomeUnknown: true`): check for the object, no call. */
  IDEMPOTENCY_OUTCOME_UNKNOWN: 'IDEMPOTENCY_OUTCOME_UNKNOWN',
} as const;
export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

/** The upstreams the gateway talks to (src/core/upstream-apis.ts); used in `extensions.upstream.service`. */
export type { UpstreamService };

/** Where a failed call went: safe to show to clients (no token, no query secrets). */
export interface UpstreamCallInfo {
  service: UpstreamService;
  method: string;
  /** Path without the query string. */
  path: string;
  /** HTTP status, or null when no response arrived. */
  status: number | null;
}

/**
 * A failed upstream call, already classified. The HTTP layer and the clients throw it;
 * `toGraphQLError` (errors/to-graphql-error.ts) turns it into a GraphQLError.
 */
export class UpstreamError extends Error {
  readonly code: ErrorCode;
  readonly upstream: UpstreamCallInfo;
  /**
   * A change (POST/PUT/DELETE) was sent and no answer came back (timeout, reset, gateway timeout):
   * the upstream may or may not have applied it. Never retried; the caller is told to check.
   */
  readonly outcomeUnknown: boolean;
  /** Seconds after which the upstream API may take calls again (an open breaker, a Retry-After window); null when unknown. */
  readonly retryAfter: number | null;

  constructor(code: ErrorCode, message: string, upstream: UpstreamCallInfo, options?: { cause?: unknown; outcomeUnknown?: boolean; retryAfter?: number | null }) {
    super(message, options);
    this.name = 'UpstreamError';
    this.code = code;
    this.upstream = upstream;
    this.outcomeUnknown = options?.outcomeUnknown ?? false;
    this.retryAfter = options?.retryAfter ?? null;
  }

  /** The same error with a sentence added to its message (e.g. how to find out what happened). */
  withHint(hint: string): UpstreamError {
    return new UpstreamError(this.code, `${this.message}. ${hint}`, this.upstream, { cause: this.cause, outcomeUnknown: this.outcomeUnknown, retryAfter: this.retryAfter });
  }
}

/**
 * An error the gateway itself decides (no upstream answer behind it), e.g. CONFLICT when an
 * update's `expectedUpdatedAt` no longer matches the record. `field` names the argument when one is at fault.
 */
export class GatewayError extends Error {
  readonly code: ErrorCode;
  readonly field: string | null;
  constructor(code: ErrorCode, message: string, field: string | null = null) {
    super(message);
    this.name = 'GatewayError';
    this.code = code;
    this.field = field;
  }
}

/** Input rejected before any upstream call. `field` is the argument path, e.g. `input.name`. */
export class BadInputError extends Error {
  readonly code = ErrorCode.BAD_USER_INPUT;
  readonly field: string;
  constructor(field: string, message: string) {
    super(message);
    this.name = 'BadInputError';
    this.field = field;
  }
}

/** Which shared limit a caller ran into (`extensions.limit`). */
export type SharedLimitName =
  | 'subscriptionsPerConnection'
  | 'subscriptionsPerCaller'
  | 'anonymousSubscriptions'
  | 'pollers'
  | 'provisionings'
  | 'heavyOperations'
  | 'sseReservations'
  | 'wsConnections'
  | 'upstreamCallsPerMinute';

/**
 * A shared limit is reached, either in all (`scope: 'gateway'`) or for this caller's share
 * (`scope: 'caller'`): every such refusal is RATE_LIMITED with `retryAfter` (seconds), whatever
 * the limit, so a client handles them all one way.
 */
export class LimitExceededError extends Error {
  readonly code = ErrorCode.RATE_LIMITED;
  readonly limit: SharedLimitName;
  readonly max: number;
  readonly scope: 'gateway' | 'caller';
  /** Seconds after which trying again may succeed. */
  readonly retryAfter: number;
  constructor(limit: SharedLimitName, max: number, message: string, options: { scope?: 'gateway' | 'caller'; retryAfter?: number } = {}) {
    super(message);
    this.name = 'LimitExceededError';
    this.limit = limit;
    this.max = max;
    this.scope = options.scope ?? 'gateway';
    this.retryAfter = options.retryAfter ?? 1;
  }
}

/** What a document is priced on before it runs (`extensions.cost.limit`). */
export type CostLimit = 'nodes' | 'upstreamCalls' | 'depth' | 'aliases' | 'tokens' | 'bytes';

/** An operation refused before it runs: its estimate for `limit` is over the configured `max`. */
export class CostTooExpensiveError extends Error {
  readonly code = ErrorCode.COST_ESTIMATED_TOO_EXPENSIVE;
  readonly limit: CostLimit;
  readonly estimated: number;
  readonly max: number;
  constructor(limit: CostLimit, estimated: number, max: number, message: string) {
    super(message);
    this.name = 'CostTooExpensiveError';
    this.limit = limit;
    this.estimated = estimated;
    this.max = max;
  }
}

/** Which running budget an operation crossed (`extensions.limit`). */
export type BudgetLimit = 'upstreamCalls' | 'deadline' | 'nodes' | 'responseBytes';

/** A running operation crossed a budget: the fields not yet resolved get this error, the rest of the data stays. */
export class BudgetExceededError extends Error {
  readonly code = ErrorCode.OPERATION_BUDGET_EXCEEDED;
  readonly limit: BudgetLimit;
  readonly max: number;
  constructor(limit: BudgetLimit, max: number, message: string) {
    super(message);
    this.name = 'BudgetExceededError';
    this.limit = limit;
    this.max = max;
  }
}
