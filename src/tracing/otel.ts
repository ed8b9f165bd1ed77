/**
 * The tracer behind index.ts, on the OpenTelemetry SDK: a NodeTracerProvider of its own (never
 * registered as the process's global, so each gateway keeps its own and nothing else is patched),
 * the sampler named by `OTEL_TRACES_SAMPLER`, a batch span processor and the OTLP/HTTP exporter
 * (protobuf or JSON). Contexts are passed explicitly: an operation's span travels in its
 * GatewayContext to the HTTP layer, as its budget does, so no context manager is needed.
 * Only index.ts's `createTracer` loads this module.
 */
import {
  defaultTextMapSetter,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type TextMapGetter,
  type Tracer as ApiTracer,
} from '@opentelemetry/api';
import { ExportResultCode, W3CTraceContextPropagator, type ExportResult } from '@opentelemetry/core';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { CompressionAlgorithm } from '@opentelemetry/otlp-exporter-base';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import {
  AlwaysOffSampler,
  AlwaysOnSampler,
  BatchSpanProcessor,
  NodeTracerProvider,
  ParentBasedSampler,
  TraceIdRatioBasedSampler,
  type ReadableSpan,
  type Sampler,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-node';
import type { Door, IncomingHeaders, OperationFacts, OperationSpan, OperationStart, Tracer, TracerOptions, UpstreamSpan, UpstreamSpanStart } from './index';
import { pathTemplate } from './path-template';
import type { TracingSettings } from './settings';

const propagator = new W3CTraceContextPropagator();

const headerGetter: TextMapGetter<IncomingHeaders> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return value === undefined || typeof value === 'string' ? value : [...value];
  },
};

export function createOtelTracer(settings: TracingSettings, options: TracerOptions): Tracer {
  const exporterConfig = {
    url: settings.tracesUrl,
    headers: { ...settings.headers },
    compression: settings.compression === 'gzip' ? CompressionAlgorithm.GZIP : CompressionAlgorithm.NONE,
    // The exporter retries 429, 502, 503 and 504 itself (with backoff, within this timeout).
    timeoutMillis: settings.timeoutMs,
  };
  const exporter = settings.protocol === 'http/json' ? new JsonTraceExporter(exporterConfig) : new ProtobufTraceExporter(exporterConfig);
  const provider = new NodeTracerProvider({
    resource: defaultResource().merge(
      resourceFromAttributes({ ...settings.resourceAttributes, 'service.name': settings.serviceName, 'service.version': options.serviceVersion }),
    ),
    sampler: samplerOf(settings.sampler),
    // The spec's defaults (2048 queued, 512 a batch, every 5 s): past the queue, spans are dropped, so a slow collector cannot grow the heap.
    spanProcessors: [new BatchSpanProcessor(new ReportingExporter(exporter, options.onExportError), { exportTimeoutMillis: settings.timeoutMs })],
  });
  const tracer = provider.getTracer('netgraph', options.serviceVersion);
  let closing: Promise<void> | null = null;

  return {
    startOperation(start: OperationStart): OperationSpan {
      const parent = propagator.extract(ROOT_CONTEXT, start.headers, headerGetter);
      const span = tracer.startSpan(GRAPHQL_OPERATION, { kind: SpanKind.SERVER, attributes: { 'netgraph.door': start.door } }, parent);
      return new OtelOperation(tracer, span, start.door);
    },
    close() {
      // A collector that is away must not hold the gateway's shutdown past one export timeout.
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, settings.timeoutMs);
        timer.unref();
        provider.shutdown().then(
          () => resolve(),
          () => resolve(),
        );
      });
      return closing;
    },
  };
}

/** The semantic conventions' span name for an operation whose type is not known. */
const GRAPHQL_OPERATION = 'GraphQL Operation';

function samplerOf({ name, ratio }: TracingSettings['sampler']): Sampler {
  switch (name) {
    case 'always_on':
      return new AlwaysOnSampler();
    case 'always_off':
      return new AlwaysOffSampler();
    case 'traceidratio':
      return new TraceIdRatioBasedSampler(ratio);
    case 'parentbased_always_on':
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case 'parentbased_always_off':
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case 'parentbased_traceidratio':
      return new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(ratio) });
  }
}

class OtelOperation implements OperationSpan {
  private readonly context: Context;
  private ended = false;

  constructor(
    private readonly tracer: ApiTracer,
    private readonly span: Span,
    private readonly door: Door,
  ) {
    this.context = trace.setSpan(ROOT_CONTEXT, span);
  }

  startUpstream(start: UpstreamSpanStart): UpstreamSpan {
    const template = pathTemplate(start.path);
    const attributes: Attributes = {
      'http.request.method': start.method,
      'url.template': template,
      'netgraph.upstream.service': start.service,
    };
    if (start.attempt > 1) attributes['http.request.resend_count'] = start.attempt - 1;
    if (start.breaker !== undefined) attributes['netgraph.upstream.breaker'] = start.breaker;
    const span = this.tracer.startSpan(`${start.method} ${template}`, { kind: SpanKind.CLIENT, attributes }, this.context);
    // Sent whether or not the span is sampled: the upstream learns the decision from the flags.
    const headers: Record<string, string> = {};
    propagator.inject(trace.setSpan(ROOT_CONTEXT, span), headers, defaultTextMapSetter);
    return new OtelUpstream(span, headers);
  }

  end(facts: OperationFacts): void {
    if (this.ended) return;
    this.ended = true;
    const { span } = this;
    if (span.isRecording()) {
      const { operationName: name, operationType: type } = facts;
      span.updateName(type === null ? GRAPHQL_OPERATION : name === null ? type : `${type} ${name}`);
      const attributes: Attributes = {
        'netgraph.door': this.door,
        'netgraph.outcome': facts.outcome,
        'netgraph.upstream_calls': facts.upstreamCalls,
      };
      if (type !== null) attributes['graphql.operation.type'] = type;
      if (name !== null) attributes['graphql.operation.name'] = name;
      if (facts.httpStatus !== undefined && facts.httpStatus !== null) attributes['http.response.status_code'] = facts.httpStatus;
      if (facts.errorCodes.length > 0) attributes['netgraph.error_codes'] = [...new Set(facts.errorCodes)];
      if (facts.upstreamReads) {
        attributes['netgraph.upstream_reads.hit'] = facts.upstreamReads.hit;
        attributes['netgraph.upstream_reads.shared'] = facts.upstreamReads.shared;
        attributes['netgraph.upstream_reads.revalidated'] = facts.upstreamReads.revalidated;
      }
      span.setAttributes(attributes);
      if (facts.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end();
  }
}

class OtelUpstream implements UpstreamSpan {
  constructor(
    private readonly span: Span,
    readonly headers: Readonly<Record<string, string>>,
  ) {}

  end(result: { status: number | null; errorCode?: string | undefined }): void {
    const { span } = this;
    if (span.isRecording()) {
      if (result.status !== null) span.setAttribute('http.response.status_code', result.status);
      if (result.errorCode !== undefined) {
        span.setAttribute('error.type', result.errorCode);
        span.setStatus({ code: SpanStatusCode.ERROR });
      }
    }
    span.end();
  }
}

/** The exporter, telling the gateway (once) when an export fails after the exporter's own retries. */
class ReportingExporter implements SpanExporter {
  private reported = false;

  constructor(
    private readonly inner: SpanExporter,
    private readonly onError: ((error: unknown) => void) | undefined,
  ) {}

  export(spans: ReadableSpan[], done: (result: ExportResult) => void): void {
    this.inner.export(spans, (result) => {
      if (result.code !== ExportResultCode.SUCCESS && !this.reported) {
        this.reported = true;
        this.onError?.(result.error ?? new Error('trace export failed'));
      }
      done(result);
    });
  }

  shutdown(): Promise<void> {
    return this.inner.shutdown();
  }

  forceFlush(): Promise<void> {
    return this.inner.forceFlush?.() ?? Promise.resolve();
  }
}
