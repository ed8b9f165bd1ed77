/**
 * Tracing end to end on real sockets: the gateway exports OTLP/HTTP JSON to a local fake collector,
 * and a recording proxy in front of the sandbox shows the `traceparent` each upstream attempt got.
 * With no endpoint configured no upstream request carries a `traceparent`.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { startGateway, type RunningGateway } from '../../src/server';
import { startFakeUpstream, type FakeUpstream } from '../helpers/fake-upstream';
import { postGraphQL, testConfig } from '../helpers/stack';

interface OtlpAttribute {
  key: string;
  value: { stringValue?: string; intValue?: string; arrayValue?: { values: Array<{ stringValue: string }> } };
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpAttribute[];
  status: { code: number };
}
interface OtlpBody {
  resourceSpans: Array<{ resource: { attributes: OtlpAttribute[] }; scopeSpans: Array<{ spans: OtlpSpan[] }> }>;
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

let sandbox: RunningSandbox;
let proxy: FakeUpstream;
let collector: { url: string; bodies: string[]; server: Server };
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
  const bodies: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/otlp/v1/traces') bodies.push(Buffer.concat(chunks).toString('utf8'));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  collector = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/otlp`, bodies, server };
});

afterAll(async () => {
  await proxy.close();
  await sandbox.close();
  collector.server.closeAllConnections();
  await new Promise<void>((resolve) => collector.server.close(() => resolve()));
});

function gatewayConfig(tracing: boolean): ReturnType<typeof testConfig> {
  return testConfig({
    upstreamBaseUrl: `${proxy.url}${new URL(sandbox.baseUrl).pathname}`,
    searchUrl: null,
    searchCredentials: null,
    tracing: tracing ? { tracesUrl: `${collector.url}/v1/traces`, serviceName: 'netgraph-test' } : null,
  });
}

const attr = (span: OtlpSpan, key: string): unknown => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  if (value === undefined) return undefined;
  if (value.arrayValue) return value.arrayValue.values.map((v) => v.stringValue);
  return value.stringValue ?? (value.intValue !== undefined ? Number(value.intValue) : undefined);
};

it('exports a span per operation and per upstream attempt, and sends each attempt its traceparent', async () => {
  const gateway: RunningGateway = await startGateway(gatewayConfig(true), { log: () => undefined });
  proxy.requests.length = 0;
  failFirstGet = true;
  const query = 'query Groups($first: Int) { networkGroups(first: $first) { totalCount } }';
  const r = await postGraphQL(gateway.url, query, { first: 7 }, { token: sandbox.tokens.admin, headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` } });
  expect(r.body.errors).toBeUndefined();
  // Close flushes the batch: every span is at the collector when it resolves.
  await gateway.close();

  const spans = collector.bodies.flatMap((b) => (JSON.parse(b) as OtlpBody).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)));
  const operation = spans.find((s) => s.kind === 2);
  expect(operation).toBeDefined();
  if (!operation) return;
  expect(operation).toMatchObject({ traceId: TRACE_ID, parentSpanId: PARENT_ID, name: 'Groups', status: { code: 0 } });
  expect(attr(operation, 'graphql.operation.type')).toBe('query');
  expect(attr(operation, 'graphql.operation.name')).toBe('Groups');
  expect(attr(operation, 'netgraph.outcome')).toBe('ok');
  expect(attr(operation, 'netgraph.upstream_calls')).toBe(proxy.requests.length);

  const upstream = spans.filter((s) => s.kind === 3);
  // One span per attempt: the 503 and its retry are two.
  expect(upstream).toHaveLength(proxy.requests.length);
  expect(upstream.length).toBeGreaterThanOrEqual(2);
  for (const span of upstream) {
    expect(span).toMatchObject({ traceId: TRACE_ID, parentSpanId: operation.spanId });
    expect(String(attr(span, 'url.path'))).not.toContain('?');
    expect(attr(span, 'http.request.method')).toBe('GET');
    expect(typeof attr(span, 'netgraph.upstream.service')).toBe('string');
    expect(BigInt(span.startTimeUnixNano)).toBeGreaterThanOrEqual(BigInt(operation.startTimeUnixNano));
  }
  expect(upstream.map((s) => attr(s, 'http.response.status_code'))).toContain(503);
  const failed = upstream.find((s) => attr(s, 'http.response.status_code') === 503);
  expect(failed?.status.code).toBe(2);

  // Each upstream request carried the traceparent of its own span.
  const received = proxy.requests.map((q) => q.headers['traceparent']);
  for (const value of received) expect(value).toMatch(TRACEPARENT);
  expect(new Set(received.map((v) => TRACEPARENT.exec(String(v))?.[2]))).toEqual(new Set(upstream.map((s) => s.spanId)));
  expect(received.every((v) => TRACEPARENT.exec(String(v))?.[1] === TRACE_ID)).toBe(true);

  const exported = collector.bodies.join('\n');
  expect(exported).not.toContain(sandbox.tokens.admin);
  expect(exported).not.toContain('Bearer');
  expect(exported).toContain('"netgraph-test"');
});

it('starts a new trace when the incoming traceparent is malformed', async () => {
  const gateway = await startGateway(gatewayConfig(true), { log: () => undefined });
  collector.bodies.length = 0;
  await postGraphQL(gateway.url, '{ gatewayInfo { version } }', undefined, { headers: { traceparent: `00-${'0'.repeat(32)}-${PARENT_ID}-01` } });
  await gateway.close();
  const spans = collector.bodies.flatMap((b) => (JSON.parse(b) as OtlpBody).resourceSpans.flatMap((rs) => rs.scopeSpans.flatMap((s) => s.spans)));
  expect(spans).toHaveLength(1);
  expect(spans[0]?.name).toBe('graphql.operation');
  expect(spans[0]?.traceId).toMatch(/^(?!0{32})[0-9a-f]{32}$/);
  expect(spans[0]?.parentSpanId).toBeUndefined();
});

it('sends no traceparent and exports nothing when tracing is off', async () => {
  const gateway = await startGateway(gatewayConfig(false), { log: () => undefined });
  collector.bodies.length = 0;
  proxy.requests.length = 0;
  const r = await postGraphQL(gateway.url, '{ networkGroups { totalCount } }', undefined, { token: sandbox.tokens.admin, headers: { traceparent: `00-${TRACE_ID}-${PARENT_ID}-01` } });
  expect(r.body.errors).toBeUndefined();
  await gateway.close();
  expect(proxy.requests.length).toBeGreaterThan(0);
  expect(proxy.requests.every((q) => q.headers['traceparent'] === undefined)).toBe(true);
  expect(collector.bodies).toEqual([]);
});
