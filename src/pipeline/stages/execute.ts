/**
 * "Execute", the terminal stage of queries and mutations: the operation run by the executor
 * (graphql-jit or graphql-js, ../execute.ts) in the context the `context` stage made; errors
 * formatted; the cost report when the client asked for it (the request extension `"cost": true`,
 * into which a door translates its own way of asking); stale reads said. An operation whose answer
 * comes in parts (`run.incremental`, the `incremental` stage) runs on the incremental executor
 * (../incremental-execute.ts) and answers a stream of them; the cost report and stale reads then
 * come with the last part.
 */
import type { ExecutionResult, FormattedExecutionResult, GraphQLSchema } from 'graphql';
import type { GatewayContext } from '../../context';
import type { CostEstimate } from '../../limits/cost';
import type { PriceLimits } from '../../limits/limits';
import type { Executor } from '../execute';
import { executeIncremental, isInParts, partsOf } from '../incremental-execute';
import { selectionOrderOf } from '../selection-order';
import type { Next } from './stage';

/** The cost report: estimated, actual, and the limits of both. */
export function costReport(estimate: CostEstimate | null, context: GatewayContext, limits: PriceLimits): Record<string, unknown> {
  const budget = context.budget;
  return {
    estimated: estimate,
    actual: { ...budget.usage },
    max: {
      estimated: { nodes: limits.maxNodes, upstreamCalls: limits.maxUpstreamCalls, depth: limits.maxDepth, aliases: limits.maxAliases },
      actual: { ...budget.limits },
    },
  };
}

export function execute(executor: Executor, limits: PriceLimits, schema: GraphQLSchema): Next {
  return async (run) => {
    const { operation, context, record, params } = run;
    if (!operation || !context) throw new Error('execute needs the operation and its context (the operation and context stages)');
    const variables = params.variables ?? undefined;
    const wantsCost = params.extensions?.['cost'] === true;
    /** What the whole answer carries in `extensions`: the cost report when asked, stale reads said. */
    const extensionsOf = (hasData: boolean): Record<string, unknown> | undefined => {
      let extensions: Record<string, unknown> | undefined;
      if (wantsCost && hasData) extensions = { cost: costReport(run.estimate, context, limits) };
      // Some reads were answered from cached copies past their freshness (an API's breaker open): say how old.
      if (record.calls.stale) extensions = { ...extensions, staleUpstream: { ...record.calls.stale } };
      return extensions;
    };
    let result: ExecutionResult;
    if (run.incremental) {
      context.inParts = true; // a @stream'ed connection may page as the parts go (resolvers/stream.ts)
      const outcome = await executeIncremental(schema, operation, context, variables, record.cancellation.abortSignal());
      // In parts: the context stage keeps the context (and finishes the budget) until the last one.
      if (isInParts(outcome)) {
        return partsOf(outcome, {
          order: selectionOrderOf(operation.document, operation.operation),
          format: (errors) => record.format(errors).formatted,
          lastExtensions: () => extensionsOf(true),
          cancel: () => record.cancellation.abort(),
        });
      }
      // Nothing deferred after all (or its variables did not coerce): one result, as on graphql-jit.
      const data = outcome.data === undefined || outcome.data === null ? outcome.data : selectionOrderOf(operation.document, operation.operation).at(outcome.data);
      result = { ...(outcome.errors ? { errors: outcome.errors } : {}), ...(data !== undefined ? { data } : {}) };
    } else {
      result = await executor.execute(operation, context, variables);
    }
    context.budget.finish();
    const errors = result.errors && result.errors.length > 0 ? record.format(result.errors) : null;
    const answer: FormattedExecutionResult = {};
    if (errors) answer.errors = errors.formatted;
    if (result.data !== undefined) answer.data = result.data;
    const extensions = extensionsOf(result.data !== undefined);
    if (extensions) answer.extensions = extensions;
    return { result: answer, requestError: result.data === undefined, ...(errors?.status !== undefined ? { status: errors.status } : {}) };
  };
}
