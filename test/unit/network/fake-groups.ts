/**
 * An in-memory rest/v1 with two network groups (g-0: n-0, n-1; g-1: n-2, n-3; n-4 in g-1 and
 * empty), for the shared-list plans: `/networks` (filterable by organizationId), per-network
 * endpoint lists and `/networkgroups/{g}/endpoints` in the forms the contract leaves open
 * (paged or not, HAL or a bare array, honouring `sort` or not). Endpoints are created
 * interleaved across networks, so a group list in creation order mixes them. Sort keys are
 * honoured by code unit, as rest/v1 documents `sort=field,DIRECTION`.
 */
import { UpstreamError } from '../../../src/errors/codes';
import type { HttpClient, UpstreamRequest, UpstreamResponse } from '../../../src/upstream/http-types';

export interface FakeGroupsOptions {
  /** How `/networkgroups/{g}/endpoints` answers. @default 'paged' */
  groupForm?: 'paged' | 'hal' | 'bare';
  /** The group list ignores `sort` and answers newest first. @default false */
  groupIgnoresSort?: boolean;
  /** Largest page any paged list serves. @default 1000 */
  pageMax?: number;
  /** Records that lose a field on every list: n-1's organizationId, ep-n-0-1's networkId. */
  drop?: { organizationId?: boolean; networkId?: boolean };
  /** `/networks` lists only g-0's networks (an upstream scoping it to the caller's group). */
  networksOfG0Only?: boolean;
}

export interface FakeGroups extends HttpClient {
  calls: string[];
  count(pattern: RegExp): number;
}

type Row = Record<string, string | number | null>;

const ok = (body: unknown): UpstreamResponse => ({ status: 200, headers: {}, body, text: JSON.stringify(body) });
const stamp = (i: number) => new Date(Date.UTC(2024, 0, 1, 0, i)).toISOString();

function sortRows(rows: Row[], sort: readonly string[]): Row[] {
  const keys = sort.map((s) => {
    const [field = '', dir = 'ASC'] = s.split(',');
    return { field, sign: dir.toUpperCase().startsWith('DES') ? -1 : 1 };
  });
  return [...rows].sort((a, b) => {
    for (const { field, sign } of keys) {
      const x = a[field] ?? '';
      const y = b[field] ?? '';
      if (x !== y) return (x < y ? -1 : 1) * sign;
    }
    return 0;
  });
}

function sortParam(req: UpstreamRequest): string[] {
  const s = req.query?.['sort'];
  return typeof s === 'string' ? [s] : Array.isArray(s) ? s.filter((x): x is string => typeof x === 'string') : [];
}

export function fakeGroups(opts: FakeGroupsOptions = {}): FakeGroups {
  const max = opts.pageMax ?? 1000;
  const groups = ['g-0', 'g-1'].map((id) => ({ id, name: `group ${id}`, _links: { networks: { href: `http://upstream.example/rest/v1/networks?organizationId=${id}` } } }));
  const networks: Row[] = ['n-0', 'n-1', 'n-2', 'n-3', 'n-4'].map((id, i) => ({
    id,
    name: `net ${4 - i}`,
    organizationId: i < 2 ? 'g-0' : 'g-1',
    createdAt: stamp(i),
  }));
  // Created round-robin over n-0…n-3, five each; ids descend so creation order is not id order.
  const endpoints: Row[] = [];
  for (let k = 0; k < 5; k++) {
    for (let n = 0; n < 4; n++) {
      const i = endpoints.length;
      endpoints.push({ id: `ep-n-${n}-${4 - k}`, name: `ep ${i % 7}`, networkId: `n-${n}`, createdAt: stamp(100 + i), status: 300 });
    }
  }
  const drop = (rows: Row[]): Row[] =>
    rows.map((r) => {
      const out = { ...r };
      if (opts.drop?.organizationId === true && r['id'] === 'n-1') delete out['organizationId'];
      if (opts.drop?.networkId === true && r['id'] === 'ep-n-0-1') delete out['networkId'];
      return out;
    });

  function paged(key: string, rows: Row[], req: UpstreamRequest): unknown {
    const size = Math.min(Number(req.query?.['size'] ?? 20), max);
    const number = Number(req.query?.['page'] ?? 0);
    return {
      _embedded: { [key]: rows.slice(number * size, number * size + size) },
      page: { number, size, totalElements: rows.length, totalPages: Math.ceil(rows.length / size) },
    };
  }

  const calls: string[] = [];
  return {
    calls,
    count: (pattern) => calls.filter((c) => pattern.test(c)).length,
    async send(req) {
      const p = req.path.replace(/^http:\/\/upstream\.example\/rest\/v1/, '');
      calls.push(p);
      await new Promise((resolve) => setImmediate(resolve));
      const sort = sortParam(req);
      let m: RegExpMatchArray | null;
      if (p === '/organizations') return ok({ _embedded: { organizations: groups } });
      if (p === '/networks') {
        const org = req.query?.['organizationId'];
        const scoped = opts.networksOfG0Only === true ? networks.filter((n) => n['organizationId'] === 'g-0') : networks;
        const rows = typeof org === 'string' ? networks.filter((n) => n['organizationId'] === org) : scoped;
        return ok(paged('networks', drop(sortRows(rows, sort)), req));
      }
      if ((m = p.match(/^\/networks\/(n-\d)\/endpoints$/))) {
        const rows = endpoints.filter((e) => e['networkId'] === m?.[1]);
        return ok(paged('endpoints', drop(sortRows(rows, sort)), req));
      }
      if ((m = p.match(/^\/networkgroups\/(g-\d)\/endpoints$/))) {
        const nets = new Set(networks.filter((n) => n['organizationId'] === m?.[1]).map((n) => n['id']));
        const inGroup = endpoints.filter((e) => nets.has(e['networkId'] ?? ''));
        const rows = drop(opts.groupIgnoresSort === true ? [...inGroup].reverse() : sortRows(inGroup, sort));
        const form = opts.groupForm ?? 'paged';
        return ok(form === 'bare' ? rows : form === 'hal' ? { _embedded: { endpoints: rows } } : paged('endpoints', rows, req));
      }
      throw new UpstreamError('NOT_FOUND', 'not found', { service: 'rest-v1', method: 'GET', path: p, status: 404 });
    },
  };
}
