/**
 * Tracing end to end on real sockets: a gateway process configured by the standard OTEL_*
 * environment variables (test/helpers/gateway-process.ts) exports to a real OTLP/HTTP receiver
 * (test/helpers/otlp-receiver.ts), and a recording proxy in front of the sandbox shows the trace
 * headers each upstream attempt got.
 */
import { WebSocket } from 'ws';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream';
import { removeGatewayBundle, startGatewayProcess, type GatewayProcess } from '../helpers/gateway-process';
import { startOtlpReceiver, type AttributeValue, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';
import { postGraphQL } from '../helpers/stack';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACESTATE = 'congo=t61rcWkgMzE,rojo=00f067aa0ba902b7';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-(0[01])$/;
const SERVER = 2;
const CLIENT = 3;

let sandbox: RunningSandbox;
let proxy: FakeUpstream;
let receiver: OtlpReceiver;
let failFirstGet = false;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'tiny' });
  const target = new URL(sandbox.baseUrl);
  // Records each request's headers and passes it on to the sandbox; answers 503 once when asked (a retried GET).
  proxy = await startFakeUpstream(async (req, res) => {
    if (failFirstGet && req.method === 'GET') {
      failFirstGet = false;
      res.writeHead(503, { 'content-type': 'application/json' });
      res.end('{"error":"busy"}');
      return;
    }
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const answer = await fetch(`${target.origin}${req.url}`, { method: req.method, headers, ...(req.body !== '' ? { body: req.body } : {}) });
    const text = await answer.text();
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(text);
  });
  receiver = await startOtlpReceiver();
}, 60_000);

afterAll(async () => {
  await proxy.close();
  await sandbox.close();
  await receiver.close();
  await removeGatewayBundle();
});

const running: GatewayProcess[] = [];

beforeEach(() => {
  receiver.exports.length = 0;
  proxy.requests.length = 0;
});

// A test that failed before closing its gateway still stops the process.
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.close()));
});

/** A gateway process through the proxy, configured by these variables as a deployment would set them. */
async function start(env: Record<string, string>, endpoint = true): Promise<GatewayProcess> {
  const gateway = await startGatewayProcess({
    UPSTREAM_BASE_URL: `${proxy.url}${new URL(sandbox.baseUrl).pathname}`,
    ...(endpoint ? { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } : {}),
    ...env,
  });
  running.push(gateway);
  return gateway;
}

const operations = (): ReceivedSpan[] => receiver.spans().filter((s) => s.kind === SERVER);
const childrenOf = (parent: ReceivedSpan): ReceivedSpan[] => receiver.spans().filter((s) => s.kind === CLIENT && s.parentSpanId === parent.spanId);
const upstreamPath = (url: string): string => url.split('?')[0] ?? '';

/** Every string on every exported span and resource, nested arrays included. */
function allStrings(spans: readonly ReceivedSpan[]): string[] {
  const flat = (v: AttributeValue): string[] => (Array.isArray(v) ? v.flatMap(flat) : typeof v === 'string' ? [v] : []);
  return spans.flatMap((s) => [s.name, s.traceState, ...Object.values(s.attributes).flatMap(flat), ...Object.values(s.resource).flatMap(flat)]);
}

it("continues the caller's trace with its tracestate, sends the collector's key, and puts no token on any span", async () => {
  const gateway = await start({
    OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
    OTEL_EXPORTER_OTLP_HEADERS: 'x-collector-key=k3y%3Dsecret,x-other=1',
    OTEL_SERVICE_NAME: 'netgraph-test',
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=test,service.namespace=edge',
  });
  // Loaded when configured (the last test sees it is not, when not).
  expect(await gateway.otelPackages()).toEqual(expect.arrayContaining(['sdk-trace-node', 'exporter-trace-otlp-http', 'resources']));
  failFirstGet = true;
  const query = 'query Groups($first: Int) { networkGroups(first: $first) { totalCount } }';
  const r = await postGraphQL(gateway.url, query, { first: 7 }, { token: sandbox.tokens.admin, headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: TRACESTATE } });
  expect(r.body.errors).toBeUndefined();
  // Close exports what is queued: every span is at the receiver when it resolves.
  await gateway.close();

  expect(receiver.exports.length).toBeGreaterThan(0);
  for (const e of receiver.exports) {
    expect(e.headers['x-collector-key']).toBe('k3y=secret');
    expect(e.headers['content-type']).toMatch(/^application\/json/);
  }
  const [operation, ...others] = operations();
  expect(others).toEqual([]);
  if (!operation) return;
  expect(operation).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, traceState: TRACESTATE, name: 'query Groups', statusCode: 0 });
  expect(operation.attributes).toMatchObject({
    'graphql.operation.type': 'query',
    'graphql.operation.name': 'Groups',
    'netgraph.door': 'http',
    'netgraph.outcome': 'ok',
    'http.response.status_code': 200,
    'netgraph.upstream_calls': proxy.requests.length,
  });
  expect(operation.resource).toMatchObject({ 'service.name': 'netgraph-test', 'deployment.environment': 'test', 'service.namespace': 'edge', 'telemetry.sdk.language': 'nodejs' });
  expect(typeof operation.resource['service.version']).toBe('string');

  // One span per upstream attempt (the 503 and its retry are two), each a child of the operation.
  const upstream = childrenOf(operation);
  expect(upstream).toHaveLength(proxy.requests.length);
  expect(upstream.length).toBeGreaterThanOrEqual(2);
  for (const span of upstream) {
    expect(span).toMatchObject({ traceId: TRACE_ID, traceState: TRACESTATE });
    expect(span.attributes['http.request.method']).toBe('GET');
    expect(span.attributes['netgraph.upstream.service']).toBe('rest-v1');
    expect(String(span.attributes['url.template'])).not.toContain('?');
    expect(span.name).toBe(`GET ${String(span.attributes['url.template'])}`);
  }
  // A list path names no record: its template is the path the upstream saw, without the query.
  expect(new Set(upstream.map((s) => s.attributes['url.template']))).toEqual(new Set(proxy.requests.map((q) => upstreamPath(q.url))));
  const failed = upstream.find((s) => s.attributes['http.response.status_code'] === 503);
  expect(failed?.statusCode).toBe(2);
  expect(upstream.some((s) => s.attributes['http.request.resend_count'] === 1)).toBe(true);

  // Each upstream request carried its own span's traceparent; the caller's tracestate (vendor data) stays
  // on the gateway's spans and is not sent to the platform (UPSTREAM_FORWARD_TRACESTATE is off).
  for (const q of proxy.requests) {
    expect(q.headers['traceparent']).toMatch(TRACEPARENT);
    expect(q.headers['tracestate']).toBeUndefined();
  }
  const sent = proxy.requests.map((q) => TRACEPARENT.exec(String(q.headers['traceparent'])));
  expect(sent.every((m) => m?.[1] === TRACE_ID && m[3] === '01')).toBe(true);
  expect(new Set(sent.map((m) => m?.[2]))).toEqual(new Set(upstream.map((s) => s.spanId)));

  // No credential anywhere: not on a span, not in the resource, not in the bytes sent.
  const strings = allStrings(receiver.spans());
  for (const secret of [sandbox.tokens.admin, 'Bearer', 'k3y=secret', 'authorization']) {
    expect(strings.filter((s) => s.toLowerCase().includes(secret.toLowerCase()))).toEqual([]);
    expect(receiver.exports.some((e) => e.raw.toString('latin1').includes(secret))).toBe(false);
  }
});

it('exports protobuf by default, gzip-compressed when asked, and retries a collector that is busy', async () => {
  const gateway = await start({ OTEL_EXPORTER_OTLP_TRACES_COMPRESSION: 'gzip' });
  receiver.busy = 1;
  const refusedBefore = receiver.refused;
  const r = await postGraphQL(gateway.url, '{ networkGroups { totalCount } }', undefined, { token: sandbox.tokens.admin });
  expect(r.body.errors).toBeUndefined();
  await gateway.close();

  // The first export was answered 503; the exporter sent it again.
  expect(receiver.refused).toBe(refusedBefore + 1);
  expect(receiver.exports.length).toBeGreaterThan(0);
  for (const e of receiver.exports) {
    expect(e.headers['content-type']).toBe('application/x-protobuf');
    expect(e.headers['content-encoding']).toBe('gzip');
  }
  const [operation] = operations();
  expect(operation).toMatchObject({ name: 'query', parentSpanId: '', attributes: expect.objectContaining({ 'netgraph.door': 'http', 'graphql.operation.type': 'query' }) });
  if (!operation) return;
  expect(operation.traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
  expect(childrenOf(operation).length).toBe(proxy.requests.length);
  expect(proxy.requests.every((q) => TRACEPARENT.exec(String(q.headers['traceparent']))?.[1] === operation.traceId)).toBe(true);
});

it("honours the caller's sampling decision, and the ratio sampler decides for the rest", async () => {
  // A ratio of 0: only a caller's sampled decision gets a trace exported.
  const gateway = await start({ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0' });
  const unsampled = 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const sampled = 'bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb';
  const query = '{ networkGroups { totalCount } }';
  const call = async (traceparent: string | null): Promise<void> => {
    const r = await postGraphQL(gateway.url, query, undefined, { token: sandbox.tokens.admin, headers: traceparent === null ? {} : { traceparent } });
    expect(r.body.errors).toBeUndefined();
  };
  await call(`00-${unsampled}-${PARENT_ID}-00`);
  // The upstream is told the decision: the same trace, not sampled.
  expect(proxy.requests.length).toBeGreaterThan(0);
  for (const q of proxy.requests) expect(TRACEPARENT.exec(String(q.headers['traceparent']))?.slice(1)).toEqual([unsampled, expect.any(String), '00']);
  proxy.requests.length = 0;
  await call(`00-${sampled}-${PARENT_ID}-01`);
  for (const q of proxy.requests) expect(TRACEPARENT.exec(String(q.headers['traceparent']))?.[3]).toBe('01');
  await call(null);
  await gateway.close();

  const spans = receiver.spans();
  expect(spans.length).toBeGreaterThan(1);
  expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([sampled]));
});

it('traces operations over WebSocket and SSE, continuing the trace of the upgrade or stream request', async () => {
  const gateway = await start({ OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json' });
  const wsTrace = 'cccccccccccccccccccccccccccccccc';
  const sseTrace = 'dddddddddddddddddddddddddddddddd';
  const authorization = `Bearer ${sandbox.tokens.admin}`;
  const query = 'query Count { networkGroups { totalCount } }';

  // The WebSocket upgrade carries the trace headers (a browser cannot set them; a service can).
  class TracedWebSocket extends WebSocket {
    constructor(url: string, protocols?: string | string[]) {
      super(url, protocols, { headers: { traceparent: `00-${wsTrace}-${PARENT_ID}-01`, tracestate: TRACESTATE } });
    }
  }
  const ws = createWsClient({ url: gateway.wsUrl, webSocketImpl: TracedWebSocket, retryAttempts: 0, connectionParams: { authorization } });
  const sse = createSseClient({ url: gateway.streamUrl, retryAttempts: 0, headers: { authorization, traceparent: `00-${sseTrace}-${PARENT_ID}-01` } });
  try {
    for (const client of [ws, sse]) {
      const result: unknown[] = [];
      for await (const value of client.iterate({ query })) result.push(value);
      expect(result).toEqual([{ data: { networkGroups: { totalCount: expect.any(Number) } } }]);
    }
  } finally {
    await ws.dispose();
    sse.dispose();
  }
  await gateway.close();

  for (const [door, traceId, traceState] of [
    ['ws', wsTrace, TRACESTATE],
    ['sse', sseTrace, ''],
  ] as const) {
    const operation = operations().find((s) => s.attributes['netgraph.door'] === door);
    expect(operation).toMatchObject({ traceId, parentSpanId: PARENT_ID, traceState, name: 'query Count' });
    if (!operation) continue;
    expect(operation.attributes).toMatchObject({ 'graphql.operation.name': 'Count', 'netgraph.outcome': 'ok' });
    expect(operation.attributes['http.response.status_code']).toBeUndefined();
    const upstream = childrenOf(operation);
    expect(upstream.length).toBeGreaterThan(0);
    expect(operation.attributes['netgraph.upstream_calls']).toBe(upstream.length);
  }
});

it('loads no SDK, sends no trace headers and exports nothing when no endpoint is set', async () => {
  const gateway = await start({ OTEL_SERVICE_NAME: 'netgraph-test', OTEL_TRACES_SAMPLER: 'always_on' }, false);
  const r = await postGraphQL(gateway.url, '{ networkGroups { totalCount } }', undefined, { token: sandbox.tokens.admin, headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01`, tracestate: TRACESTATE } });
  expect(r.body.errors).toBeUndefined();
  // prom-client reads @opentelemetry/api when it is installed (for exemplars); nothing else is loaded.
  expect((await gateway.otelPackages()).filter((name) => name !== 'api')).toEqual([]);
  await gateway.close();
  expect(proxy.requests.length).toBeGreaterThan(0);
  expect(proxy.requests.every((q) => q.headers['traceparent'] === undefined && q.headers['tracestate'] === undefined)).toBe(true);
  expect(receiver.exports).toEqual([]);
});
