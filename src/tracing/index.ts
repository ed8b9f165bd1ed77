/**
 * OpenTelemetry traces over OTLP/HTTP JSON, hand-written (src/tracing/README.md says why): one
 * server span per GraphQL operation over HTTP, one client span per upstream attempt, W3C
 * `traceparent` in and out. With no endpoint configured nothing here is created: callers hold
 * `null` and skip every tracing branch.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'undici';

/** What the HTTP layer records on one upstream attempt (never a query string, header or body). */
export interface UpstreamSpanStart {
  service: string;
  method: string;
  /** Path without the query string. */
  path: string;
  /** 1 for the first attempt; retries count up. */
  attempt: number;
}

/** One upstream attempt's span. */
export interface UpstreamSpan {
  /** The `traceparent` header value naming this span, sent with the request. */
  readonly traceparent: string;
  end(result: { status: number | null; errorCode?: string | undefined }): void;
}

/** The span of one GraphQL operation; the HTTP layer opens its upstream spans under it. */
export interface OperationSpan {
  startUpstream(start: UpstreamSpanStart): UpstreamSpan;
  end(result: OperationResult): void;
}

export interface OperationResult {
  operationName: string | null;
  operationType: string | null;
  outcome: string;
  httpStatus: number;
  upstreamCalls: number;
  errorCodes: readonly string[];
}

export interface Tracer {
  /** Opens an operation span, a child of the caller's `traceparent` when it carries a valid one. */
  startOperation(traceparent: string | string[] | undefined): OperationSpan;
  /** Exports what is still queued and stops the timer. */
  close(): Promise<void>;
}

export interface TracerOptions {
  /** Full URL spans are POSTed to (`…/v1/traces`). */
  tracesUrl: string;
  serviceName: string;
  serviceVersion: string;
  /** Pause between two exports. @default 1000 */
  flushIntervalMs?: number;
  /** Spans per export; a full batch is sent at once. @default 512 */
  maxBatch?: number;
  /** Spans kept while the collector is slow or away; past it new spans are dropped (memory stays bounded). @default 4096 */
  maxQueue?: number;
  /** Told once when an export fails (the gateway logs it); spans of a failed export are dropped. */
  onExportError?: (error: unknown) => void;
}

type AttributeValue = string | number | boolean | readonly string[];

interface FinishedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  name: string;
  kind: SpanKind;
  startNs: bigint;
  endNs: bigint;
  attributes: Record<string, AttributeValue>;
  error: boolean;
}

/** OTLP span kinds. */
const enum SpanKind {
  SERVER = 2,
  CLIENT = 3,
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$/;
const ZERO_TRACE = '0'.repeat(32);
const ZERO_SPAN = '0'.repeat(16);

/** The trace and parent span of a valid W3C `traceparent`, else null (then a new trace starts). */
export function parseTraceparent(value: string | string[] | undefined): { traceId: string; spanId: string } | null {
  // Two traceparent headers are ambiguous: the spec says to ignore them both.
  if (typeof value !== 'string') return null;
  const m = TRACEPARENT.exec(value.trim().toLowerCase());
  if (!m) return null;
  const [, version, traceId = '', spanId = ''] = m;
  if (version === 'ff' || traceId === ZERO_TRACE || spanId === ZERO_SPAN) return null;
  return { traceId, spanId };
}

/** The span is always sampled: the gateway records every operation it traces (flag 01). */
function traceparentOf(traceId: string, spanId: string): string {
  return `00-${traceId}-${spanId}-01`;
}

const newId = (bytes: number): string => randomBytes(bytes).toString('hex');
/** Wall-clock nanoseconds with sub-millisecond resolution (Date.now() alone is too coarse for upstream spans). */
const nowNs = (): bigint => BigInt(Math.round((performance.timeOrigin + performance.now()) * 1000)) * 1000n;

export function createTracer(options: TracerOptions): Tracer {
  const maxBatch = options.maxBatch ?? 512;
  const maxQueue = options.maxQueue ?? 4096;
  let queue: FinishedSpan[] = [];
  let exporting: Promise<void> = Promise.resolve();
  let reportedError = false;
  let closed = false;

  const timer = setInterval(() => void flush(), options.flushIntervalMs ?? 1000);
  // The exporter never keeps the process alive.
  timer.unref();

  function record(span: FinishedSpan): void {
    if (closed || queue.length >= maxQueue) return;
    queue.push(span);
    if (queue.length >= maxBatch) void flush();
  }

  /** Exports run one after another, so batches arrive in order and never pile up connections. */
  function flush(): Promise<void> {
    exporting = exporting.then(async () => {
      while (queue.length > 0) {
        const batch = queue.slice(0, maxBatch);
        queue = queue.slice(maxBatch);
        try {
          const res = await request(options.tracesUrl, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(encode(batch, options)),
            headersTimeout: 10_000,
            bodyTimeout: 10_000,
          });
          await res.body.text();
          if (res.statusCode >= 300) throw new Error(`collector answered ${res.statusCode}`);
        } catch (error) {
          if (!reportedError) options.onExportError?.(error);
          reportedError = true;
        }
      }
    });
    return exporting;
  }

  function startOperation(traceparent: string | string[] | undefined): OperationSpan {
    const parent = parseTraceparent(traceparent);
    const traceId = parent?.traceId ?? newId(16);
    const spanId = newId(8);
    const startNs = nowNs();
    return {
      startUpstream(start) {
        const childId = newId(8);
        const childStart = nowNs();
        return {
          traceparent: traceparentOf(traceId, childId),
          end({ status, errorCode }) {
            record({
              traceId,
              spanId: childId,
              parentSpanId: spanId,
              name: `${start.method} ${start.service}`,
              kind: SpanKind.CLIENT,
              startNs: childStart,
              endNs: nowNs(),
              attributes: {
                'netgraph.upstream.service': start.service,
                'http.request.method': start.method,
                'url.path': start.path,
                ...(status !== null ? { 'http.response.status_code': status } : {}),
                ...(start.attempt > 1 ? { 'http.request.resend_count': start.attempt - 1 } : {}),
                ...(errorCode !== undefined ? { 'error.type': errorCode } : {}),
              },
              error: errorCode !== undefined,
            });
          },
        };
      },
      end(result) {
        record({
          traceId,
          spanId,
          parentSpanId: parent?.spanId,
          name: result.operationName ?? 'graphql.operation',
          kind: SpanKind.SERVER,
          startNs,
          endNs: nowNs(),
          attributes: {
            ...(result.operationType !== null ? { 'graphql.operation.type': result.operationType } : {}),
            ...(result.operationName !== null ? { 'graphql.operation.name': result.operationName } : {}),
            'netgraph.outcome': result.outcome,
            'http.response.status_code': result.httpStatus,
            'netgraph.upstream_calls': result.upstreamCalls,
            ...(result.errorCodes.length > 0 ? { 'netgraph.error_codes': [...new Set(result.errorCodes)] } : {}),
          },
          error: result.outcome !== 'ok',
        });
      },
    };
  }

  return {
    startOperation,
    async close() {
      clearInterval(timer);
      await flush();
      closed = true;
    },
  };
}

/** The OTLP/HTTP JSON body (ids as hex, times as decimal strings: the protocol's JSON mapping). */
function encode(spans: readonly FinishedSpan[], options: TracerOptions): unknown {
  return {
    resourceSpans: [
      {
        resource: { attributes: attributes({ 'service.name': options.serviceName, 'service.version': options.serviceVersion }) },
        scopeSpans: [
          {
            scope: { name: 'netgraph' },
            spans: spans.map((s) => ({
              traceId: s.traceId,
              spanId: s.spanId,
              ...(s.parentSpanId !== undefined ? { parentSpanId: s.parentSpanId } : {}),
              name: s.name,
              kind: s.kind,
              startTimeUnixNano: s.startNs.toString(),
              endTimeUnixNano: s.endNs.toString(),
              attributes: attributes(s.attributes),
              // 2 = ERROR, 0 = UNSET (OTLP status codes).
              status: { code: s.error ? 2 : 0 },
            })),
          },
        ],
      },
    ],
  };
}

function attributes(values: Record<string, AttributeValue>): unknown[] {
  return Object.entries(values).map(([key, value]) => ({ key, value: anyValue(value) }));
}

function anyValue(value: AttributeValue): unknown {
  if (typeof value === 'string') return { stringValue: value };
  if (typeof value === 'boolean') return { boolValue: value };
  if (typeof value === 'number') return Number.isInteger(value) ? { intValue: String(value) } : { doubleValue: value };
  return { arrayValue: { values: value.map((v) => ({ stringValue: v })) } };
}
