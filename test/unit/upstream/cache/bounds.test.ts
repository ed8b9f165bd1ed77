/**
 * The private cache's bounds hold whatever is put in it: its byte count includes the keys (a
 * hundred thousand small answers on long paths stay under it), its entry cap holds, a change visits only
 * the entries it touched (counted by the cache, not timed), and the index follows the entries
 * through eviction, replacement and changes.
 */
import { scopesOf, segmentsOf, staleTest } from '../../../../src/upstream/cache/change-scope';
import { UpstreamCache, type CacheRequest, type StoredAnswer } from '../../../../src/upstream/cache/store';
import type { UpstreamService } from '../../../../src/errors/codes';

const clock = Date.UTC(2026, 0, 1);
const now = (): number => clock;
const DATE = new Date(clock).toUTCString();

const cacheOf = (maxBytes: number, maxEntries?: number): UpstreamCache =>
  new UpstreamCache({ maxBytes, ...(maxEntries === undefined ? {} : { maxEntries }), ttls: new Map(), now });

const read = (path: string, credentialKey = 'alice', service: UpstreamService = 'rest-v1'): CacheRequest => {
  const base = service === 'core-v2' ? '/core/v2' : service === 'auth-v1' ? '/auth/v1' : service === 'identity-v1' ? '/identity/v1' : '/rest/v1';
  return { service, pathAndQuery: `${base}${path}`, pathname: `${base}${path.split('?')[0] ?? ''}`, credentialKey, headers: { accept: 'application/json' } };
};
const small: StoredAnswer = { status: 200, headers: { 'cache-control': 'private, max-age=60', date: DATE }, text: '1' };
const keep = (cache: UpstreamCache, request: CacheRequest, answer: StoredAnswer = small): boolean =>
  cache.store(cache.keyOf(request), request, answer, cache.mark()) !== null;
const held = (cache: UpstreamCache, request: CacheRequest): boolean => cache.get(cache.keyOf(request)) !== undefined;

/** Memberships the index must hold for `requests` (each held entry under each of its scopes). */
const memberships = (cache: UpstreamCache, requests: readonly CacheRequest[]): number =>
  requests.filter((r) => held(cache, r)).reduce((n, r) => n + scopesOf(r.service, segmentsOf(r.pathname.replace(/^\/[a-z]+\/v[12]/, ''))).length, 0);

describe('the byte bound counts keys, policies and the index', () => {
  it('100,000 small answers on long paths never take more than the bound, counting their keys alone', () => {
    const maxBytes = 8 * 1024 * 1024;
    const cache = cacheOf(maxBytes, 5_000_000);
    const id = 'x'.repeat(1_000);
    let fewest = Infinity;
    let most = 0;
    for (let i = 0; i < 100_000; i += 1) {
      const request = read(`/networks/n${i % 97}/endpoints/${id}${i}`);
      keep(cache, request);
      // Independently of the cache's own count: the keys it holds are at least this many bytes.
      const keyBytes = cache.keyOf(request).length * 2;
      if (i % 1_000 === 0) {
        expect(cache.size.entries * keyBytes).toBeLessThanOrEqual(maxBytes);
        expect(cache.size.bytes).toBeLessThanOrEqual(maxBytes);
      }
      fewest = Math.min(fewest, cache.size.entries);
      most = Math.max(most, cache.size.entries);
    }
    expect(held(cache, read(`/networks/n${99_999 % 97}/endpoints/${id}99999`))).toBe(true);
    // The answers are one byte, the count some 10 KB an entry (the 1,000-character id is held in the
    // key, the policy's URL, a path segment and an index scope): before keys counted, 8 MiB took
    // some 12,000 of these.
    expect(most).toBeLessThan(1_000);
    expect(most).toBeGreaterThan(500);
    expect(fewest).toBe(1);
  }, 60_000);

  it('counts the policy: the same answer with more request headers takes more of the bound', () => {
    const cache = cacheOf(1024 * 1024);
    const plain = read('/geoRegions');
    const varied: CacheRequest = { ...read('/geoRegions', 'bob'), headers: { accept: 'application/json', 'x-trace': 'y'.repeat(2_000) } };
    const answer: StoredAnswer = { ...small, headers: { ...small.headers, vary: 'x-trace' } };
    const a = cache.store(cache.keyOf(plain), plain, answer, cache.mark());
    const b = cache.store(cache.keyOf(varied), varied, answer, cache.mark());
    // The policy keeps the request's headers to check Vary: their 2,000 characters are counted once more.
    expect((b?.bytes ?? 0) - (a?.bytes ?? 0)).toBeGreaterThanOrEqual(2 * 2_000);
  });
});

describe('the entry cap', () => {
  it('holds however small the entries, least recently used going first', () => {
    const cache = cacheOf(64 * 1024 * 1024, 100);
    const requests = Array.from({ length: 1_000 }, (_, i) => read(`/geoRegions/${i}`));
    for (const request of requests) {
      keep(cache, request);
      expect(cache.size.entries).toBeLessThanOrEqual(100);
    }
    expect(cache.size.entries).toBe(100);
    expect(requests.filter((r) => held(cache, r))).toEqual(requests.slice(900));
    expect(cache.size.memberships).toBe(memberships(cache, requests));
  });
});

describe('a change visits only what it touched', () => {
  it('one endpoint changed among 100,000 unrelated entries: the ones it touched are visited, nothing else', () => {
    const cache = cacheOf(1024 * 1024 * 1024, 200_000);
    for (let i = 0; i < 100_000; i += 1) keep(cache, read(`/networks/n${(i % 50) + 2}/endpoints/e${i}`, `caller${i % 7}`));
    const touched = [
      read('/networks/n1/endpoints/e1'),
      read('/networks/n1/endpoints/e1', 'bob'),
      read('/networks/n1/appWans/a1/endpoints'),
      read('/networks?page=0'),
      read('/organizations/g1/networks', 'bob'),
    ];
    for (const request of touched) keep(cache, request);
    const elsewhere = read('/networks/n2/endpoints/e0', 'caller0');
    expect(held(cache, elsewhere)).toBe(true);
    const before = cache.visited;
    expect(cache.invalidate({ service: 'rest-v1', path: '/networks/n1/endpoints/e1' })).toBe(touched.length);
    expect(cache.visited - before).toBe(touched.length);
    for (const request of touched) expect(held(cache, request)).toBe(false);
    expect(held(cache, elsewhere)).toBe(true);
    expect(cache.size.entries).toBe(100_000);
  });

  it('a change of a kind visits the reads naming it; an auth/v1 change, the auth/v1 reads; search, none', () => {
    const cache = cacheOf(64 * 1024 * 1024);
    for (let i = 0; i < 1_000; i += 1) keep(cache, read(`/networks/n${i}/endpoints`));
    keep(cache, read('/networkConfigMetadata'));
    keep(cache, read('/networks/n5/networkConfigMetadata'));
    keep(cache, read('/grants', 'alice', 'auth-v1'));
    keep(cache, read('/domains/d1', 'bob', 'auth-v1'));
    keep(cache, read('/endpoints?networkId=n1', 'alice', 'core-v2'));
    let before = cache.visited;
    expect(cache.invalidate({ service: 'rest-v1', path: '/networkConfigMetadata/m1' })).toBe(2);
    expect(cache.visited - before).toBe(2);
    before = cache.visited;
    expect(cache.invalidate({ service: 'auth-v1', path: '/super-users' })).toBe(2);
    expect(cache.visited - before).toBe(2);
    before = cache.visited;
    expect(cache.invalidate({ service: 'search', path: '/events/_search' })).toBe(0);
    expect(cache.invalidate({ service: 'core-v2', path: '/edge-routers' })).toBe(0);
    expect(cache.visited - before).toBe(0);
    expect(cache.invalidate({ service: 'core-v2', path: '/endpoints' })).toBe(1);
    expect(cache.size.entries).toBe(1_000);
  });
});

describe('the index follows the entries', () => {
  it('through eviction, replacement, revalidation and changes, it holds exactly the held entries, and nothing once they are gone', () => {
    const cache = cacheOf(256 * 1024, 500);
    const requests: CacheRequest[] = [];
    for (let round = 0; round < 20; round += 1) {
      for (let i = 0; i < 300; i += 1) {
        const request = read(`/networks/n${i % 13}/${i % 2 === 0 ? 'endpoints' : 'services'}/r${round * 300 + i}`, `caller${i % 3}`);
        requests.push(request);
        keep(cache, request, { ...small, text: 'z'.repeat(i % 50) });
      }
      // The same keys again (replacement) and a 304 merged into one of them.
      for (const request of requests.slice(-20)) keep(cache, request);
      const last = requests[requests.length - 1];
      const entry = last === undefined ? undefined : cache.get(cache.keyOf(last));
      if (last !== undefined && entry !== undefined) cache.revalidated(cache.keyOf(last), entry, last, { date: DATE }, cache.mark());
      cache.invalidate({ service: 'rest-v1', path: `/networks/n${round % 13}/endpoints/x` });
      expect(cache.size.memberships).toBe(memberships(cache, requests));
      expect(cache.size.bytes).toBeLessThanOrEqual(256 * 1024);
      expect(cache.size.entries).toBeLessThanOrEqual(500);
    }
    expect(cache.size.entries).toBeGreaterThan(0);
    for (let n = 0; n < 13; n += 1) cache.invalidate({ service: 'rest-v1', path: `/networks/n${n}` });
    expect(cache.size).toEqual({ entries: 0, bytes: 0, scopes: 0, memberships: 0 });
  });

  it('an answer grown past the bound replaces nothing: the older one goes, and its index slots with it', () => {
    const cache = cacheOf(64 * 1024);
    const request = read('/geoRegions');
    keep(cache, request);
    expect(cache.size.entries).toBe(1);
    expect(keep(cache, request, { ...small, text: 'z'.repeat(64 * 1024) })).toBe(true);
    expect(cache.size).toEqual({ entries: 0, bytes: 0, scopes: 0, memberships: 0 });
  });

  it('clear empties the index too', () => {
    const cache = cacheOf(1024 * 1024);
    for (let i = 0; i < 10; i += 1) keep(cache, read(`/networks/n${i}`));
    cache.clear();
    expect(cache.size).toEqual({ entries: 0, bytes: 0, scopes: 0, memberships: 0 });
  });
});

describe('the scopes say what the rules say', () => {
  const services: UpstreamService[] = ['rest-v1', 'core-v2', 'auth-v1', 'identity-v1', 'search'];
  const paths = ['/networks', '/networks/n1', '/networks/n2', '/networks/n1/endpoints/e1', '/networks/n1/appWans/a1/endpoints', '/organizations/g1', '/organizations/g1/networks',
    '/networkgroups/g1/networks', '/workflow-status', '/network-processes', '/networkConfigMetadata/m1', '/networks/n1/networkConfigMetadata', '/endpoints', '/dataCenters',
    '/organization', '/grants', '/super-users', '/', '/networks/networks', '/endpoints/networks'];

  /** The rules of change-scope.ts's header as plain predicates over a read, written apart from the scopes. */
  const rule = (changeService: UpstreamService, changed: string, service: UpstreamService, read: readonly string[]): boolean => {
    const [kind, id] = segmentsOf(changed);
    const [rKind, rId] = read;
    const lists = ['organizations', 'network-groups', 'networkgroups', 'workflow-status', 'network-processes'];
    switch (changeService) {
      case 'search':
      case 'identity-v1':
        return false;
      case 'auth-v1':
        return service === 'auth-v1';
      case 'rest-v1':
        if (kind === 'networks' || kind === 'organizations') {
          const group = kind === 'organizations';
          if (service === 'identity-v1') return group;
          if (service !== 'rest-v1') return false;
          if (rKind === 'networks') return read.length === 1 || (!group && id !== undefined && rId === id);
          return rKind !== undefined && lists.includes(rKind);
        }
        return service === 'rest-v1' && (kind === undefined || read.includes(kind));
      case 'core-v2':
        return service === 'core-v2' && (kind === undefined || read.includes(kind));
    }
  };

  it('a change reaches, through the scopes, exactly the reads the rules name', () => {
    const wrong: string[] = [];
    for (const changeService of services) {
      for (const changed of paths) {
        const test = staleTest({ service: changeService, path: changed });
        for (const service of services) {
          for (const path of paths) {
            const segments = segmentsOf(path);
            if (test(service, segments) !== rule(changeService, changed, service, segments)) wrong.push(`${changeService} ${changed} → ${service} ${path}`);
          }
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('a read is filed once under each scope', () => {
    const scopes = scopesOf('rest-v1', segmentsOf('/networks/n1/networks/n1'));
    expect(new Set(scopes).size).toBe(scopes.length);
  });
});
