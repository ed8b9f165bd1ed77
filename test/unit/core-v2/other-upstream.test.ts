/**
 * The core/v2 and search clients against answers of another plausible upstream (built to the
 * contract, not the sandbox): clamped pages followed by `page.totalPages`, a list filter the
 * upstream ignores, a create answering only `_links` (older `process` relation), search totals as
 * bare numbers, histograms without empty buckets.
 */
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../../../src/upstream/http-types';
import { createCoreV2Loaders } from '../../../src/upstream/core-v2/loaders';
import { createSearchLoaders } from '../../../src/upstream/search/loaders';
import type { OrganizationRecord } from '../../../src/upstream/identity/records';
import { topTalkersOf, usageSeriesOf } from '../../../src/resolvers/events/records';
import { timeWindow } from '../../../src/resolvers/events/time-window';

function scripted(answer: (req: UpstreamRequest) => { status?: number; body: unknown }): HttpClient & { seen: UpstreamRequest[] } {
  const seen: UpstreamRequest[] = [];
  return {
    seen,
    send(req: UpstreamRequest): Promise<UpstreamResponse> {
      seen.push(req);
      const { status = 200, body } = answer(req);
      return Promise.resolve({ status, headers: {}, body, text: JSON.stringify(body) });
    },
  };
}

const endpoint = (i: number, networkId: string) => ({ id: `e${i}`, name: `endpoint-${i}`, networkId, attributes: ['#x'] });

describe('core/v2 client', () => {
  it('follows page.totalPages with the size the upstream used, and filters by network in memory', async () => {
    // 5 endpoints, 2 of another network; the upstream ignores `networkId` and serves 2 per page.
    const all = [endpoint(1, 'n1'), endpoint(2, 'n2'), endpoint(3, 'n1'), endpoint(4, 'n1'), endpoint(5, 'n2')];
    const http = scripted((req) => {
      const page = Number(req.query?.['page'] ?? 0);
      return { body: { _embedded: { endpointList: all.slice(page * 2, page * 2 + 2) }, page: { size: 2, number: page, totalElements: 5, totalPages: 3 } } };
    });
    const loaders = createCoreV2Loaders(http, { batching: true });
    const mine = await loaders.all('endpoint', 'n1');
    expect(mine.map((e) => e.id)).toEqual(['e1', 'e3', 'e4']);
    expect(http.seen.map((r) => r.query?.['page'])).toEqual([0, 1, 2]);
    // Primed: by id costs nothing more.
    await loaders.byId('endpoint', 'e3');
    expect(http.seen).toHaveLength(3);
  });

  it('reads a create answered with links only (older `process` relation) and reads the resource back by id', async () => {
    const http = scripted((req) =>
      req.method === 'POST'
        ? { status: 202, body: { _links: { self: { href: 'https://platform.example/core/v2/edge-routers/r9' }, process: { href: 'https://platform.example/core/v2/processes/p1' } } } }
        : { body: { id: 'r9', name: 'router-9', status: 'PROVISIONING' } },
    );
    const loaders = createCoreV2Loaders(http, { batching: true });
    const result = await loaders.create('edgeRouter', { networkId: 'n', name: 'router-9' });
    expect(result).toMatchObject({ accepted: true, httpStatus: 202, id: 'r9', executionHref: 'https://platform.example/core/v2/processes/p1', record: null });
    expect((await loaders.byId('edgeRouter', 'r9')).status).toBe('PROVISIONING');
  });
});

describe('search answers', () => {
  it('reads totals as bare numbers, buckets without sum_other_doc_count, and fills a sparse histogram', () => {
    const talkers = topTalkersOf(
      { total: 7, hits: [], aggregations: { zfw_source: { buckets: [{ key: 'fw-1', doc_count: 7, circuit_tx: { value: 5_000_000_000 }, saddr: { buckets: [{ key: '10.0.0.1', doc_count: 7, circuit_rx: { value: 3 } }] } }] } } },
      { from: 'now-1h', to: 'now' },
    );
    expect(talkers).toEqual({ from: 'now-1h', to: 'now', otherSourceDocuments: 0, sources: [{ sourceId: 'fw-1', transmitted: 5_000_000_000, documents: 7, otherAddressDocuments: 0, addresses: [{ address: '10.0.0.1', received: 3, documents: 7 }] }] });

    const window = timeWindow('2026-11-23T00:00:00Z', '2026-11-23T03:30:00Z');
    const series = usageSeriesOf({ total: null, hits: [], aggregations: { usage: { buckets: [{ key: Date.parse('2026-11-23T02:00:00Z'), doc_count: 2, circuit_tx: { value: 10 }, circuit_rx: { value: 4 } }] } } }, window, '1h', 3600_000);
    expect(series.points.map((p) => [p.at, p.documents, p.transmitted])).toEqual([
      ['2026-11-23T00:00:00.000Z', 0, 0],
      ['2026-11-23T01:00:00.000Z', 0, 0],
      ['2026-11-23T02:00:00.000Z', 2, 10],
      ['2026-11-23T03:00:00.000Z', 0, 0],
    ]);
  });

  it('admits the caller once per request before the first search, and sends no search for a refused one', async () => {
    const http = scripted(() => ({ body: { hits: { total: 0, hits: [] } } }));
    let checks = 0;
    const organization = (): Promise<OrganizationRecord> => Promise.resolve({ id: 'org', name: null, label: null, attributes: {} });
    const accepted = createSearchLoaders({ http, configured: true, authenticated: true, organization, admit: () => (checks++, Promise.resolve()) });
    await accepted.search('svc.alert*', {});
    await accepted.search('svc.alert*', {});
    expect(checks).toBe(1);
    expect(http.seen.map((r) => r.service)).toEqual(['search', 'search']);

    const refused = createSearchLoaders({ http, configured: true, authenticated: true, organization, admit: () => Promise.reject(new Error('FORBIDDEN')) });
    await expect(refused.search('svc.alert*', {})).rejects.toThrow('FORBIDDEN');
    expect(http.seen).toHaveLength(2);
  });
});
