/**
 * Traces of the gateway's operations, through the OpenTelemetry SDK (otel.ts). This module is
 * the small interface the rest of the gateway uses: one span per operation, whatever door it came
 * in by, and a child span per upstream attempt. The SDK is loaded by `createTracer` only, so a
 * gateway without an OTLP endpoint never loads it (callers hold `null` and skip every branch).
 */
import type { TracingSettings } from './settings';
import type * as Otel from './otel';

export type { TracingSettings } from './settings';

/** How an operation reached the gateway. */
import type { Door } from '../core/doors';
export type { Door };

/** Request headers as node:http gives them (names lower-case); only `traceparent` and `tracestate` are read. */
export type IncomingHeaders = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface OperationStart {
  door: Door;
  /**
   * The headers that carry the caller's trace context: the request's (HTTP, SSE, MCP) or the
   * WebSocket upgrade's. A valid `traceparent` makes the operation's span its child, sampled or not
   * as the caller decided (with a parent-based sampler); `tracestate` is kept and passed on.
   */
  headers: IncomingHeaders;
}

/** What the operation's span records when it ends (never the document, variables or a header). */
export interface OperationFacts {
  operationName: string | null;
  /** `query`, `mutation` or `subscription`; null when the request never got that far. */
  operationType: string | null;
  /** As in `netgraph_graphql_operations_total` (`ok`, `errors`, `refused`, …); anything else than `ok` marks the span as an error. */
  outcome: string;
  /** The answer's HTTP status, for doors that have one per operation. */
  httpStatus?: number | null;
  upstreamCalls: number;
  /** Reads answered without a request of their own (cache hits, shared calls) and 304 revalidations. */
  upstreamReads?: { hit: number; shared: number; revalidated: number };
  errorCodes: readonly string[];
}

/** What the HTTP layer records of one upstream attempt (never a query string, header or body). */
export interface UpstreamSpanStart {
  service: string;
  method: string;
  /** Path without the query string; the span shows it as a template (path-template.ts). */
  path: string;
  /** 1 for the first attempt; retries count up. */
  attempt: number;
  /** The API's circuit breaker when the call was admitted (`closed`, `probe`), or `open` for a call answered at once without a request. */
  breaker?: string | undefined;
}

/** One upstream attempt's span. */
export interface UpstreamSpan {
  /** `traceparent` (and `tracestate` when the trace has one) naming this span: sent with the request. */
  readonly headers: Readonly<Record<string, string>>;
  end(result: { status: number | null; errorCode?: string | undefined }): void;
}

/** The span of one operation; the HTTP layer opens its upstream spans under it (`CallerOptions.trace`). */
export interface OperationSpan {
  startUpstream(start: UpstreamSpanStart): UpstreamSpan;
  /** Ends the span; later calls do nothing. */
  end(facts: OperationFacts): void;
}

export interface Tracer {
  startOperation(start: OperationStart): OperationSpan;
  /** Exports what is still queued (bounded by the export timeout) and stops. */
  close(): Promise<void>;
}

export interface TracerOptions {
  serviceVersion: string;
  /** Told once when an export fails (after the exporter's own retries); that batch is dropped. */
  onExportError?: (error: unknown) => void;
}

export function createTracer(settings: TracingSettings, options: TracerOptions): Tracer {
  // Here and only here: an unconfigured gateway (and the benchmark) never loads the SDK.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const otel = require('./otel') as typeof Otel;
  return otel.createOtelTracer(settings, options);
}
