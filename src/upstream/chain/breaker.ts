/**
 * "Breaker and window": the slot of the per-API circuit breaker and Retry-After window. Empty for
 * now: every call passes on.
 */
import { passThrough, type Interceptor } from './call';
import type { ChainDeps } from './deps';

export function breaker(_deps: ChainDeps): Interceptor {
  return passThrough('breaker and window');
}
