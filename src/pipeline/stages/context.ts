/**
 * "Context": the operation's context for the stages after it (fresh loaders, the running budget
 * and its deadline, started here), given back on every path once the answer is made. A budget
 * crossed while the stages after it ran (OPERATION_BUDGET_EXCEEDED, a refused turn) is the
 * operation's refusal.
 */
import type { GatewayContext } from '../../context';
import type { Cancellation } from '../../core/cancellation';
import { LimitExceededError } from '../../errors/codes';
import type { OperationSpan } from '../../tracing';
import type { CallCounter } from '../../context';
import type { Caller } from '../types';
import { refusal, type Stage } from './stage';

export interface ContextMaker {
  createContext(caller: Caller, cancellation: Cancellation, calls: CallCounter, trace: OperationSpan | undefined): GatewayContext;
  releaseContext(context: GatewayContext): void;
}

export function operationContext(maker: ContextMaker): Stage {
  return {
    name: 'context',
    wrap: (next) => async (run) => {
      const { record } = run;
      const context = maker.createContext(run.caller, record.cancellation, record.calls, record.trace);
      run.context = context;
      try {
        context.budget.startDeadline();
        return await next(run);
      } catch (error) {
        if (error instanceof LimitExceededError) return refusal(record, [error]);
        throw error;
      } finally {
        context.budget.finish();
        maker.releaseContext(context);
      }
    },
  };
}
