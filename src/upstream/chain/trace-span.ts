/**
 * "Trace span": when the operation is traced, each attempt that leaves gets a child span of the
 * operation's span (src/tracing), whose `traceparent` goes out with the attempt. The retry step
 * opens it after the attempt's charges, so a refused attempt has no span. Each span carries its
 * API's breaker state (`netgraph.upstream.breaker`); a call answered at once because its API was
 * closed gets a span too (no request behind it), with `open` and the error code.
 */
import type { Interceptor, UpstreamCall } from './call';

export const traceSpan: Interceptor = {
  name: 'trace span',
  wrap: (next) => {
    return async (call) => {
      const trace = call.caller.trace;
      if (trace === undefined) return next(call);
      const { service, method, path } = call.target.info;
      call.watchers.push((attempt) => trace.startUpstream({ service, method, path, attempt: attempt.number, breaker: call.apiState ?? undefined }));
      try {
        return await next(call);
      } catch (error) {
        if (failedFast(call)) trace.startUpstream({ service, method, path, attempt: 1, breaker: 'open' }).end({ status: null, errorCode: codeOf(error) });
        throw error;
      }
    };
  },
};

/** The breaker step answered at once (it sets `open` only when it sends nothing). */
function failedFast(call: UpstreamCall): boolean {
  return call.apiState === 'open';
}

function codeOf(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}
