/**
 * One structured JSON log line (pino) per GraphQL operation, whatever its door: request id, transport, operation,
 * status, duration, upstream calls, error codes. Tokens never reach this module: it sees only the
 * operation name, counters and error codes.
 */
import { pino, stdTimeFunctions, type Logger } from 'pino';
import type { Door } from './types';

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

/** How a GraphQL operation arrived (the log line's `transport`). */
export type Transport = Door;

export interface RequestSummary {
  requestId: string;
  transport: Transport;
  operationName: string | null;
  durationMs: number;
  upstreamCalls: number;
  /** Reads that sent no request of their own: cache hits, calls shared with another request, 304 revalidations (also in `upstreamCalls`). */
  upstreamReads?: { hit: number; shared: number; revalidated: number };
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
      ...(s.upstreamReads ? { upstreamReads: s.upstreamReads } : {}),
      errorCodes: s.errorCodes,
      ...(s.waitedMs ? { heavyWaitMs: Math.round(s.waitedMs * 10) / 10 } : {}),
    },
    'graphql',
  );
}

export interface RequestFacts {
  operationName: string | null;
  /** `query`, `mutation` or `subscription` once the document parsed (the operation span's attribute). */
  operationType?: string;
  errorCodes: string[];
  /** The limits that refused or stopped the operation (`extensions.cost.limit`, `extensions.limit`). */
  limits: Array<{ code: string; limit: string }>;
}
