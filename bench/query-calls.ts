/**
 * The upstream calls one execution of a query caused: every call the sandbox counted but the
 * caller check (identity/v1 `/organization`), which the gateway makes once per token and caches
 * across requests (CALLER_VERIFY_TTL_MS): a cost of the token, not of the query.
 */
import type { CallCounts } from '../src/sandbox';

const IDENTITY_ROUTE = 'GET /identity/v1/organization';

/** Whether a recorded call (a request or its timing) is the caller check, which `queryCalls` leaves out. */
export function isCallerCheck(call: { readonly method: string; readonly route: string }): boolean {
  return `${call.method} ${call.route}` === IDENTITY_ROUTE;
}

export function withoutCallerCheck(counts: CallCounts): CallCounts {
  const { [IDENTITY_ROUTE]: check = 0, ...byRoute } = counts.byRoute;
  return { total: counts.total - check, byRoute };
}

export function queryCalls(counts: CallCounts): number {
  return withoutCallerCheck(counts).total;
}
