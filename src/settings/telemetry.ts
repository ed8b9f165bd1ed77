/** OpenTelemetry traces, by the standard OTEL_* variables; each `…_TRACES_…` variable wins over its general one. */
import { SAMPLERS, type SamplerName, type TracingSettings } from '../tracing/settings';
import { ConfigError, MAX_MS, area, choice, custom, int, url, type Setting, type SettingsOf } from './setting';

export const OTEL_EXPORTER_OTLP_ENDPOINT = url({ name: 'OTEL_EXPORTER_OTLP_ENDPOINT', meaning: 'OpenTelemetry collector (OTLP/HTTP); spans go to its `/v1/traces`', defaultText: 'unset: no tracing' });
export const OTEL_EXPORTER_OTLP_TRACES_ENDPOINT = url({
  name: 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT',
  meaning: 'the full URL spans are POSTed to; wins over `OTEL_EXPORTER_OTLP_ENDPOINT`',
  defaultText: 'unset',
});

/**
 * A `key=value,key=value` list (the W3C baggage form the OTLP spec uses for headers and resource
 * attributes), values percent-decoded. Values are never echoed in an error: headers carry keys.
 */
function keyValues(spec: { name: string; meaning: string; validKey: RegExp }): Setting<Readonly<Record<string, string>>> {
  const { name, validKey } = spec;
  return custom({
    name,
    meaning: spec.meaning,
    defaultText: 'none',
    rangeText: '`key=value` list',
    read(env) {
      const text = env.text(name);
      const pairs: Record<string, string> = {};
      if (text === undefined) return pairs;
      for (const item of text.split(',')) {
        if (item.trim() === '') continue;
        const at = item.indexOf('=');
        const key = at < 0 ? '' : item.slice(0, at).trim();
        if (!validKey.test(key)) throw new ConfigError(`${name} must be a list of key=value pairs separated by commas; an entry has no valid key`);
        let value: string;
        try {
          value = decodeURIComponent(item.slice(at + 1).trim());
        } catch {
          throw new ConfigError(`${name}: the value of ${key} is not valid percent-encoding`);
        }
        pairs[key] = value;
      }
      return pairs;
    },
  });
}

const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
const RESOURCE_KEY = /^[\w.\-/]{1,255}$/;

export const OTEL_EXPORTER_OTLP_HEADERS = keyValues({
  name: 'OTEL_EXPORTER_OTLP_HEADERS',
  meaning: "headers sent with every export, `key=value,key=value` with percent-encoded values (a hosted collector's key: `x-api-key=…`). Never logged",
  validKey: HEADER_NAME,
});
export const OTEL_EXPORTER_OTLP_TRACES_HEADERS = keyValues({ name: 'OTEL_EXPORTER_OTLP_TRACES_HEADERS', meaning: 'the same for traces only; its keys win', validKey: HEADER_NAME });

/** `OTEL_EXPORTER_OTLP_TRACES_X` for the general `OTEL_EXPORTER_OTLP_X`: the same words, the general one's value by default. */
function forTraces<T extends string>(general: Setting<T>, values: readonly T[]): Setting<T> {
  const name = general.name.replace('OTEL_EXPORTER_OTLP_', 'OTEL_EXPORTER_OTLP_TRACES_');
  return choice({ name, meaning: 'the same for traces only; wins', values, fallback: general, defaultText: 'the general one' });
}

const PROTOCOLS = ['http/protobuf', 'http/json'] as const;
export const OTEL_EXPORTER_OTLP_PROTOCOL = choice({ name: 'OTEL_EXPORTER_OTLP_PROTOCOL', meaning: '`http/protobuf` or `http/json` (gRPC is not offered)', values: PROTOCOLS, fallback: 'http/protobuf' });
export const OTEL_EXPORTER_OTLP_TRACES_PROTOCOL = forTraces(OTEL_EXPORTER_OTLP_PROTOCOL, PROTOCOLS);

const COMPRESSIONS = ['gzip', 'none'] as const;
export const OTEL_EXPORTER_OTLP_COMPRESSION = choice({ name: 'OTEL_EXPORTER_OTLP_COMPRESSION', meaning: '`gzip` or `none`', values: COMPRESSIONS, fallback: 'none' });
export const OTEL_EXPORTER_OTLP_TRACES_COMPRESSION = forTraces(OTEL_EXPORTER_OTLP_COMPRESSION, COMPRESSIONS);

export const OTEL_EXPORTER_OTLP_TIMEOUT = int({ name: 'OTEL_EXPORTER_OTLP_TIMEOUT', meaning: 'longest one export may take, its retries included (ms)', min: 1, max: MAX_MS, fallback: 10_000 });
export const OTEL_EXPORTER_OTLP_TRACES_TIMEOUT = int({
  name: 'OTEL_EXPORTER_OTLP_TRACES_TIMEOUT',
  meaning: 'the same for traces only; wins',
  min: 1,
  max: MAX_MS,
  fallback: (env) => env.get(OTEL_EXPORTER_OTLP_TIMEOUT),
  defaultText: 'the general one',
});

export const OTEL_RESOURCE_ATTRIBUTES = keyValues({ name: 'OTEL_RESOURCE_ATTRIBUTES', meaning: 'more resource attributes, `key=value,…` (e.g. `deployment.environment=prod`)', validKey: RESOURCE_KEY });

export const OTEL_SERVICE_NAME = custom<string>({
  name: 'OTEL_SERVICE_NAME',
  meaning: '`service.name` of the exported spans (wins over one in `OTEL_RESOURCE_ATTRIBUTES`)',
  defaultText: '`netgraph`',
  rangeText: '1–128 letters, digits, `.`, `_`, `-`',
  read(env) {
    const serviceName = env.text('OTEL_SERVICE_NAME') ?? env.get(OTEL_RESOURCE_ATTRIBUTES)['service.name'] ?? 'netgraph';
    if (!/^[\w.-]{1,128}$/.test(serviceName)) throw new ConfigError(`OTEL_SERVICE_NAME must be 1-128 letters, digits, '.', '_' or '-'; got ${JSON.stringify(serviceName)}`);
    return serviceName;
  },
});

export const OTEL_TRACES_SAMPLER = choice<SamplerName>({
  name: 'OTEL_TRACES_SAMPLER',
  meaning: SAMPLERS.map((s) => `\`${s}\``).join(', ').replace(/, ([^,]*)$/, ' or $1'),
  values: SAMPLERS,
  fallback: 'parentbased_always_on',
  rangeText: 'those six',
});

/** The ratio of the ratio samplers (1 for the others, whatever the variable says). */
export const OTEL_TRACES_SAMPLER_ARG = custom<number>({
  name: 'OTEL_TRACES_SAMPLER_ARG',
  meaning: 'the ratio of the ratio samplers',
  defaultText: '`1`',
  rangeText: '0–1',
  read(env) {
    const arg = env.text('OTEL_TRACES_SAMPLER_ARG');
    if (!env.get(OTEL_TRACES_SAMPLER).endsWith('traceidratio') || arg === undefined) return 1;
    const ratio = /^(0(\.\d+)?|1(\.0+)?|\.\d+)$/.test(arg) ? Number(arg) : NaN;
    if (!(ratio >= 0 && ratio <= 1)) throw new ConfigError(`OTEL_TRACES_SAMPLER_ARG must be a number from 0 to 1; got ${JSON.stringify(arg)}`);
    return ratio;
  },
});

export const OTEL_SDK_DISABLED = choice({ name: 'OTEL_SDK_DISABLED', meaning: '`true` turns tracing off whatever the endpoint', values: ['true', 'false'] as const, fallback: 'false', rangeText: '`true`/`false`' });
export const OTEL_TRACES_EXPORTER = choice({ name: 'OTEL_TRACES_EXPORTER', meaning: '`none` turns tracing off whatever the endpoint', values: ['otlp', 'none'] as const, fallback: 'otlp', rangeText: '`otlp`/`none`' });

export const TELEMETRY = area({
  title: 'Telemetry',
  intro: 'Tracing is off, and the OpenTelemetry SDK not even loaded, until an endpoint is set ([Telemetry](operations.md#telemetry)).',
  settings: {
    endpoint: OTEL_EXPORTER_OTLP_ENDPOINT,
    tracesEndpoint: OTEL_EXPORTER_OTLP_TRACES_ENDPOINT,
    headers: OTEL_EXPORTER_OTLP_HEADERS,
    tracesHeaders: OTEL_EXPORTER_OTLP_TRACES_HEADERS,
    protocol: OTEL_EXPORTER_OTLP_PROTOCOL,
    tracesProtocol: OTEL_EXPORTER_OTLP_TRACES_PROTOCOL,
    compression: OTEL_EXPORTER_OTLP_COMPRESSION,
    tracesCompression: OTEL_EXPORTER_OTLP_TRACES_COMPRESSION,
    timeoutMs: OTEL_EXPORTER_OTLP_TIMEOUT,
    tracesTimeoutMs: OTEL_EXPORTER_OTLP_TRACES_TIMEOUT,
    serviceName: OTEL_SERVICE_NAME,
    resourceAttributes: OTEL_RESOURCE_ATTRIBUTES,
    sampler: OTEL_TRACES_SAMPLER,
    samplerArg: OTEL_TRACES_SAMPLER_ARG,
    sdkDisabled: OTEL_SDK_DISABLED,
    tracesExporter: OTEL_TRACES_EXPORTER,
  },
});

export type TelemetrySettings = SettingsOf<typeof TELEMETRY>;

/** The tracer's settings: null (the SDK never loaded) without an endpoint, or when turned off. */
export function tracingOf(telemetry: TelemetrySettings): TracingSettings | null {
  const { endpoint } = telemetry;
  const tracesUrl = telemetry.tracesEndpoint ?? (endpoint !== null ? `${endpoint}/v1/traces` : null);
  const disabled = telemetry.sdkDisabled === 'true' || telemetry.tracesExporter === 'none';
  if (tracesUrl === null || disabled) return null;
  return {
    tracesUrl,
    headers: { ...telemetry.headers, ...telemetry.tracesHeaders },
    serviceName: telemetry.serviceName,
    resourceAttributes: telemetry.resourceAttributes,
    protocol: telemetry.tracesProtocol,
    compression: telemetry.tracesCompression,
    timeoutMs: telemetry.tracesTimeoutMs,
    sampler: { name: telemetry.sampler, ratio: telemetry.samplerArg },
  };
}
