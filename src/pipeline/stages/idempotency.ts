/**
 * "Idempotency": a mutation sent with a key (`extensions.idempotencyKey`; the HTTP door puts its
 * `Idempotency-Key` header there, MCP its tools' `idempotencyKey`) runs once per verified identity
 * and key (src/idempotency). The first runs the stages after it and keeps its result; a repeat of
 * the same operation and variables, with the same token, gets that result marked as a replay
 * (`extensions.idempotentReplayed`, and `Idempotent-Replayed: true` on HTTP), with no context made
 * and no call; another token of the identity is told the outcome exists (IDEMPOTENCY_OUTCOME_UNKNOWN)
 * but not given its data; anything else with the key is refused with no call. Queries and
 * subscriptions ignore the key.
 *
 * A key is kept per verified identity: a caller without a token is refused (UNAUTHENTICATED) when
 * it sends one, since it can change nothing on the platform and has no identity to keep a key for.
 * The first run lets its key go (`abandon`) only when it sent no change upstream and produced no
 * data (refused, or failed before its change): a corrected retry with the same key then runs. A
 * mutation that answered data, or sent a change, keeps its result (provisionAppWan's run starts in
 * the background: its result, the provisioning's id, is what a retry gets).
 */
import { GraphQLError, type FormattedExecutionResult } from 'graphql';
import type { Logger } from 'pino';
import { ErrorCode, GatewayError } from '../../errors/codes';
import { fingerprintOf } from '../../idempotency/fingerprint';
import type { Idempotency } from '../../idempotency/idempotency';
import { parseIdempotencyKey } from '../../idempotency/key';
import { refusalError, refusalHttpStatus, type IdempotencyRefusal } from '../../idempotency/refusal';
import { markReplayed } from '../../idempotency/result';
import type { Answer } from '../types';
import { isStream, refusal, type OperationRun, type Outcome, type Stage } from './stage';
import { verifyCaller } from './verify-caller';

/** Where the key is read from, named in its refusal. */
export const KEY_EXTENSION = 'extensions.idempotencyKey';

/** The header a replayed answer carries on HTTP (the result says it in `extensions.idempotentReplayed`). */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** Whether the first run may have changed something: a change was sent, or it produced data. */
function mayHaveChanged(run: OperationRun, outcome: Outcome): boolean {
  if ((run.record.calls.changes ?? 0) > 0) return true;
  if (isStream(outcome)) return false;
  const data = outcome.result.data;
  return data !== undefined && data !== null && Object.values(data).some((value) => value !== null);
}

/** The refusal of an outcome that does not run, with its HTTP status (and `Retry-After` when it has `retryAfter`). */
function refusalOf(run: OperationRun, outcome: IdempotencyRefusal): Answer {
  const error = refusalError(outcome);
  const retryAfter = error.extensions['retryAfter'];
  const headers = new Map<string, string>(typeof retryAfter === 'number' ? [['retry-after', String(retryAfter)]] : []);
  const withStatus = new GraphQLError(error.message, { extensions: { ...error.extensions, http: { status: refusalHttpStatus(outcome), headers } } });
  return refusal(run.record, [withStatus]);
}

/** The kept result served again: marked, its codes on the log line, `Idempotent-Replayed` for HTTP. */
function replayOf(run: OperationRun, result: FormattedExecutionResult): Answer {
  run.record.noteErrors(result.errors);
  return { result: markReplayed(result), requestError: result.data === undefined || result.data === null, headers: [[REPLAYED_HEADER, 'true']] };
}

/** The keyed hash a token's kept results are bound to (never the token itself). */
export type CredentialOf = (authorization: string) => string;

export function idempotency(store: Idempotency, credentialOf: CredentialOf, logger: Pick<Logger, 'warn'>): Stage {
  /** The store failed to record the outcome: the answer still goes out; repeats then meet a lapsed lease (outcome unknown), never a second run. */
  const settle = (how: Promise<unknown>): Promise<void> =>
    how.then(
      () => undefined,
      (error: unknown) => logger.warn({ err: error instanceof Error ? error.message : 'error' }, 'idempotency outcome not recorded'),
    );

  return {
    name: 'idempotency',
    wrap: (next) => async (run) => {
      if (run.operation?.type !== 'mutation') return next(run);
      // Refused (BAD_USER_INPUT, by the account stage) before anything is reserved or called.
      const key = parseIdempotencyKey(run.params.extensions?.['idempotencyKey'], KEY_EXTENSION);
      if (key === null) return next(run);
      await verifyCaller(run.caller);
      const identity = run.caller.identity;
      if (!identity) {
        throw new GraphQLError('An idempotency key is kept per caller: send your token (Authorization: Bearer …) with it', {
          extensions: { code: ErrorCode.UNAUTHENTICATED, http: { status: 401 } },
          originalError: new GatewayError(ErrorCode.UNAUTHENTICATED, 'idempotency key without a token'),
        });
      }
      const fingerprint = fingerprintOf({ documentHash: run.prepared.hash, operationName: run.operation.name, variables: run.params.variables });
      // A caller with an identity has a token: a verified identity comes only from one.
      const credential = run.caller.authorization === undefined ? '' : credentialOf(run.caller.authorization);
      const outcome = await store.begin(identity.key, key, fingerprint, credential, run.record.cancellation.abortSignal());
      switch (outcome.kind) {
        case 'replay':
          return replayOf(run, outcome.result);
        case 'run':
          break;
        default:
          return refusalOf(run, outcome);
      }
      let answer: Outcome;
      try {
        answer = await next(run);
      } catch (error) {
        // Failed without an answer: the refusal is the answer, kept as any other when a change may have left.
        answer = refusal(run.record, [error]);
      }
      if (mayHaveChanged(run, answer)) await settle(outcome.finish(isStream(answer) ? {} : answer.result));
      else await settle(outcome.abandon());
      return answer;
    },
  };
}
