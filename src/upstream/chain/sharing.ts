/**
 * "In-flight sharing": the slot where identical concurrent GETs with the same credential
 * (`call.credentialKey`) would share one request. Empty for now: every call passes on. A call that
 * shares another's answer never reaches the retry step, so it is charged nothing.
 */
import { passThrough, type Interceptor } from './call';
import type { ChainDeps } from './deps';

export function sharing(_deps: ChainDeps): Interceptor {
  return passThrough('in-flight sharing');
}
