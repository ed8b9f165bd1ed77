/**
 * One log line per GraphQL request: operation, duration, upstream calls, error codes.
 * Tokens never reach this module: it sees only the operation name, counters and error codes.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import type { GatewayContext } from '../context';

export type LogFn = (line: string) => void;

/** How a GraphQL operation arrived: HTTP, a WebSocket (`graphql-transport-ws`) or Server-Sent Events. */
export type Transport = 'http' | 'ws' | 'sse';

export interface RequestSummary {
  transport: Transport;
  operationName: string | null;
  durationMs: number;
  upstreamCalls: number;
  errorCodes: readonly string[];
  status?: number;
}

export function formatRequestLine(s: RequestSummary): string {
  const parts = [
    `graphql ${s.transport}`,
    `op=${s.operationName ?? '-'}`,
    ...(s.status !== undefined ? [`status=${s.status}`] : []),
    `ms=${s.durationMs.toFixed(1)}`,
    `upstream_calls=${s.upstreamCalls}`,
    `errors=${s.errorCodes.length === 0 ? '-' : s.errorCodes.join(',')}`,
  ];
  return parts.join(' ');
}

export function errorCodes(errors: readonly GraphQLFormattedError[] | undefined): string[] {
  return (errors ?? []).map((e) => (typeof e.extensions?.['code'] === 'string' ? e.extensions['code'] : 'UNKNOWN'));
}

export interface RequestFacts {
  operationName: string | null;
  errorCodes: string[];
}

/**
 * Records operation name and error codes of each HTTP request into `sink`, keyed by the request's
 * call counter: Apollo shallow-clones the context object, but nested objects keep their identity.
 */
export function requestLogPlugin(sink: WeakMap<GatewayContext['calls'], RequestFacts>): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, operationName, response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : response.body.initialResult.errors;
          sink.set(contextValue.calls, { operationName: operationName ?? null, errorCodes: errorCodes(errors) });
        },
      };
    },
  };
}
