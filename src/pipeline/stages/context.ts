/**
 * "Context": the operation's context for the stages after it (fresh loaders, the running budget
 * and its deadline, started here), given back on every path once the answer is made. A budget
 * crossed while the stages after it ran (OPERATION_BUDGET_EXCEEDED, a refused turn) is the
 * operation's refusal. An answer in parts keeps its context (deadline, heavy slot, loaders) until
 * its last part was read or its client left.
 */
import type { GatewayContext } from '../../context';
import type { Cancellation } from '../../core/cancellation';
import { LimitExceededError } from '../../errors/codes';
import type { OperationSpan } from '../../tracing';
import type { CallCounter } from '../../context';
import type { Caller } from '../types';
import { isStream, refusal, whenEnded, type Stage } from './stage';

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
      const giveBack = (): void => {
        context.budget.finish();
        maker.releaseContext(context);
      };
      let kept = false;
      try {
        context.budget.startDeadline();
        const outcome = await next(run);
        if (!isStream(outcome)) return outcome;
        kept = true;
        return whenEnded(outcome, giveBack);
      } catch (error) {
        if (error instanceof LimitExceededError) return refusal(record, [error]);
        throw error;
      } finally {
        if (!kept) giveBack();
      }
    },
  };
}
