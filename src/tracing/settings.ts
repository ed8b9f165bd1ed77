/** What src/config.ts reads from the standard OpenTelemetry variables (README.md "Telemetry"). */

/** `OTEL_TRACES_SAMPLER` values the gateway knows (the spec's, less the vendor ones). */
export const SAMPLERS = ['always_on', 'always_off', 'traceidratio', 'parentbased_always_on', 'parentbased_always_off', 'parentbased_traceidratio'] as const;
export type SamplerName = (typeof SAMPLERS)[number];

export interface TracingSettings {
  /** Full URL spans are POSTed to (`…/v1/traces`). */
  tracesUrl: string;
  /** Sent with every export (a hosted collector's key): never logged, never on a span. */
  headers: Readonly<Record<string, string>>;
  protocol: 'http/protobuf' | 'http/json';
  compression: 'gzip' | 'none';
  /** Longest an export may take, its retries included. */
  timeoutMs: number;
  serviceName: string;
  /** `OTEL_RESOURCE_ATTRIBUTES`, on every span's resource. */
  resourceAttributes: Readonly<Record<string, string>>;
  /** `ratio` is `OTEL_TRACES_SAMPLER_ARG` for the ratio samplers (1 by default), unused by the others. */
  sampler: { name: SamplerName; ratio: number };
}
