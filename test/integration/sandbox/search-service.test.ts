/**
 * The search service over HTTP: basic credentials, the top-talker request sent as GET with
 * a JSON body (as the platform's example does), alerts of the last 24 hours, error bodies, and the rest/v1 proxy.
 */
import { request } from 'node:http';
import type { RunningSandbox } from '../../../src/sandbox';
import { at, call, withSandbox } from './sandbox-client';
import { TOP_TALKERS } from '../../helpers/search-requests';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await withSandbox({ seed: 'demo' });
});
afterAll(() => sandbox.close());

interface Raw {
  status: number;
  json: unknown;
}

/** GET or POST with a JSON body (fetch refuses GET bodies, so node:http it is). */
function search(method: 'GET' | 'POST', path: string, body: unknown, auth: string | null = basic()): Promise<Raw> {
  const url = new URL(`${sandbox.searchUrl}${path}`);
  const payload = body === undefined ? '' : JSON.stringify(body);
  const headers: Record<string, string | number> = { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(payload) };
  if (auth !== null) headers['Authorization'] = auth;
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, json: text === '' ? undefined : (JSON.parse(text) as unknown) }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

function basic(username = sandbox.searchCredentials.username, password = sandbox.searchCredentials.password): string {
  return `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
}

function records(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value).slice(0, 200)}`);
  return value.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null);
}

describe('search service', () => {
  it('answers 401 without credentials or with wrong ones', async () => {
    expect((await search('POST', '/zfw.events*/_search', {}, null)).status).toBe(401);
    expect((await search('POST', '/zfw.events*/_search', {}, basic('sandbox', 'wrong'))).status).toBe(401);
    // A bearer token is not a search credential.
    expect((await search('POST', '/zfw.events*/_search', {}, `Bearer ${sandbox.tokens.admin}`)).status).toBe(401);
  });

  it("answers the top-talker request (GET with a body, ?pretty) with ordered buckets", async () => {
    const r = await search('GET', '/zfw.events*/_search?pretty', TOP_TALKERS);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ timed_out: false, _shards: { failed: 0 }, hits: { hits: [], max_score: null } });
    const total = Number(at(r.json, 'hits', 'total', 'value'));
    expect(total).toBeGreaterThan(0);
    const buckets = records(at(r.json, 'aggregations', 'zfw_source', 'buckets'));
    expect(buckets.length).toBeGreaterThan(1);
    expect(buckets.length).toBeLessThanOrEqual(10);
    const tx = buckets.map((b) => Number(at(b, 'circuit_tx', 'value')));
    expect([...tx].sort((a, b) => b - a)).toEqual(tx);
    const counted = buckets.reduce((n, b) => n + Number(b['doc_count']), 0) + Number(at(r.json, 'aggregations', 'zfw_source', 'sum_other_doc_count'));
    expect(counted).toBe(total);
    for (const b of buckets) {
      const inner = records(at(b, 'saddr', 'buckets'));
      const rx = inner.map((x) => Number(at(x, 'circuit_rx', 'value')));
      expect([...rx].sort((a, c) => c - a)).toEqual(rx);
      expect(inner.every((x) => typeof x['key'] === 'string' && String(x['key']).startsWith('10.'))).toBe(true);
    }
    // The same sums as a query restricted to the top source.
    const top = buckets[0];
    const one = await search('POST', '/zfw.events*/_search', {
      size: 0,
      query: { bool: { filter: [TOP_TALKERS.query.bool.filter[0], { term: { 'zfw.source_id.keyword': top?.['key'] } }] } },
      aggs: { tx: { sum: { field: 'zfw.usage.circuit.tx' } } },
    });
    expect(at(one.json, 'aggregations', 'tx', 'value')).toBe(at(top, 'circuit_tx', 'value'));
    expect(at(one.json, 'hits', 'total', 'value')).toBe(top?.['doc_count']);
  });

  it('returns alerts of the last 24 hours, newest first, from the svc.alert* indices', async () => {
    const r = await search('POST', '/svc.alert*/_search', {
      size: 20,
      sort: [{ '@timestamp': 'desc' }],
      query: { bool: { filter: [{ range: { '@timestamp': { gte: 'now-24h', lte: 'now' } } }] } },
    });
    expect(r.status).toBe(200);
    const hits = records(at(r.json, 'hits', 'hits'));
    expect(hits.length).toBeGreaterThan(0);
    const dayAgo = Date.now() - 24 * 3600_000 - 5000;
    let previous = Infinity;
    for (const h of hits) {
      const ts = Date.parse(String(at(h, '_source', '@timestamp')));
      expect(ts).toBeGreaterThanOrEqual(dayAgo);
      expect(ts).toBeLessThanOrEqual(previous);
      previous = ts;
      for (const field of ['event_source_type', 'severity', 'message', 'logs']) expect(at(h, '_source', field)).toBeDefined();
      expect(String(h['_index'])).toMatch(/^svc\.alerts-/);
    }
  });

  it('answers a date_histogram with epoch-aligned buckets, gaps filled, sums per bucket', async () => {
    const body = {
      size: 0,
      query: { bool: { filter: [{ range: { '@timestamp': { gte: 'now-3d', lte: 'now' } } }] } },
      aggs: { usage: { date_histogram: { field: '@timestamp', fixed_interval: '6h' }, aggs: { tx: { sum: { field: 'zfw.usage.circuit.tx' } } } } },
    };
    const r = await search('GET', '/zfw.events*/_search', body);
    expect(r.status).toBe(200);
    const buckets = records(at(r.json, 'aggregations', 'usage', 'buckets'));
    expect(buckets.length).toBeGreaterThanOrEqual(12);
    const keys = buckets.map((b) => Number(b['key']));
    keys.forEach((k, i) => {
      expect(k % (6 * 3600_000)).toBe(0);
      if (i > 0) expect(k - (keys[i - 1] ?? 0)).toBe(6 * 3600_000);
    });
    expect(buckets[0]?.['key_as_string']).toBe(new Date(keys[0] ?? 0).toISOString());
    const total = await search('GET', '/zfw.events*/_search', { ...body, aggs: { tx: { sum: { field: 'zfw.usage.circuit.tx' } } } });
    const summed = buckets.reduce((n, b) => n + Number(at(b, 'tx', 'value')), 0);
    expect(summed).toBe(at(total.json, 'aggregations', 'tx', 'value'));
    expect(buckets.reduce((n, b) => n + Number(b['doc_count']), 0)).toBe(at(total.json, 'hits', 'total', 'value'));
    const bad = await search('GET', '/zfw.events*/_search', { size: 0, aggs: { h: { date_histogram: { field: '@timestamp', fixed_interval: 'often' } } } });
    expect(bad.status).toBe(400);
  });

  it('answers unknown clauses with a 400 Elasticsearch error body', async () => {
    const r = await search('POST', '/zfw.events*/_search', { query: { wildcard: { 'zfw.saddr': '10.*' } } });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ status: 400, error: { type: 'parsing_exception', reason: expect.stringContaining('wildcard') } });
    expect((await search('POST', '/missing-index/_search', {})).status).toBe(404);
  });

  it('serves network events through the rest/v1 proxy, scoped to the organization', async () => {
    const orgId = sandbox.restFacts().organizationIds[0] ?? '';
    const r = await call(sandbox, 'POST', `/rest/v1/elastic/ncentityevent/${orgId}/_search/`, {
      body: { size: 5, sort: [{ '@timestamp': { order: 'desc' } }], query: { bool: { filter: [{ range: { '@timestamp': { gte: 'now-90d' } } }] } } },
    });
    expect(r.status).toBe(200);
    const hits = records(at(r.json, 'hits', 'hits'));
    expect(hits.length).toBe(5);
    const networkIds = new Set(sandbox.restFacts().networks.map((n) => n.id));
    for (const h of hits) {
      expect(at(h, '_source', 'organizationId')).toBe(orgId);
      expect(networkIds.has(String(at(h, '_source', 'networkId')))).toBe(true);
      for (const field of ['resourceId', 'resourceType', 'eventType', 'eventDescription', 'eventSeverity', 'eventSource', 'resourceName', 'timestamp', 'traceId']) {
        expect(at(h, '_source', field)).toBeDefined();
      }
    }
  });
});
