import { ErrorCode, UpstreamError } from '../../../src/errors/codes';
import { AuthClient } from '../../../src/upstream/auth/client';
import { parseListBody } from '../../../src/upstream/auth/list-body';
import { parsePublicGrant, parseResourceType, parseDomain } from '../../../src/upstream/auth/records';
import { AUTH_RESOURCES } from '../../../src/upstream/auth/resources';
import { FakeAuthHttp, queryOf } from './fake-auth-http';

const domain = (id: string, code: string) => ({
  id,
  name: `Domain ${code}`,
  code,
  createdBy: 'u1',
  createdAt: '2024-01-01T00:00:00.000Z',
  updatedAt: '2024-01-01T00:00:00.000Z',
  _title: code,
});

describe('auth/v1 record parsers', () => {
  it('reads a resource type, deriving root from a missing parent and keeping unknown childrenIds null', () => {
    const t = parseResourceType({ id: 't1', domainId: 'd1', name: 'Net', code: 'network', parentId: null, depth: 0 });
    expect(t).toMatchObject({ id: 't1', root: true, depth: 0, childrenIds: null, title: null });
    const c = parseResourceType({ id: 't2', parentId: 't1', root: false, depth: 1, childrenIds: ['t3', 7] });
    expect(c).toMatchObject({ root: false, depth: 1, childrenIds: ['t3'] });
  });

  it('reads a public grant path, an absent path as empty, and rejects a path entry without resourceId', () => {
    const g = parsePublicGrant({ id: 'p1', resourceActionId: 'a1', path: [{ resourceId: 'r1', resourceTypeId: 't1' }], anonymous: true });
    expect(g.path).toEqual([{ resourceId: 'r1', resourceTypeId: 't1' }]);
    expect(parsePublicGrant({ id: 'p2' }).path).toEqual([]);
    expect(() => parsePublicGrant({ id: 'p3', path: [{ resourceTypeId: 't1' }] })).toThrow('resourceId');
  });

  it('rejects a record without its id', () => {
    expect(() => parseDomain({ name: 'x' })).toThrow('Domain.id');
  });
});

describe('auth/v1 list bodies', () => {
  it('accepts a bare array as a complete list', () => {
    const page = parseListBody([domain('d1', 'a')], parseDomain, 'domains');
    expect(page.page).toBeNull();
    expect(page.items.map((d) => d.code)).toEqual(['a']);
  });

  it('accepts a Spring page object', () => {
    const page = parseListBody(
      { content: [domain('d1', 'a')], totalElements: 3, totalPages: 3, size: 1, number: 0, first: true, last: false, empty: false },
      parseDomain,
      'domains',
    );
    expect(page.page).toEqual({ number: 0, size: 1, totalElements: 3, totalPages: 3 });
  });

  it('rejects anything else', () => {
    expect(() => parseListBody({ items: [] }, parseDomain, 'domains')).toThrow('expected an array or a page object');
  });
});

describe('AuthClient lists', () => {
  it('lists a bare array in one call, sending only the filters the operation accepts', async () => {
    const http = new FakeAuthHttp({ 'GET /resource-types': () => [] });
    await new AuthClient(http).list(AUTH_RESOURCES.resourceType, { domainId: 'd1', code: null, bogus: 'x' });
    expect(http.described()).toEqual(['GET /resource-types?domainId=d1']);
  });

  it('follows totalPages when the upstream pages (clamped to 2 per page)', async () => {
    const all = [domain('d1', 'a'), domain('d2', 'b'), domain('d3', 'c'), domain('d4', 'd'), domain('d5', 'e')];
    const http = new FakeAuthHttp({
      'GET /domains': (req) => {
        const page = Number(queryOf(req, 'page') ?? '0');
        return { content: all.slice(page * 2, page * 2 + 2), totalElements: 5, totalPages: 3, size: 2, number: page };
      },
    });
    const items = await new AuthClient(http).list(AUTH_RESOURCES.domain);
    expect(items.map((d) => d.code)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(http.calls).toHaveLength(3);
  });

  it('turns a body of the wrong shape into UPSTREAM_BAD_RESPONSE naming the call', async () => {
    const http = new FakeAuthHttp({ 'GET /domains/x': () => ({ name: 'no id' }) });
    const error: unknown = await new AuthClient(http).get(AUTH_RESOURCES.domain, 'x').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UpstreamError);
    expect(error).toMatchObject({ code: ErrorCode.UPSTREAM_BAD_RESPONSE, upstream: { service: 'auth-v1', method: 'GET', path: '/domains/x' } });
  });

  it('parses the array answer of createResourceActions', async () => {
    const http = new FakeAuthHttp({ 'POST /resource-actions': (req) => [{ id: 'a1', resourceTypeId: 't1', code: 'read', name: 'Read', json: req.json }] });
    const created = await new AuthClient(http).write('createResourceActions', { resourceTypeId: 't1', actions: [{ name: 'Read', code: 'read' }] });
    expect(created.map((a) => a.code)).toEqual(['read']);
    expect(http.calls[0]?.json).toEqual({ resourceTypeId: 't1', actions: [{ name: 'Read', code: 'read' }] });
  });
});

describe('AuthClient lists: bare arrays as long as the page size', () => {
  const many = (from: number, n: number) => Array.from({ length: n }, (_, i) => domain(`d${from + i}`, `c${from + i}`));

  it('asks for the next page until a shorter one', async () => {
    const http = new FakeAuthHttp({
      'GET /domains': (req) => (queryOf(req, 'page') === '0' ? many(0, 1000) : many(1000, 5)),
    });
    const items = await new AuthClient(http).list(AUTH_RESOURCES.domain);
    expect(items).toHaveLength(1005);
    expect(http.calls.map((c) => queryOf(c, 'page'))).toEqual(['0', '1']);
  });

  it('stops when the upstream ignores page and repeats itself', async () => {
    const http = new FakeAuthHttp({ 'GET /domains': () => many(0, 1000) });
    const items = await new AuthClient(http).list(AUTH_RESOURCES.domain);
    expect(items).toHaveLength(1000);
    expect(http.calls).toHaveLength(2);
  });
});
