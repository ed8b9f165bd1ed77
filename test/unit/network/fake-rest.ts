/**
 * An in-memory rest/v1 behind the HttpClient interface, for unit tests of the client and the
 * loaders: one network with endpoints, services, AppWANs and endpoint groups, HAL bodies, a call
 * log.
 */
import { UpstreamError } from '../../../src/errors/codes';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../../../src/upstream/http-types';

export interface FakeRest extends HttpClient {
  calls: string[];
  /** Calls whose path matches, e.g. count(/\/appWans$/). */
  count(pattern: RegExp): number;
}

const ok = (body: unknown): UpstreamResponse => ({ status: 200, headers: {}, body, text: JSON.stringify(body) });
const hal = (key: string, items: unknown[]) => ({ _embedded: { [key]: items } });

export interface FakeNetworkOptions {
  endpoints: number;
  appWans: number;
  pageMax?: number;
  /**
   * Endpoint groups `eg-g`: group g holds every endpoint whose index ≡ g (mod groups + 1), and
   * every even AppWAN k holds group ⌊k/2⌋ mod groups (so with 6 AppWANs and 2 groups, eg-0 is held
   * twice). @default 0
   */
  groups?: number;
  /** Group records carry `_links.endpoints` (absolute, templated). @default true */
  groupLinks?: boolean;
}

export function fakeNetwork(opts: FakeNetworkOptions): FakeRest {
  const net = 'net-1';
  const endpoints = Array.from({ length: opts.endpoints }, (_, i) => ({ id: `ep-${i}`, name: `ep ${i}`, networkId: net, status: 300, _links: { self: { href: `/networks/${net}/endpoints/ep-${i}` } } }));
  const services = [0, 1].map((i) => ({ id: `svc-${i}`, name: `svc ${i}`, serviceClass: 'CS', networkId: net, endpointId: 'ep-0' }));
  // AppWAN k holds every endpoint whose index ≡ k (mod appWans) and service k % 2.
  const appWans = Array.from({ length: opts.appWans }, (_, k) => ({ id: `aw-${k}`, name: `aw ${k}`, networkId: net, status: 600 }));
  const epOf = (k: number) => endpoints.filter((_, i) => i % opts.appWans === k);
  const svcOf = (k: number) => [services[k % 2]];
  const max = opts.pageMax ?? 1000;
  const groupCount = opts.groups ?? 0;
  const groups = Array.from({ length: groupCount }, (_, g) => {
    const self = `http://upstream.example/rest/v1/networks/${net}/endpointGroups/eg-${g}`;
    const links = opts.groupLinks === false ? { self: { href: self } } : { self: { href: self }, endpoints: { href: `${self}/endpoints{?page,size,sort}` } };
    return { id: `eg-${g}`, name: `group ${g}`, networkId: net, _links: links };
  });
  const groupMembers = (g: number) => endpoints.filter((_, i) => i % (groupCount + 1) === g);
  const groupsOf = (k: number) => (groupCount > 0 && k % 2 === 0 ? [Math.floor(k / 2) % groupCount] : []);
  /** AppWAN k reaches endpoint i directly or through a group it holds (the upstream's meaning). */
  const reaches = (k: number, i: number) => i % opts.appWans === k || groupsOf(k).some((g) => i % (groupCount + 1) === g);

  function page(key: string, items: unknown[], req: UpstreamRequest) {
    const size = Math.min(Number(req.query?.['size'] ?? 20), max);
    const number = Number(req.query?.['page'] ?? 0);
    return {
      ...hal(key, items.slice(number * size, number * size + size)),
      page: { number, size, totalElements: items.length, totalPages: Math.ceil(items.length / size) },
    };
  }

  const calls: string[] = [];
  const fake: FakeRest = {
    calls,
    count: (pattern) => calls.filter((c) => pattern.test(c)).length,
    async send(req) {
      calls.push(req.path);
      const p = req.path.replace(/^http:\/\/upstream\.example\/rest\/v1/, '');
      let m: RegExpMatchArray | null;
      if (p === `/networks/${net}`) return ok({ id: net, name: 'net', status: 300 });
      if (p === `/networks/${net}/endpoints`) return ok(page('endpoints', endpoints, req));
      if (p === `/networks/${net}/appWans`) return ok(page('appWans', appWans, req));
      if (p === `/networks/${net}/endpointGroups`) return ok(hal('endpointGroups', groups));
      if ((m = p.match(/^\/networks\/net-1\/endpoints\/(ep-\d+)\/appWans$/))) {
        const i = endpoints.findIndex((e) => e.id === m?.[1]);
        return ok(hal('appWans', appWans.filter((_, k) => reaches(k, i))));
      }
      if ((m = p.match(/^\/networks\/net-1\/services\/(svc-\d+)\/appWans$/))) {
        const s = Number(m[1]?.slice(4));
        return ok(hal('appWans', appWans.filter((_, k) => k % 2 === s)));
      }
      if ((m = p.match(/^\/networks\/net-1\/appWans\/aw-(\d+)\/endpoints$/))) return ok(hal('endpoints', epOf(Number(m[1]))));
      if ((m = p.match(/^\/networks\/net-1\/appWans\/aw-(\d+)\/services$/))) return ok(hal('services', svcOf(Number(m[1]))));
      if ((m = p.match(/^\/networks\/net-1\/appWans\/aw-(\d+)\/endpointGroups$/))) {
        return ok(hal('endpointGroups', groupsOf(Number(m[1])).map((g) => groups[g])));
      }
      if ((m = p.match(/^\/networks\/net-1\/endpointGroups\/eg-(\d+)\/endpoints$/))) return ok(page('endpoints', groupMembers(Number(m[1])), req));
      if ((m = p.match(/^\/networks\/net-1\/endpoints\/(ep-\d+)$/))) {
        const e = endpoints.find((x) => x.id === m?.[1]);
        if (e !== undefined) return ok(e);
      }
      const dataCenters = ['dc-0', 'dc-1', 'dc-2'].map((id) => ({ id, locationCode: `loc-${id}` }));
      if (p === '/dataCenters') return ok(hal('dataCenters', dataCenters));
      if ((m = p.match(/^\/dataCenters\/(dc-\d+)$/))) {
        const dc = dataCenters.find((d) => d.id === m?.[1]);
        if (dc !== undefined) return ok(dc);
      }
      if (p === '/bad-shape') return ok({ _embedded: 'nope' });
      throw new UpstreamError('NOT_FOUND', 'not found', { service: 'rest-v1', method: 'GET', path: p, status: 404 });
    },
  };
  return fake;
}
