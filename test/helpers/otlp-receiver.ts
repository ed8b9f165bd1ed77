/**
 * A real OTLP/HTTP trace receiver on a socket (127.0.0.1, port 0), as a collector would run it:
 * it takes `POST /v1/traces` in protobuf or JSON, gzip-compressed or not, decodes every span
 * (protobuf by a small wire-format reader below: the OTLP trace messages only), and keeps the
 * request headers of each export. It can answer busy (503) to the first exports.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gunzipSync } from 'node:zlib';

export type AttributeValue = string | number | boolean | AttributeValue[] | null;

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  /** '' for a root span. */
  parentSpanId: string;
  traceState: string;
  name: string;
  /** OTLP span kind: 2 server, 3 client. */
  kind: number;
  attributes: Record<string, AttributeValue>;
  /** OTLP status code: 0 unset, 1 ok, 2 error. */
  statusCode: number;
  resource: Record<string, AttributeValue>;
}

export interface ReceivedExport {
  headers: IncomingHttpHeaders;
  /** The body as sent (compressed if it was). */
  raw: Buffer;
  spans: ReceivedSpan[];
}

export interface OtlpReceiver {
  /** Base URL, for OTEL_EXPORTER_OTLP_ENDPOINT. */
  url: string;
  /** Exports accepted (answered 200), in order. */
  exports: ReceivedExport[];
  /** Exports answered 503 (see `busy`). */
  refused: number;
  /** How many of the next exports to answer 503 (a collector under load). */
  busy: number;
  spans(): ReceivedSpan[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  let server: Server | null = null;
  const receiver: OtlpReceiver = {
    url: '',
    exports: [],
    refused: 0,
    busy: 0,
    spans: () => receiver.exports.flatMap((e) => e.spans),
    close: () =>
      new Promise<void>((resolve) => {
        server?.closeAllConnections();
        server?.close(() => resolve());
      }),
  };
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/traces') {
        res.writeHead(404).end();
        return;
      }
      if (receiver.busy > 0) {
        receiver.busy -= 1;
        receiver.refused += 1;
        res.writeHead(503, { 'retry-after': '0' }).end();
        return;
      }
      const raw = Buffer.concat(chunks);
      const body = req.headers['content-encoding'] === 'gzip' ? gunzipSync(raw) : raw;
      const type = req.headers['content-type'] ?? '';
      let spans: ReceivedSpan[];
      try {
        spans = type.startsWith('application/json') ? decodeJson(body) : decodeProtobuf(body);
      } catch (error) {
        res.writeHead(400, { 'content-type': 'text/plain' }).end(String(error));
        return;
      }
      receiver.exports.push({ headers: req.headers, raw, spans });
      res.writeHead(200, { 'content-type': type.startsWith('application/json') ? 'application/json' : 'application/x-protobuf' });
      res.end(type.startsWith('application/json') ? '{}' : Buffer.alloc(0));
    });
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return receiver;
}

// ---- OTLP/JSON ----

interface JsonAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: JsonAnyValue[] };
}
interface JsonKeyValue {
  key: string;
  value: JsonAnyValue;
}
interface JsonSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  traceState?: string;
  name: string;
  kind: number;
  attributes?: JsonKeyValue[];
  status?: { code?: number };
}
interface JsonBody {
  resourceSpans?: Array<{ resource?: { attributes?: JsonKeyValue[] }; scopeSpans?: Array<{ spans?: JsonSpan[] }> }>;
}

function decodeJson(body: Buffer): ReceivedSpan[] {
  const parsed = JSON.parse(body.toString('utf8')) as JsonBody;
  return (parsed.resourceSpans ?? []).flatMap((rs) => {
    const resource = jsonAttributes(rs.resource?.attributes);
    return (rs.scopeSpans ?? []).flatMap((ss) =>
      (ss.spans ?? []).map((s) => ({
        traceId: s.traceId,
        spanId: s.spanId,
        parentSpanId: s.parentSpanId ?? '',
        traceState: s.traceState ?? '',
        name: s.name,
        kind: s.kind,
        attributes: jsonAttributes(s.attributes),
        statusCode: s.status?.code ?? 0,
        resource,
      })),
    );
  });
}

function jsonAttributes(list: JsonKeyValue[] | undefined): Record<string, AttributeValue> {
  return Object.fromEntries((list ?? []).map((kv) => [kv.key, jsonValue(kv.value)]));
}

function jsonValue(v: JsonAnyValue): AttributeValue {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(jsonValue);
  return null;
}

// ---- OTLP/protobuf (opentelemetry/proto/collector/trace/v1, the fields the gateway sends) ----

type Field = { field: number; wire: 0; value: bigint } | { field: number; wire: 1 | 2 | 5; value: Buffer };

function* fields(buf: Buffer): Generator<Field> {
  let at = 0;
  const varint = (): bigint => {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const byte = buf[at++];
      if (byte === undefined) throw new Error('truncated varint');
      result |= BigInt(byte & 0x7f) << shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7n;
    }
  };
  while (at < buf.length) {
    const key = Number(varint());
    const field = key >>> 3;
    const wire = key & 7;
    if (wire === 0) yield { field, wire, value: varint() };
    else if (wire === 1 || wire === 5) {
      const size = wire === 1 ? 8 : 4;
      yield { field, wire, value: buf.subarray(at, (at += size)) };
    } else if (wire === 2) {
      const size = Number(varint());
      yield { field, wire, value: buf.subarray(at, (at += size)) };
    } else throw new Error(`unexpected wire type ${wire}`);
  }
}

const bytesOf = (f: Field): Buffer => (f.wire === 0 ? Buffer.alloc(0) : f.value);
const numberOf = (f: Field): number => (f.wire === 0 ? Number(BigInt.asIntN(64, f.value)) : 0);

function decodeProtobuf(body: Buffer): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const resourceSpans of fields(body)) {
    if (resourceSpans.field !== 1) continue;
    let resource: Record<string, AttributeValue> = {};
    const scopes: Buffer[] = [];
    for (const f of fields(bytesOf(resourceSpans))) {
      if (f.field === 1) resource = protoAttributes(bytesOf(f), 1);
      if (f.field === 2) scopes.push(bytesOf(f));
    }
    for (const scope of scopes) for (const f of fields(scope)) if (f.field === 2) spans.push(protoSpan(bytesOf(f), resource));
  }
  return spans;
}

function protoSpan(buf: Buffer, resource: Record<string, AttributeValue>): ReceivedSpan {
  const span: ReceivedSpan = { traceId: '', spanId: '', parentSpanId: '', traceState: '', name: '', kind: 0, attributes: {}, statusCode: 0, resource };
  for (const f of fields(buf)) {
    if (f.field === 1) span.traceId = bytesOf(f).toString('hex');
    else if (f.field === 2) span.spanId = bytesOf(f).toString('hex');
    else if (f.field === 3) span.traceState = bytesOf(f).toString('utf8');
    else if (f.field === 4) span.parentSpanId = bytesOf(f).toString('hex');
    else if (f.field === 5) span.name = bytesOf(f).toString('utf8');
    else if (f.field === 6) span.kind = numberOf(f);
    else if (f.field === 9) Object.assign(span.attributes, protoAttributes(bytesOf(f), null));
    else if (f.field === 15) for (const s of fields(bytesOf(f))) if (s.field === 3) span.statusCode = numberOf(s);
  }
  return span;
}

/** KeyValue pairs: `buf` is one KeyValue (field null) or a message whose `field` repeats them. */
function protoAttributes(buf: Buffer, field: number | null): Record<string, AttributeValue> {
  const pairs = field === null ? [buf] : [...fields(buf)].filter((f) => f.field === field).map(bytesOf);
  const out: Record<string, AttributeValue> = {};
  for (const pair of pairs) {
    let key = '';
    let value: AttributeValue = null;
    for (const f of fields(pair)) {
      if (f.field === 1) key = bytesOf(f).toString('utf8');
      if (f.field === 2) value = protoValue(bytesOf(f));
    }
    out[key] = value;
  }
  return out;
}

function protoValue(buf: Buffer): AttributeValue {
  for (const f of fields(buf)) {
    if (f.field === 1) return bytesOf(f).toString('utf8');
    if (f.field === 2) return numberOf(f) !== 0;
    if (f.field === 3) return numberOf(f);
    if (f.field === 4) return bytesOf(f).readDoubleLE(0);
    if (f.field === 5) return [...fields(bytesOf(f))].filter((v) => v.field === 1).map((v) => protoValue(bytesOf(v)));
  }
  return null;
}
