/**
 * The Apollo Server plugin that applies the limits to GraphQL over HTTP: the operation is priced
 * once it is resolved (before any resolver runs, so a refusal costs zero upstream calls), a heavy
 * one waits for its turn (admission.ts), its deadline starts with the request, and the estimated
 * and actual cost are added to the response's `extensions.cost` when the client asks (request
 * extension `"cost": true`, or the header `netgraph-cost: true`).
 */
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { CostTooExpensiveError } from '../errors/codes';
import type { CostEstimate } from './cost';
import type { HeavyOperationGate } from './admission';
import type { OperationBudget } from './budget';
import type { PriceLimits } from './limits';
import { priceOperation } from './price';

/** Header a client sets to get `extensions.cost` (the IDE sets it). */
export const COST_HEADER = 'netgraph-cost';

interface WithBudget {
  budget: OperationBudget;
}

/**
 * Status of a request error (no data) by the GraphQL-over-HTTP spec: a client that accepts
 * `application/graphql-response+json` gets 4xx, one that accepts only `application/json` gets 200.
 */
export function requestErrorStatus(accept: string | undefined, status = 400): number {
  if (accept === undefined || accept.trim() === '' || /application\/graphql-response\+json|\*\/\*/i.test(accept)) return status;
  return /application\/json/i.test(accept) ? 200 : status;
}

/** Whether the client asked for `extensions.cost`: the request extension `"cost": true`, or the header. */
export function costAsked(extensions: Readonly<Record<string, unknown>> | undefined, header: string | undefined): boolean {
  return extensions?.['cost'] === true || /^(1|true)$/i.test(header ?? '');
}

export function costReport(estimate: CostEstimate | null, budget: OperationBudget, limits: PriceLimits): Record<string, unknown> {
  return {
    estimated: estimate,
    actual: { ...budget.usage },
    max: {
      estimated: { nodes: limits.maxNodes, upstreamCalls: limits.maxUpstreamCalls, depth: limits.maxDepth, aliases: limits.maxAliases },
      actual: { ...budget.limits },
    },
  };
}

export function limitsPlugin<C extends WithBudget>(limits: PriceLimits, gate: HeavyOperationGate): ApolloServerPlugin<C> {
  return {
    async requestDidStart({ contextValue }) {
      contextValue.budget.startDeadline();
      let estimate: CostEstimate | null = null;
      return {
        async didResolveOperation({ schema, document, request, operationName }) {
          try {
            estimate = priceOperation(schema, document, operationName ?? request.operationName, request.variables, limits);
          } catch (error) {
            if (!(error instanceof CostTooExpensiveError)) throw error;
            const status = requestErrorStatus(request.http?.headers.get('accept'));
            throw new GraphQLError(error.message, { originalError: error, extensions: { http: { status } } });
          }
          // A heavy operation waits here for its turn (Apollo awaits this hook before executing).
          await gate.admit(estimate, contextValue.budget);
        },
        async willSendResponse({ request, response }) {
          const budget = contextValue.budget;
          budget.finish();
          if (!costAsked(request.extensions, request.http?.headers.get(COST_HEADER)) || response.body.kind !== 'single') return;
          const result = response.body.singleResult;
          result.extensions = { ...result.extensions, cost: costReport(estimate, budget, limits) };
        },
      };
    },
  };
}
