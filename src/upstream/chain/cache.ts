/**
 * "Cache": the slot of the private HTTP cache per credential (keyed by `call.credentialKey`). Empty
 * for now: every call passes on. A hit answers without reaching the retry step, so it is charged
 * nothing (caller-quota.ts, request-budget.ts); it sets `call.outcome`.
 */
import { passThrough, type Interceptor } from './call';
import type { ChainDeps } from './deps';

export function cache(_deps: ChainDeps): Interceptor {
  return passThrough('cache');
}
