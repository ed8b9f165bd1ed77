/**
 * The shape every stage of the operation pipeline shares: one operation as it passes the stages
 * (`OperationRun`), the `Next` each stage wraps, and how a stage decides.
 *
 * A stage either checks (`admit`: synchronous, no side effect but what it learns about the run;
 * a refusal ends the operation before anything ran, and `check()` runs exactly these) or wraps
 * the stages after it (`wrap`), or both. The last stage is the terminal one: it executes.
 */
import type { GatewayContext } from '../../context';
import type { CostEstimate } from '../../limits/cost';
import type { PreparedDocument, PreparedOperation } from '../prepare';
import type { OperationRecord } from '../record';
import type { FormattedExecutionResult } from 'graphql';
import type { Answer, AnswerStream, Caller, GraphQLParams, RunOptions } from '../types';

/** One operation on its way through the stages. */
export interface OperationRun {
  readonly prepared: PreparedDocument;
  readonly params: GraphQLParams;
  readonly caller: Caller;
  readonly options: RunOptions;
  /** Its bookkeeping: calls, codes, trace, the log line. */
  readonly record: OperationRecord;
  /** Picked by name by the `operation` stage; null before it, or when the document was refused. */
  operation: PreparedOperation | null;
  /** The price, set by the `price` stage (null: priced as free, or not priced yet). */
  estimate: CostEstimate | null;
  /** The operation's context (loaders, budget), made by the `context` stage for the stages after it. */
  context: GatewayContext | null;
  /** Its answer comes in parts (an active `@defer`/`@stream` on a door that delivers parts), set by the `incremental` stage. */
  incremental: boolean;
  /** The refusal is the document's own (not found, not valid, no such operation): nothing of it ran. */
  documentRefused: boolean;
}

export type Outcome = Answer | AnswerStream;
export type Next = (run: OperationRun) => Promise<Outcome>;

export interface Stage {
  readonly name: string;
  /** A check before anything runs: the errors refusing the operation, or null to go on. */
  admit?(run: OperationRun): readonly unknown[] | null;
  /** Around the stages after it: may answer itself, or call `next`. */
  wrap?(next: Next): Next;
}

/** A fresh run of `prepared` (nothing picked, priced or made yet). */
export function startRun(prepared: PreparedDocument, params: GraphQLParams, caller: Caller, options: RunOptions, record: OperationRecord): OperationRun {
  return { prepared, params, caller, options, record, operation: null, estimate: null, context: null, incremental: false, documentRefused: false };
}

/** The answer refusing `run` with `errors` (formatted and kept for the log line). */
export function refusal(record: OperationRecord, errors: readonly unknown[], documentRefused = false): Answer {
  const { formatted, status, headers } = record.format(errors);
  return {
    result: { errors: formatted ?? [] },
    requestError: true,
    ...(status !== undefined ? { status } : {}),
    ...(headers.length > 0 ? { headers } : {}),
    ...(documentRefused ? { documentRefused: true } : {}),
  };
}

/** The stages around `terminal`, outermost first; a stage's `admit` runs before its `wrap`. */
export function compose(stages: readonly Stage[], terminal: Next): Next {
  return stages.reduceRight<Next>((next, stage) => {
    const wrapped = stage.wrap ? stage.wrap(next) : next;
    const admit = stage.admit?.bind(stage);
    if (!admit) return wrapped;
    return (run) => {
      const refused = admit(run);
      return refused ? Promise.resolve(refusal(run.record, refused, run.documentRefused)) : wrapped(run);
    };
  }, terminal);
}

/** The checks of `stages` in order, without running: the first refusal, or null. */
export function checkAll(stages: readonly Stage[], run: OperationRun): readonly unknown[] | null {
  for (const stage of stages) {
    const refused = stage.admit?.(run);
    if (refused) return refused;
  }
  return null;
}

/** Whether a pipeline answer is a subscription's stream. */
export function isStream(outcome: Outcome): outcome is AnswerStream {
  return !('result' in outcome);
}

/**
 * `stream`, calling `ended` once when it ends however it ends (its last result read, `return()`,
 * `throw()`, an error): how a stage that wraps a stream keeps what it holds until then.
 */
export function whenEnded(stream: AnswerStream, ended: () => void): AnswerStream {
  let done = false;
  const end = (): void => {
    if (done) return;
    done = true;
    ended();
  };
  const wrapped: AnswerStream = {
    ...(stream.incremental ? { incremental: true } : {}),
    async next() {
      let step: IteratorResult<FormattedExecutionResult, void>;
      try {
        step = await stream.next();
      } catch (error) {
        end();
        throw error;
      }
      if (step.done === true) end();
      return step;
    },
    async return() {
      try {
        return await stream.return(undefined);
      } finally {
        end();
      }
    },
    async throw(error: unknown) {
      try {
        return await stream.throw(error);
      } finally {
        end();
      }
    },
    [Symbol.asyncIterator]() {
      return wrapped;
    },
  };
  return wrapped;
}
