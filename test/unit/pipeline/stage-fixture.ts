/** A small schema, a preparer and a run of one document, for the operation stages' unit tests. */
import { buildSchema, type GraphQLSchema } from 'graphql';
import pino from 'pino';
import { backgroundCaller } from '../../../src/core/caller';
import { DEFAULT_LIMITS } from '../../../src/limits/limits';
import { createErrorFormatter } from '../../../src/pipeline/format';
import { createPreparer, type Preparer } from '../../../src/pipeline/prepare';
import { OperationRecord, type RecordDeps } from '../../../src/pipeline/record';
import { startRun, type OperationRun } from '../../../src/pipeline/stages';
import type { GraphQLParams, RunOptions } from '../../../src/pipeline/types';

export const schema: GraphQLSchema = buildSchema(`
  type Query { hello: String, items(first: Int): [String] }
  type Mutation { bump: Int }
  type Subscription { ticks: Int }
`);

export const preparer: Preparer = createPreparer({ schema, documentLimits: { maxBytes: 64 * 1024, maxTokens: 5000 }, trusted: null });

/** Facts the record wrote (log lines and metrics), for assertions. */
export interface Written {
  logs: Array<Record<string, unknown>>;
  observed: Array<{ transport: string; errorCodes: readonly string[] }>;
}

export function recordDeps(written: Written = { logs: [], observed: [] }): RecordDeps {
  const logger = pino({ level: 'info' }, { write: (line: string) => written.logs.push(JSON.parse(line) as Record<string, unknown>) });
  return {
    formatErrors: createErrorFormatter({ development: false }),
    logger,
    metrics: { observe: (transport, facts) => written.observed.push({ transport, errorCodes: facts.errorCodes }) },
    tracer: null,
  };
}

export function runOf(query: string, params: Omit<GraphQLParams, 'query'> = {}, options: RunOptions = { door: 'http' }, written?: Written): OperationRun {
  const caller = backgroundCaller(undefined, null);
  return startRun(preparer.document(query), { query, ...params }, caller, options, new OperationRecord(recordDeps(written), caller, options));
}

export const priceLimits = DEFAULT_LIMITS.price;
