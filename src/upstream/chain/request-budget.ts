/**
 * "Request budget": leaves the operation's charge on the call: each attempt that leaves spends
 * one call of the operation's budget (src/limits/budget.ts; refused unsent when none is left) and
 * counts in the request's `calls` (its log line; a change also in `calls.changes`, which tells the
 * idempotency stage whether the platform may have been changed). Answers that need no request cost nothing.
 */
import type { Interceptor } from './call';

export const requestBudget: Interceptor = {
  name: 'request budget',
  wrap: (next) => (call) => {
    const { budget, calls } = call.caller;
    if (budget !== undefined || calls !== undefined) {
      call.charges.push(() => {
        budget?.spendCall();
        if (calls) {
          calls.count += 1;
          if (call.request.change) calls.changes = (calls.changes ?? 0) + 1;
        }
      });
    }
    return next(call);
  },
};
