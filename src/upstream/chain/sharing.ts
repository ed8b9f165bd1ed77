/**
 * "In-flight sharing": identical concurrent GETs with the same credential (`call.credentialKey`)
 * share one request, ../cache/sharing-step.ts. A call that shares another's answer never reaches
 * the retry step, so it is charged nothing.
 */
import { sharingStep } from '../cache/sharing-step';
import { passThrough, type Interceptor } from './call';
import type { ChainDeps } from './deps';

export function sharing(deps: ChainDeps): Interceptor {
  const reads = deps.reads;
  if (reads === undefined || !reads.sharing) return passThrough('in-flight sharing');
  return sharingStep(reads.cache);
}
