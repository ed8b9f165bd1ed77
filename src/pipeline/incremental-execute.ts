/**
 * An operation with an active `@defer`/`@stream` (incremental.ts) runs on `@graphql-tools/executor`,
 * which implements incremental delivery on graphql 16 (graphql-jit does not): its answer is either
 * one result (nothing was deferred after all, or its variables did not coerce) or its parts in the
 * 2022 format (`deferSpec=20220824`), each formatted as it comes (`partsOf`).
 */
import { execute, type IncrementalExecutionResults, type IncrementalResult, type SingularExecutionResult, type SubsequentIncrementalExecutionResult } from '@graphql-tools/executor';
import type { GraphQLError, GraphQLSchema } from 'graphql';
import type { PreparedOperation } from './prepare';
import type { SelectionOrder } from './selection-order';
import type { AnswerStream, IncrementalPayload } from './types';

export type IncrementalOutcome = SingularExecutionResult<Record<string, unknown>> | IncrementalExecutionResults<Record<string, unknown>>;

/** Runs `op` on the incremental executor; `signal` stops its pending work when the client leaves. */
export async function executeIncremental(schema: GraphQLSchema, op: PreparedOperation, contextValue: unknown, variableValues: Readonly<Record<string, unknown>> | undefined, signal: AbortSignal): Promise<IncrementalOutcome> {
  return execute({ schema, document: op.document, operationName: op.name, contextValue, variableValues, signal });
}

export function isInParts(outcome: IncrementalOutcome): outcome is IncrementalExecutionResults<Record<string, unknown>> {
  // (The executor's own `isIncrementalResult` asks something else: whether a payload has `incremental`.)
  return 'initialResult' in outcome && 'subsequentResults' in outcome;
}

export interface PartsOptions {
  /** Puts each part's keys in the operation's selection order (selection-order.ts). */
  order: SelectionOrder;
  /** The errors of one payload, formatted (and kept for the log line). */
  format(errors: readonly GraphQLError[]): IncrementalPayload['errors'];
  /** What the last payload carries in `extensions` (the cost report, stale reads), read when it is made. */
  lastExtensions(): Record<string, unknown> | undefined;
  /** The client left before the last part: cancel what is pending (no upstream call starts after it). */
  cancel(): void;
}

type Item = NonNullable<IncrementalPayload['incremental']>[number];

/** One deferred fragment's data or one stream's items, its errors formatted. */
function itemOf(item: IncrementalResult<Record<string, unknown>>, options: PartsOptions): Item {
  const out: Item = {};
  if ('items' in item) {
    // The executor's typings give `items` its data's type; it is the streamed list's items.
    const items: unknown = item.items;
    out.items = Array.isArray(items) ? options.order.at(items, item.path ?? []) : null;
  } else if ('data' in item && item.data !== undefined) {
    out.data = item.data === null ? null : options.order.at(item.data, item.path ?? []);
  }
  if (item.errors && item.errors.length > 0) out.errors = options.format(item.errors);
  if (item.path) out.path = item.path;
  if (item.label !== undefined) out.label = item.label;
  if (item.extensions) out.extensions = item.extensions;
  return out;
}

function subsequentPart(result: SubsequentIncrementalExecutionResult<Record<string, unknown>>, options: PartsOptions): IncrementalPayload {
  const part: IncrementalPayload = { hasNext: result.hasNext };
  if (result.incremental) part.incremental = result.incremental.map((item) => itemOf(item, options));
  if (result.extensions) part.extensions = result.extensions;
  return part;
}

/** The parts of an incremental answer as an `AnswerStream`: the first, then each later one, formatted. */
export function partsOf(results: IncrementalExecutionResults<Record<string, unknown>>, options: PartsOptions): AnswerStream {
  const { initialResult, subsequentResults } = results;
  let first: IncrementalPayload | null = { hasNext: initialResult.hasNext };
  if (initialResult.errors && initialResult.errors.length > 0) first.errors = options.format(initialResult.errors);
  if (initialResult.data !== undefined) first.data = initialResult.data === null ? null : options.order.at(initialResult.data);
  let over = false;
  const done: IteratorReturnResult<void> = { done: true, value: undefined };
  /** The last part says so: it carries the extensions of the whole answer. */
  const delivered = (part: IncrementalPayload): IteratorYieldResult<IncrementalPayload> => {
    if (!part.hasNext) {
      over = true;
      const extensions = options.lastExtensions();
      if (extensions) part.extensions = { ...part.extensions, ...extensions };
    }
    return { done: false, value: part };
  };
  const stop = async (): Promise<void> => {
    if (over) return;
    over = true;
    options.cancel();
    await subsequentResults.return(undefined);
  };
  const stream: AnswerStream = {
    incremental: true,
    async next() {
      if (first) {
        const part = first;
        first = null;
        return delivered(part);
      }
      if (over) return done;
      const step = await subsequentResults.next();
      if (step.done === true) {
        over = true;
        return done;
      }
      return delivered(subsequentPart(step.value, options));
    },
    async return() {
      await stop();
      return done;
    },
    async throw(error: unknown) {
      await stop();
      throw error;
    },
    [Symbol.asyncIterator]() {
      return stream;
    },
  };
  return stream;
}
