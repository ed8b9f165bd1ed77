/**
 * A poller's failure as JSON, so that followers on other replicas end their subscribers with the
 * same `extensions.code` (and, for an upstream failure, the same `extensions.upstream`).
 */
import { ErrorCode, GatewayError, UpstreamError, type UpstreamCallInfo, type UpstreamService } from '../../errors/codes';
import { errorCodeOf } from '../../pollers';
import { Fields, isObject } from '../../core/parse';

const CODES: ReadonlySet<string> = new Set(Object.values(ErrorCode));
const SERVICES: ReadonlySet<string> = new Set<UpstreamService>(['auth-v1', 'rest-v1', 'identity-v1', 'core-v2', 'search']);

const isCode = (value: string): value is ErrorCode => CODES.has(value);
const isService = (value: string): value is UpstreamService => SERVICES.has(value);

export function encodeError(error: unknown): unknown {
  const code = errorCodeOf(error);
  const message = error instanceof Error ? error.message : 'Unexpected error.';
  if (error instanceof UpstreamError) return { code, message, upstream: error.upstream, outcomeUnknown: error.outcomeUnknown };
  // Anything without a code is a bug: masked as it would be on the replica that met it.
  return code !== null && isCode(code) ? { code, message } : { code: ErrorCode.INTERNAL_SERVER_ERROR, message: 'Unexpected error.' };
}

export function decodeError(json: unknown): Error {
  const f = Fields.of(json, 'PollError');
  const code = f.str('code') ?? '';
  const message = f.str('message') ?? 'Unexpected error.';
  if (!isCode(code)) return new GatewayError(ErrorCode.INTERNAL_SERVER_ERROR, 'Unexpected error.');
  const upstream = f.raw('upstream');
  if (isObject(upstream)) {
    const u = Fields.of(upstream, 'PollErrorUpstream');
    const service = u.str('service') ?? '';
    if (isService(service)) {
      const info: UpstreamCallInfo = { service, method: u.str('method') ?? 'GET', path: u.str('path') ?? '', status: u.int('status') };
      return new UpstreamError(code, message, info, { outcomeUnknown: f.bool('outcomeUnknown') === true });
    }
  }
  return new GatewayError(code, message);
}
