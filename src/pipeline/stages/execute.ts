/**
 * "Execute", the terminal stage of queries and mutations: the operation run by the executor
 * (graphql-jit or graphql-js, ../execute.ts) in the context the `context` stage made; errors
 * formatted; the cost report when the client asked for it (the request extension `"cost": true`,
 * into which a door translates its own way of asking); stale reads said.
 */
import type { ExecutionResult, FormattedExecutionResult } from 'graphql';
import type { GatewayContext } from '../../context';
import type { CostEstimate } from '../../limits/cost';
import type { PriceLimits } from '../../limits/limits';
import type { Executor } from '../execute';
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

export function execute(executor: Executor, limits: PriceLimits): Next {
  return async (run) => {
    const { operation, context, record, params } = run;
    if (!operation || !context) throw new Error('execute needs the operation and its context (the operation and context stages)');
    const result: ExecutionResult = await executor.execute(operation, context, params.variables ?? undefined);
    context.budget.finish();
    const errors = result.errors && result.errors.length > 0 ? record.format(result.errors) : null;
    const wantsCost = params.extensions?.['cost'] === true;
    const answer: FormattedExecutionResult = {};
    if (errors) answer.errors = errors.formatted;
    if (result.data !== undefined) answer.data = result.data;
    if (wantsCost && result.data !== undefined) answer.extensions = { cost: costReport(run.estimate, context, limits) };
    // Some reads were answered from cached copies past their freshness (an API's breaker open): say how old.
    if (record.calls.stale) answer.extensions = { ...answer.extensions, staleUpstream: { ...record.calls.stale } };
    return { result: answer, requestError: result.data === undefined, ...(errors?.status !== undefined ? { status: errors.status } : {}) };
  };
}
