/**
 * The one operation pipeline behind every door: `prepare` once per document (prepare.ts, one
 * bounded cache), `run` per operation (run.ts). A door hands it GraphQL parameters and the caller
 * and frames the answer on its wire; it decides no rule itself.
 */
import type { GraphQLError, GraphQLFormattedError, GraphQLSchema, ValidationRule } from 'graphql';
import type { DocumentLimits } from '../limits/document-check';
import type { TrustedDocuments } from '../persisted/trusted-documents';
import type { PersistedQueryStore } from '../persisted/store';
import { resolveDocument } from './documents';
import { createExecutor, type ExecutorKind, type ExecutorStats } from './execute';
import { createPreparer, type PreparedDocument } from './prepare';
import { createRunner, type RunDeps, type Runner } from './run';
import type { Answer, AnswerStream, Caller, GraphQLParams, RunOptions } from './types';

export type { Answer, AnswerStream, Caller, Connection, Door, GraphQLParams, RunOptions } from './types';
export type { PreparedDocument } from './prepare';

export interface PipelineOptions extends Omit<RunDeps, 'preparer' | 'executor' | 'schema'> {
  /** The executable schema, its fields instrumented for the budgets (src/limits/instrument.ts). */
  schema: GraphQLSchema;
  executor: ExecutorKind;
  documentLimits: DocumentLimits;
  trusted: TrustedDocuments | null;
  /** Automatic persisted queries' registrations; null: APQ off. */
  apq: PersistedQueryStore | null;
  /** Validation rules besides graphql's own (e.g. no introspection). */
  extraRules?: readonly ValidationRule[];
}

export interface Pipeline {
  /** The whole way for every door: the document (its `query`, or a persisted query by hash), prepare, run. */
  handle(params: GraphQLParams, caller: Caller, options: RunOptions): Promise<Answer | AnswerStream>;
  /** An answer refusing a request before it reached the pipeline (a door's own limit), logged like any other. */
  refuse(errors: readonly GraphQLError[], caller: Caller, options: RunOptions): Answer;
  /** Logs and counts an answer a door's framework gave itself (errors already formatted by the pipeline's formatter). */
  note(errors: readonly GraphQLFormattedError[], caller: Caller, options: RunOptions): void;
  /** Every check `run` would make (document, operation, price) without running: the refusal, or the estimate and kind. */
  check(params: GraphQLParams): Promise<ReturnType<Runner['check']>>;
  /** The same checks for a document given as text (no persisted-query lookup): synchronous. */
  checkText(text: string, params: GraphQLParams): ReturnType<Runner['check']>;
  stats(): { documents: number; weight: number; executor: ExecutorStats };
}

export function createPipeline(options: PipelineOptions): Pipeline {
  const preparer = createPreparer({ schema: options.schema, documentLimits: options.documentLimits, trusted: options.trusted, ...(options.extraRules ? { extraRules: options.extraRules } : {}) });
  const executor = createExecutor(options.schema, options.executor);
  const runner = createRunner({ ...options, preparer, executor });
  const sources = { apq: options.apq, trusted: options.trusted };
  /**
   * Who registers a persisted query: the shared store (Redis) keeps only a verified caller's
   * registrations, and asks this only then; an anonymous one (null) stays in this replica.
   */
  const registrantOf = (caller: Caller): Promise<string | null> =>
    // A refused or unverifiable token registers as nobody: the document stays in this replica only.
    caller.verify().then(
      (identity) => identity?.key ?? null,
      () => null,
    );
  /** Registers a valid document a request sent with its hash, under its caller. */
  async function register(prepared: PreparedDocument, text: string, caller: Caller): Promise<void> {
    if (sources.apq !== null && !sources.trusted?.only && prepared.refusal === null) await sources.apq.set(prepared.hash, text, () => registrantOf(caller));
  }

  return {
    async handle(params, caller, runOptions) {
      const resolved = await resolveDocument(params, sources);
      if (!('text' in resolved)) return runner.refuse([resolved], caller, runOptions);
      const prepared = preparer.document(resolved.text, resolved.hash);
      if (resolved.register && resolved.hash !== undefined) await register(prepared, resolved.text, caller);
      return runner.run(prepared, params, caller, runOptions);
    },
    refuse: (errors, caller, runOptions) => runner.refuse(errors, caller, runOptions),
    note: (errors, caller, runOptions) => runner.note(errors, caller, runOptions),
    checkText: (text, params) => runner.check(preparer.document(text), params),
    async check(params) {
      const resolved = await resolveDocument(params, sources);
      if (!('text' in resolved)) return { errors: options.formatErrors([resolved]).formatted, estimate: null, type: null };
      return runner.check(preparer.document(resolved.text, resolved.hash), params);
    },
    stats: () => ({ ...preparer.stats(), executor: executor.stats() }),
  };
}

/** Whether a pipeline answer is a subscription's stream. */
export function isStream(answer: Answer | AnswerStream): answer is AnswerStream {
  return !('result' in answer);
}
