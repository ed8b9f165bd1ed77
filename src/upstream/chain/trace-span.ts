/**
 * "Trace span": when the operation is traced, each attempt that leaves gets a child span of the
 * operation's span (src/tracing), whose `traceparent` goes out with the attempt. The retry step
 * opens it after the attempt's charges, so a refused attempt has no span.
 */
import type { Interceptor } from './call';

export const traceSpan: Interceptor = {
  name: 'trace span',
  wrap: (next) => (call) => {
    const trace = call.caller.trace;
    if (trace !== undefined) {
      const { service, method, path } = call.target.info;
      call.watchers.push((attempt) => trace.startUpstream({ service, method, path, attempt }));
    }
    return next(call);
  },
};
