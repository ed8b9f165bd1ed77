/**
 * "Price": the operation's estimated cost from its document and variables alone; over a limit it
 * is refused (COST_ESTIMATED_TOO_EXPENSIVE) before anything runs, so a refusal costs no upstream
 * call. The estimate stays on the run for the heavy-operation turn and the cost report.
 */
import { GraphQLError, type GraphQLSchema } from 'graphql';
import { CostTooExpensiveError } from '../../errors/codes';
import type { PriceLimits } from '../../limits/limits';
import { priceOperation } from '../../limits/price';
import type { Stage } from './stage';

export function price(schema: GraphQLSchema, limits: PriceLimits): Stage {
  return {
    name: 'price',
    admit(run) {
      const operation = run.operation;
      if (!operation) return null;
      try {
        run.estimate = priceOperation(schema, operation.document, operation.name, run.params.variables ?? undefined, limits);
        return null;
      } catch (error) {
        if (!(error instanceof CostTooExpensiveError)) throw error;
        return [new GraphQLError(error.message, { originalError: error })];
      }
    },
  };
}
