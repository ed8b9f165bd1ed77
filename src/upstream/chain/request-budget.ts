/**
 * "Request budget": leaves the operation's charge on the call: each attempt that leaves spends
 * one call of the operation's budget (src/limits/budget.ts; refused unsent when none is left) and
 * counts in the request's `calls` (its log line). Answers that need no request cost nothing.
 */
import type { Interceptor } from './call';

export const requestBudget: Interceptor = {
  name: 'request budget',
  wrap: (next) => (call) => {
    const { budget, calls } = call.caller;
    if (budget !== undefined || calls !== undefined) {
      call.charges.push(() => {
        budget?.spendCall();
        if (calls) calls.count += 1;
      });
    }
    return next(call);
  },
};
