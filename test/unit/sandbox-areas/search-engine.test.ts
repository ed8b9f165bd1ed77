import { createSearchArea } from '../../../src/sandbox/search';
import { resolveDate } from '../../../src/sandbox/search/date-math';
import { arr, call, obj, testClock, testContext } from './harness';
import { TOP_TALKERS } from '../../helpers/search-requests';

const NOW = Date.parse('2026-11-21T12:00:00.000Z');

function setup(size: 'tiny' | 'demo' | 'large' = 'demo') {
  const clock = testClock(1000, NOW);
  const area = createSearchArea(testContext(clock));
  area.seed(size);
  return { area, clock };
}

interface UsageDoc {
  ts: number;
  source: string;
  saddr: string;
  tx: number;
  rx: number;
}

/** The usage documents read straight from the store, without the evaluator. */
function usageDocs(area: ReturnType<typeof setup>['area']): UsageDoc[] {
  const store = area.documents();
  const names = store.indexNames();
  const out: UsageDoc[] = [];
  for (let i = 0; i < store.size; i++) {
    if (!(names[store.index.codes[i] ?? -1] ?? '').startsWith('zfw.events-')) continue;
    const s = store.source(i);
    const zfw = obj(s['zfw']);
    const circuit = obj(obj(zfw['usage'])['circuit']);
    out.push({ ts: Date.parse(String(s['@timestamp'])), source: String(zfw['source_id']), saddr: String(zfw['saddr']), tx: Number(circuit['tx']), rx: Number(circuit['rx']) });
  }
  return out;
}

function sums(docs: UsageDoc[], key: (d: UsageDoc) => string, value: (d: UsageDoc) => number): [string, number][] {
  const m = new Map<string, number>();
  for (const d of docs) m.set(key(d), (m.get(key(d)) ?? 0) + value(d));
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

describe('search DSL evaluator', () => {
  it("answers the top-talker request with buckets in order and the right sums", () => {
    const { area } = setup();
    const res = area.searchService.search('zfw.events*', TOP_TALKERS);
    expect(res.status).toBe(200);
    const body = obj(res.json);
    const inWindow = usageDocs(area).filter((d) => d.ts >= NOW - 24 * 3600_000 && d.ts <= NOW);
    expect(inWindow.length).toBeGreaterThan(100);
    expect(obj(obj(body['hits'])['total'])).toEqual({ value: inWindow.length, relation: 'eq' });
    expect(obj(body['hits'])['hits']).toEqual([]);

    const expected = sums(inWindow, (d) => d.source, (d) => d.tx);
    const agg = obj(obj(body['aggregations'])['zfw_source']);
    const buckets = arr(agg['buckets']);
    expect(buckets.map((b) => [b['key'], obj(b['circuit_tx'])['value']])).toEqual(expected.slice(0, 10));
    const others = expected.slice(10).reduce((n, [source]) => n + inWindow.filter((d) => d.source === source).length, 0);
    expect(agg['sum_other_doc_count']).toBe(others);
    expect(agg['doc_count_error_upper_bound']).toBe(0);

    for (const bucket of buckets.slice(0, 3)) {
      const mine = inWindow.filter((d) => d.source === bucket['key']);
      expect(bucket['doc_count']).toBe(mine.length);
      const inner = arr(obj(bucket['saddr'])['buckets']);
      expect(inner.map((b) => [b['key'], obj(b['circuit_rx'])['value']])).toEqual(sums(mine, (d) => d.saddr, (d) => d.rx).slice(0, 10));
    }
  });

  it('filters alerts of the last 24 hours by severity, sorted newest first', () => {
    const { area } = setup();
    const res = area.searchService.search('svc.alert*', {
      size: 50,
      sort: [{ '@timestamp': { order: 'desc' } }],
      query: { bool: { filter: [{ range: { '@timestamp': { gte: 'now-24h', lte: 'now' } } }, { terms: { 'severity.keyword': ['critical', 'warning'] } }] } },
    });
    expect(res.status).toBe(200);
    const hits = arr(obj(obj(res.json)['hits'])['hits']);
    expect(hits.length).toBeGreaterThan(0);
    const times = hits.map((h) => Date.parse(String(obj(h['_source'])['@timestamp'])));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    for (const h of hits) {
      const src = obj(h['_source']);
      expect(['critical', 'warning']).toContain(src['severity']);
      expect(Date.parse(String(src['@timestamp']))).toBeGreaterThanOrEqual(NOW - 24 * 3600_000);
      expect(String(h['_index'])).toMatch(/^svc\.alerts-\d{4}\.\d\d\.\d\d$/);
      expect(h['sort']).toEqual([Date.parse(String(src['@timestamp']))]);
    }
  });

  it('matches text with match (any/all words) and match_phrase, also inside arrays', () => {
    const { area } = setup('tiny');
    const hits = (query: unknown) => arr(obj(obj(area.searchService.search('svc.alert*', { size: 1000, query }).json)['hits'])['hits']).map((h) => obj(h['_source']));
    const all = hits({ match_all: {} });
    const lost = hits({ match: { message: 'LOST link' } });
    expect(lost.length).toBe(all.filter((a) => /\b(lost|link)\b/i.test(String(a['message']))).length);
    const both = hits({ match: { message: { query: 'lost link', operator: 'and' } } });
    expect(both.length).toBe(all.filter((a) => /\blost\b/.test(String(a['message'])) && /\blink\b/.test(String(a['message']))).length);
    expect(both.length).toBeGreaterThan(0);
    expect(hits({ match_phrase: { message: 'link to the controller' } }).length).toBe(all.filter((a) => String(a['message']).includes('link to the controller')).length);
    expect(hits({ match_phrase: { message: 'controller the to link' } })).toEqual([]);
    const inLogs = hits({ match: { logs: 'DEBUG' } });
    expect(inLogs.length).toBe(all.length);
  });

  it('pages hits with from/size and counts them exactly', () => {
    const { area } = setup();
    const all = obj(area.searchService.search('svc.alert*', { size: 30, sort: ['@timestamp'] }).json);
    const page = obj(area.searchService.search('svc.alert*', { from: 10, size: 5, sort: ['@timestamp'] }).json);
    const ids = (r: Record<string, unknown>) => arr(obj(r['hits'])['hits']).map((h) => h['_id']);
    expect(ids(page)).toEqual(ids(all).slice(10, 15));
  });

  it('answers 400 in the Elasticsearch error shape for unknown clauses and text-field aggregations', () => {
    const { area } = setup('tiny');
    const unknown = area.searchService.search('zfw.events*', { query: { fuzzy: { 'zfw.saddr': 'x' } } });
    expect(unknown.status).toBe(400);
    expect(obj(obj(unknown.json)['error'])).toMatchObject({ type: 'parsing_exception', reason: 'unknown query [fuzzy]' });
    expect(obj(unknown.json)['status']).toBe(400);
    const text = area.searchService.search('zfw.events*', { size: 0, aggs: { a: { terms: { field: 'zfw.saddr' } } } });
    expect(text.status).toBe(400);
    expect(obj(obj(text.json)['error'])['type']).toBe('illegal_argument_exception');
    expect(area.searchService.search('no-such-index', {}).status).toBe(404);
    expect(obj(obj(area.searchService.search('nothing*', {}).json)['hits'])['total']).toEqual({ value: 0, relation: 'eq' });
  });

  it('evaluates date math with rounding like Elasticsearch', () => {
    const now = Date.parse('2026-11-21T15:30:00.000Z');
    expect(resolveDate('now-24h', now, false)).toBe(now - 86_400_000);
    expect(resolveDate('now-30m', now, false)).toBe(now - 1_800_000);
    expect(resolveDate('now/d', now, false)).toBe(Date.parse('2026-11-21T00:00:00.000Z'));
    expect(resolveDate('now/d', now, true)).toBe(Date.parse('2026-11-21T23:59:59.999Z'));
    expect(resolveDate('now-7d/d', now, false)).toBe(Date.parse('2026-11-14T00:00:00.000Z'));
    expect(resolveDate('2026-11-01||+1M', now, false)).toBe(Date.parse('2026-12-01T00:00:00.000Z'));
    expect(resolveDate('2026-11-20T10:00:00', now, false)).toBe(Date.parse('2026-11-20T10:00:00.000Z'));
    expect(() => resolveDate('now-3x', now, false)).toThrow();
  });

  it('serves the same search over the route (GET and POST, ?pretty ignored)', async () => {
    const { area } = setup('tiny');
    const get = await call(area.routes, null, 'GET', '/search/zfw.events*/_search?pretty', { size: 1 });
    const post = await call(area.routes, null, 'POST', '/search/zfw.events-2026.11.21,svc.alerts*/_search', { size: 0 });
    expect(get.status).toBe(200);
    expect(arr(obj(obj(get.json)['hits'])['hits'])).toHaveLength(1);
    expect(post.status).toBe(200);
  });

  it('makes per-organization network events for the rest/v1 proxy', () => {
    const { area } = setup('tiny');
    area.bindNetworkFacts(() => ({ organizationIds: ['org-a', 'org-b'], networks: [{ id: 'net-1', endpointIds: ['ep-1'] }, { id: 'net-2' }] }));
    const res = obj(area.searchService.search('ncentityevent-org-a', { size: 100, query: { term: { 'eventType.keyword': 'Created' } } }).json);
    const hits = arr(obj(res['hits'])['hits']);
    expect(hits.length).toBeGreaterThan(0);
    for (const h of hits) expect(obj(h['_source'])).toMatchObject({ organizationId: 'org-a', networkId: 'net-1', resourceId: 'ep-1', eventType: 'Created' });
    const unknown = area.searchService.search('ncentityevent-org-z', {});
    expect(unknown.status).toBe(200);
    expect(obj(obj(unknown.json)['hits'])['total']).toEqual({ value: 0, relation: 'eq' });
  });

  it('seeds 100,000 usage documents in under 3 s and aggregates top talkers in under 300 ms', () => {
    // CPU time, best of a few runs: wall time on a shared 2-core machine measures the neighbours,
    // and the first run includes JIT warm-up.
    const cpuMs = (run: () => void): number => {
      const start = process.cpuUsage();
      run();
      const used = process.cpuUsage(start);
      return (used.user + used.system) / 1000;
    };
    const { area } = setup('large');
    let seeded = Infinity;
    for (let run = 0; run < 2; run++) seeded = Math.min(seeded, cpuMs(() => area.seed('large')));
    expect(area.documents().size).toBeGreaterThanOrEqual(100_000);
    expect(seeded).toBeLessThan(3000);
    const week = { ...TOP_TALKERS, query: { range: { '@timestamp': { gte: 'now-7d', lte: 'now' } } } };
    let took = Infinity;
    let res = area.searchService.search('zfw.events*', week);
    for (let run = 0; run < 3; run++) took = Math.min(took, cpuMs(() => (res = area.searchService.search('zfw.events*', week))));
    expect(res.status).toBe(200);
    expect(obj(obj(obj(res.json)['hits'])['total'])).toEqual({ value: 10_000, relation: 'gte' });
    expect(took).toBeLessThan(300);
  });

  it('sorts and pages a large index by a text field and time like a full sort would', () => {
    const { area } = setup('demo');
    const sort = [{ 'zfw.saddr.keyword': 'asc' }, { '@timestamp': 'desc' }];
    const all = arr(obj(obj(area.searchService.search('zfw.events*', { size: 4000, sort }).json)['hits'])['hits']);
    const keys = all.map((h) => h['sort']);
    const expected = [...keys].sort((a, b) => {
      const [sa, ta] = Array.isArray(a) ? a : [];
      const [sb, tb] = Array.isArray(b) ? b : [];
      return String(sa) < String(sb) ? -1 : String(sa) > String(sb) ? 1 : Number(tb) - Number(ta);
    });
    expect(keys).toEqual(expected);
    const window = arr(obj(obj(area.searchService.search('zfw.events*', { from: 1200, size: 25, sort }).json)['hits'])['hits']);
    expect(window.map((h) => h['_id'])).toEqual(all.slice(1200, 1225).map((h) => h['_id']));
  });
});
