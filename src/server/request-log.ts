/**
 * One structured JSON log line (pino) per GraphQL request: request id, transport, operation,
 * status, duration, upstream calls, error codes. Tokens never reach this module: it sees only the
 * operation name, counters and error codes.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import type { GraphQLFormattedError } from 'graphql';
import { pino, stdTimeFunctions, type Logger } from 'pino';
import type { GatewayContext } from '../context';

/** Where log lines go (one JSON object per line, without the newline). */
export type LogFn = (line: string) => void;
export type { Logger };

/** A pino logger writing each line to `sink` (stdout in production, an array in tests); null: a silent one. */
export function createLogger(sink: LogFn | null): Logger {
  return pino(
    { base: null, timestamp: stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) }, ...(sink === null ? { level: 'silent' } : {}) },
    { write: (line: string) => sink?.(line.trimEnd()) },
  );
}

/** The caller's `x-request-id` when it is a plain token (echoed back and logged), else a fresh one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[\w.:-]{1,128}$/.test(given) ? given : randomUUID();
}

/** How a GraphQL operation arrived: HTTP, a WebSocket (`graphql-transport-ws`), Server-Sent Events or an MCP tool call (src/doors/mcp). */
export type Transport = 'http' | 'ws' | 'sse' | 'mcp';

export interface RequestSummary {
  requestId: string;
  transport: Transport;
  operationName: string | null;
  durationMs: number;
  upstreamCalls: number;
  errorCodes: readonly string[];
  status?: number;
  /** How long a heavy operation waited for its turn (src/limits/admission.ts); logged as `heavyWaitMs` when it waited. */
  waitedMs?: number;
}

/** Logs one finished request (level `info`, message `graphql`). */
export function logRequest(logger: Logger, s: RequestSummary): void {
  if (!logger.isLevelEnabled('info')) return;
  logger.info(
    {
      requestId: s.requestId,
      transport: s.transport,
      operationName: s.operationName,
      ...(s.status !== undefined ? { status: s.status } : {}),
      durationMs: Math.round(s.durationMs * 10) / 10,
      upstreamCalls: s.upstreamCalls,
      errorCodes: s.errorCodes,
      ...(s.waitedMs ? { heavyWaitMs: Math.round(s.waitedMs * 10) / 10 } : {}),
    },
    'graphql',
  );
}

export function errorCodes(errors: readonly GraphQLFormattedError[] | undefined): string[] {
  return (errors ?? []).map((e) => (typeof e.extensions?.['code'] === 'string' ? e.extensions['code'] : 'UNKNOWN'));
}

export interface RequestFacts {
  operationName: string | null;
  /** `query`, `mutation` or `subscription` once the document parsed (the operation span's attribute). */
  operationType?: string;
  errorCodes: string[];
  /** The limits that refused or stopped the operation (`extensions.cost.limit`, `extensions.limit`). */
  limits: Array<{ code: string; limit: string }>;
}

/** Which limit each limit error names. */
export function limitsOf(errors: readonly GraphQLFormattedError[] | undefined): RequestFacts['limits'] {
  const found: RequestFacts['limits'] = [];
  for (const e of errors ?? []) {
    const code = e.extensions?.['code'];
    const cost = e.extensions?.['cost'];
    const limit = code === 'COST_ESTIMATED_TOO_EXPENSIVE' && typeof cost === 'object' && cost !== null ? (cost as Record<string, unknown>)['limit'] : e.extensions?.['limit'];
    if ((code === 'COST_ESTIMATED_TOO_EXPENSIVE' || code === 'OPERATION_BUDGET_EXCEEDED') && typeof limit === 'string') found.push({ code, limit });
  }
  return found;
}

/**
 * Records operation name and error codes of each HTTP request into `sink`, keyed by the request's
 * call counter: Apollo shallow-clones the context object, but nested objects keep their identity.
 */
export function requestLogPlugin(sink: WeakMap<GatewayContext['calls'], RequestFacts>): ApolloServerPlugin<GatewayContext> {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ contextValue, operationName, operation, response }) {
          const errors = response.body.kind === 'single' ? response.body.singleResult.errors : response.body.initialResult.errors;
          sink.set(contextValue.calls, {
            operationName: operationName ?? null,
            ...(operation ? { operationType: operation.operation } : {}),
            errorCodes: errorCodes(errors),
            limits: limitsOf(errors),
          });
        },
      };
    },
  };
}
