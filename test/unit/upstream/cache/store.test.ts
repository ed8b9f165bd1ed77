import { kindOf, segmentsOf, servicePath, staleTest } from '../../../../src/upstream/cache/change-scope';
import { UpstreamCache, type CacheRequest, type StoredAnswer } from '../../../../src/upstream/cache/store';

let clock = Date.UTC(2026, 0, 1);
const now = (): number => clock;
beforeEach(() => {
  clock = Date.UTC(2026, 0, 1);
});

const cacheOf = (ttls: Record<string, number> = {}, maxBytes = 1024 * 1024): UpstreamCache => new UpstreamCache({ maxBytes, ttls: new Map(Object.entries(ttls)), now });

const read = (path: string, credentialKey = 'alice', headers: Record<string, string> = {}): CacheRequest => {
  const pathname = `/rest/v1${path.split('?')[0] ?? ''}`;
  return { service: 'rest-v1', pathAndQuery: `/rest/v1${path}`, pathname, credentialKey, headers: { accept: 'application/json', ...headers } };
};
const answer = (headers: Record<string, string>, text = '{"ok":true}'): StoredAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/json', date: new Date(clock).toUTCString(), ...headers },
  text,
});
const fresh = (cache: UpstreamCache, request: CacheRequest): boolean => {
  const entry = cache.get(cache.keyOf(request));
  return entry !== undefined && entry.policy.satisfiesWithoutRevalidation(cache.requestOf(request));
};

describe('the private upstream cache', () => {
  it('keeps a private max-age answer fresh for max-age, then stale (a clock, no sleeping)', () => {
    const cache = cacheOf();
    const r = read('/geoRegions');
    expect(cache.store(cache.keyOf(r), r, answer({ 'cache-control': 'private, max-age=30', etag: '"a"' }), cache.mark())).not.toBeNull();
    clock += 29_000;
    expect(fresh(cache, r)).toBe(true);
    clock += 2_000;
    expect(fresh(cache, r)).toBe(false);
    // Stale but kept: it can be revalidated with its ETag.
    const entry = cache.get(cache.keyOf(r));
    expect(entry?.policy.revalidationHeaders(cache.requestOf(r))['if-none-match']).toBe('"a"');
  });

  it('never keeps no-store, nor a header-less answer without a TTL for its kind', () => {
    const cache = cacheOf({ dataCenters: 300 });
    const regions = read('/geoRegions');
    expect(cache.store(cache.keyOf(regions), regions, answer({ 'cache-control': 'no-store', etag: '"a"' }), cache.mark())).toBeNull();
    expect(cache.store(cache.keyOf(regions), regions, answer({ etag: '"a"', 'last-modified': new Date(clock - 86_400_000).toUTCString() }), cache.mark())).toBeNull();
    expect(cache.size.entries).toBe(0);
    // The operator's TTL makes a header-less kind cacheable, for that long.
    const centers = read('/dataCenters?locationCode=x');
    expect(cache.store(cache.keyOf(centers), centers, answer({}), cache.mark())).not.toBeNull();
    clock += 299_000;
    expect(fresh(cache, centers)).toBe(true);
    clock += 2_000;
    expect(fresh(cache, centers)).toBe(false);
  });

  it('keys by credential and Accept: one credential never sees another\'s entry', () => {
    const cache = cacheOf();
    const alice = read('/networks/n1', 'alice');
    cache.store(cache.keyOf(alice), alice, answer({ 'cache-control': 'private, max-age=60' }), cache.mark());
    expect(fresh(cache, alice)).toBe(true);
    expect(fresh(cache, read('/networks/n1', 'bob'))).toBe(false);
    expect(fresh(cache, read('/networks/n1', 'alice', { accept: 'application/hal+json' }))).toBe(false);
  });

  it('a request asking no-cache is not answered from the cache without revalidation', () => {
    const cache = cacheOf();
    const r = read('/networks/n1');
    cache.store(cache.keyOf(r), r, answer({ 'cache-control': 'private, max-age=60', etag: '"a"' }), cache.mark());
    expect(fresh(cache, read('/networks/n1', 'alice', { 'cache-control': 'no-cache' }))).toBe(false);
  });

  it('a 304 makes a stale entry fresh again, its body kept', () => {
    const cache = cacheOf();
    const r = read('/geoRegions');
    const key = cache.keyOf(r);
    const stored = cache.store(key, r, answer({ 'cache-control': 'private, max-age=10', etag: '"a"' }, '{"n":1}'), cache.mark());
    if (stored === null) throw new Error('not stored');
    clock += 60_000;
    expect(fresh(cache, r)).toBe(false);
    const updated = cache.revalidated(key, stored, r, { etag: '"a"', date: new Date(clock).toUTCString() }, cache.mark());
    expect(updated.answer.text).toBe('{"n":1}');
    expect(fresh(cache, r)).toBe(true);
  });

  it('a change forgets what it touched for every credential, and a read in flight across it is not kept', () => {
    const cache = cacheOf();
    const kept = (path: string, who: string): void => {
      const r = read(path, who);
      cache.store(cache.keyOf(r), r, answer({ 'cache-control': 'private, max-age=60' }), cache.mark());
    };
    for (const who of ['alice', 'bob']) {
      kept('/networks/n1/endpoints/e1', who);
      kept('/networks/n1/appWans/a1/endpoints', who);
      kept('/networks/n2/endpoints/e9', who);
      kept('/geoRegions', who);
      kept('/networks?page=0', who);
    }
    const inFlight = read('/networks/n1/endpoints/e2');
    const mark = cache.mark();
    expect(cache.invalidate({ service: 'rest-v1', path: '/networks/n1/endpoints/e1' })).toBe(6);
    for (const who of ['alice', 'bob']) {
      expect(fresh(cache, read('/networks/n1/endpoints/e1', who))).toBe(false);
      expect(fresh(cache, read('/networks/n1/appWans/a1/endpoints', who))).toBe(false);
      expect(fresh(cache, read('/networks?page=0', who))).toBe(false);
      expect(fresh(cache, read('/networks/n2/endpoints/e9', who))).toBe(true);
      expect(fresh(cache, read('/geoRegions', who))).toBe(true);
    }
    expect(cache.store(cache.keyOf(inFlight), inFlight, answer({ 'cache-control': 'private, max-age=60' }), mark)).toBeNull();
  });

  it('holds no more than its byte bound', () => {
    const cache = cacheOf({}, 20_000);
    for (let i = 0; i < 50; i += 1) {
      const r = read(`/geoRegions/${i}`);
      cache.store(cache.keyOf(r), r, answer({ 'cache-control': 'private, max-age=60' }, 'x'.repeat(2000)), cache.mark());
    }
    expect(cache.size.bytes).toBeLessThanOrEqual(20_000);
    expect(cache.size.entries).toBeGreaterThan(0);
    expect(cache.size.entries).toBeLessThan(50);
  });
});

describe('what a change touches', () => {
  const stale = (service: 'rest-v1' | 'auth-v1' | 'core-v2' | 'identity-v1', changed: string, read: string, readService = service): boolean =>
    staleTest({ service, path: changed })(readService, segmentsOf(read));

  it.each([
    ['rest-v1', '/networks/n1/endpoints/e1', '/networks/n1/endpoints', true],
    ['rest-v1', '/networks/n1/endpoints/e1', '/networks/n1/appWans/a1/endpoints', true],
    ['rest-v1', '/networks/n1/endpoints/e1', '/networks', true],
    ['rest-v1', '/networks/n1/endpoints/e1', '/organizations/g1/networks', true],
    ['rest-v1', '/networks/n1/endpoints/e1', '/networks/n2/endpoints', false],
    ['rest-v1', '/networks/n1/endpoints/e1', '/dataCenters', false],
    ['rest-v1', '/networks', '/networks/n2', false],
    ['rest-v1', '/networkConfigMetadata/m1', '/networks/n1/networkConfigMetadata', true],
    ['rest-v1', '/networkConfigMetadata/m1', '/networks/n1/endpoints', false],
    ['auth-v1', '/super-users', '/grants', true],
    ['core-v2', '/endpoints', '/endpoints', true],
    ['core-v2', '/endpoints', '/edge-routers', false],
  ] as const)('%s change of %s touches %s: %s', (service, changed, read, expected) => {
    expect(stale(service, changed, read)).toBe(expected);
  });

  it('a network group change touches identity/v1\'s organization; other changes do not', () => {
    expect(stale('rest-v1', '/organizations/g1', '/organization', 'identity-v1')).toBe(true);
    expect(stale('rest-v1', '/networks/n1', '/organization', 'identity-v1')).toBe(false);
  });

  it('finds the service path below any base prefix, and a read\'s kind', () => {
    expect(servicePath('rest-v1', '/prefix/rest/v1/networks/n1')).toBe('/networks/n1');
    expect(servicePath('search', '/idx/_search')).toBe('/idx/_search');
    expect(kindOf(segmentsOf('/dataCenters/d1'))).toBe('dataCenters');
    expect(kindOf(segmentsOf('/networks/n1/endpoints'))).toBe('endpoints');
    expect(kindOf(segmentsOf('/geoRegions'))).toBe('geoRegions');
  });
});
