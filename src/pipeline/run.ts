/**
 * `run(prepared, params, caller, options)`: the one place an operation is admitted and run, for
 * every door, through the stages declared in ./stages/index.ts (account, operation, door kinds,
 * price, subscribe, context, heavy turn, execute). `refuse` and `note` log a door's own refusal
 * like any answer; `check` runs the checking stages without running anything.
 */
import type { GraphQLError, GraphQLFormattedError } from 'graphql';
import { backgroundCaller } from '../core/caller';
import type { CostEstimate } from '../limits/cost';
import type { PreparedDocument, PreparedOperation } from './prepare';
import { OperationRecord } from './record';
import { checkAll, createStages, refusal, startRun, type StageDeps } from './stages';
import type { Answer, AnswerStream, Caller, GraphQLParams, RunOptions } from './types';

export type RunDeps = StageDeps;

export interface Runner {
  run(prepared: PreparedDocument, params: GraphQLParams, caller: Caller, options: RunOptions): Promise<Answer | AnswerStream>;
  /** An answer refusing the request before anything ran (a door-level refusal, e.g. an unknown persisted query), logged like any other. */
  refuse(errors: readonly GraphQLError[], caller: Caller, options: RunOptions): Answer;
  /** Logs and counts an answer given without running (errors already formatted). */
  note(errors: readonly GraphQLFormattedError[], caller: Caller, options: RunOptions): void;
  /** Every check `run` makes before running (document, operation, price), without running: its refusal or its estimate. */
  check(prepared: PreparedDocument, params: GraphQLParams): { errors: GraphQLFormattedError[]; estimate: CostEstimate | null; type: PreparedOperation['type'] | null };
}

export function createRunner(deps: RunDeps): Runner {
  const stages = createStages(deps);
  // A check's record is never finished (no log line) and has no trace span.
  const quiet = { ...deps, tracer: null };
  return {
    run(prepared, params, caller, options) {
      return stages.run(startRun(prepared, params, caller, options, new OperationRecord(deps, caller, options)));
    },
    refuse(errors, caller, options) {
      const record = new OperationRecord(deps, caller, options);
      const answer = refusal(record, errors, true);
      record.finish(options.statusOf?.(answer));
      return answer;
    },
    check(prepared, params) {
      const caller = backgroundCaller(undefined, null);
      const options: RunOptions = { door: 'http' };
      const run = startRun(prepared, params, caller, options, new OperationRecord(quiet, caller, options));
      const refused = checkAll(stages.checks, run);
      const type = run.operation?.type ?? null;
      if (refused) return { errors: deps.formatErrors(refused).formatted, estimate: null, type };
      return { errors: [], estimate: run.estimate, type };
    },
    note(errors, caller, options) {
      const record = new OperationRecord(deps, caller, options);
      record.noteErrors(errors);
      record.finish(options.statusOf?.({ result: { errors }, requestError: true }));
    },
  };
}
