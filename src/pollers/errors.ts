/**
 * What a failed poll means when the kind does not say otherwise: a 401 ends every subscriber at
 * once, transient failures are tried again (up to the registry's limit), anything else ends them.
 */
import { ErrorCode } from '../errors/codes';
import type { PollErrorDecision } from './types';

/** Failures that may pass by themselves: worth polling again after a pause. */
const TRANSIENT: ReadonlySet<string> = new Set([ErrorCode.UPSTREAM_ERROR, ErrorCode.UPSTREAM_TIMEOUT, ErrorCode.UPSTREAM_UNAVAILABLE, ErrorCode.RATE_LIMITED]);

/** The `extensions.code` an error will carry: `UpstreamError.code`, or a GraphQLError's `extensions.code`; null for anything else. */
export function errorCodeOf(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  if ('code' in error && typeof error.code === 'string') return error.code;
  if ('extensions' in error && typeof error.extensions === 'object' && error.extensions !== null && 'code' in error.extensions) {
    return typeof error.extensions.code === 'string' ? error.extensions.code : null;
  }
  return null;
}

export function isTransient(error: unknown): boolean {
  const code = errorCodeOf(error);
  return code !== null && TRANSIENT.has(code);
}

export function classifyPollError(error: unknown): PollErrorDecision<never> {
  return isTransient(error) ? { action: 'retry' } : { action: 'fail', error };
}
