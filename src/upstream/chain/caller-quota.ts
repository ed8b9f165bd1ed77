/**
 * "Caller quota": leaves the caller's quota charge on the call (`CALLER_UPSTREAM_CALLS_PER_MINUTE`,
 * src/state/call-quota.ts). It is charged by the retry step when the first attempt is about to
 * leave, so an answer that needs no request (a cache hit, a shared call) costs no quota; the
 * retries of a call count with its first attempt.
 */
import type { Interceptor } from './call';

export const callerQuota: Interceptor = {
  name: 'caller quota',
  wrap: (next) => (call) => {
    const spend = call.scope.spendQuota;
    if (spend !== null) call.charges.push((attempt) => (attempt === 1 ? spend() : undefined));
    return next(call);
  },
};
