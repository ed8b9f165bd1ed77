/**
 * The answer to a request that does not run (anything but `run` and `replay`), as the GraphQL error
 * every door shows the same way, and the HTTP status the HTTP door gives it. Each message says what
 * the client should do next (docs/changes-and-provisioning.md, "Idempotent mutations").
 */
import { GraphQLError } from 'graphql';
import { ErrorCode } from '../errors/codes';
import type { IdempotencyOutcome } from './idempotency';

export type IdempotencyRefusal = Exclude<IdempotencyOutcome, { kind: 'run' } | { kind: 'replay' }>;

type UnknownReason = Extract<IdempotencyOutcome, { kind: 'outcome-unknown' }>['reason'];

/** What each "outcome unknown" tells the client, and its `extensions.reason`. */
const OUTCOME_UNKNOWN: Record<UnknownReason, { message: string; reason: string }> = {
  'lease-lapsed': {
    message:
      'The first request with this Idempotency-Key stopped before its outcome was recorded, and its change may have been applied: look for the object (for instance, list by name) before sending the change again with a new key',
    reason: 'leaseLapsed',
  },
  'result-not-kept': {
    message: 'The first request with this Idempotency-Key finished, but its result was not kept: look for the object (for instance, list by name) instead of sending the change again',
    reason: 'resultNotKept',
  },
  'other-credential': {
    message:
      'The first request with this Idempotency-Key was made with another token; its result is given only to that token: look for the object (for instance, list by name) instead of sending the change again',
    reason: 'otherCredential',
  },
};

export function refusalError(outcome: IdempotencyRefusal): GraphQLError {
  switch (outcome.kind) {
    case 'reused':
      return new GraphQLError('This Idempotency-Key was used for another operation or other variables; use a new key for a new request', {
        extensions: { code: ErrorCode.IDEMPOTENCY_KEY_REUSED },
      });
    case 'in-progress':
      return new GraphQLError(`The first request with this Idempotency-Key is still running; send the same request again in ${outcome.retryAfterSeconds} s to get its result`, {
        extensions: { code: ErrorCode.IDEMPOTENCY_KEY_IN_PROGRESS, retryAfter: outcome.retryAfterSeconds },
      });
    case 'outcome-unknown':
      return new GraphQLError(OUTCOME_UNKNOWN[outcome.reason].message, {
        extensions: { code: ErrorCode.IDEMPOTENCY_OUTCOME_UNKNOWN, outcomeUnknown: true, reason: OUTCOME_UNKNOWN[outcome.reason].reason },
      });
    case 'full':
      return new GraphQLError(`Too many idempotency keys are kept${outcome.bound.endsWith('PerIdentity') ? ' for this caller' : ''}; try again later`, {
        extensions: { code: ErrorCode.RATE_LIMITED, limit: 'idempotencyKeys', max: outcome.max, scope: outcome.bound.endsWith('PerIdentity') ? 'caller' : 'gateway', retryAfter: outcome.retryAfterSeconds },
      });
  }
}

/** The HTTP door's status for a refusal (with `Retry-After` where the error has `retryAfter`). */
export function refusalHttpStatus(outcome: IdempotencyRefusal): number {
  switch (outcome.kind) {
    case 'reused':
      return 422;
    case 'in-progress':
    case 'outcome-unknown':
      return 409;
    case 'full':
      return 429;
  }
}
