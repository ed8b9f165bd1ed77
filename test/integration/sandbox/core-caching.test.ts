import type { RunningSandbox } from '../../../src/sandbox';
import { call, firstNetwork, withSandbox } from './sandbox-client';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await withSandbox();
});
afterAll(() => sandbox.close());
beforeEach(() => {
  sandbox.control.clearCaching();
  sandbox.control.resetCalls();
});

const control = (method: string, body?: unknown): ReturnType<typeof call> =>
  call(sandbox, method, '/__sandbox/caching', { token: null, ...(body === undefined ? {} : { body }) });

describe('sandbox caching mode', () => {
  it('is off by default: no ETag, Last-Modified or Cache-Control, and If-None-Match is ignored', async () => {
    const r = await call(sandbox, 'GET', '/rest/v1/geoRegions', { headers: { 'If-None-Match': '*' } });
    expect(r.status).toBe(200);
    expect(r.headers.get('etag')).toBeNull();
    expect(r.headers.get('cache-control')).toBeNull();
    expect(r.headers.get('last-modified')).toBeNull();
  });

  it('sends a private max-age, an ETag and Last-Modified, and answers 304 to either validator', async () => {
    expect((await control('POST', { rules: [{ route: '/rest/v1/geoRegions', maxAgeS: 30 }] })).status).toBe(200);
    const first = await call(sandbox, 'GET', '/rest/v1/geoRegions');
    expect(first.status).toBe(200);
    expect(first.headers.get('cache-control')).toBe('private, max-age=30');
    const etag = first.headers.get('etag');
    const lastModified = first.headers.get('last-modified');
    expect(etag).toMatch(/^".+"$/);
    expect(lastModified).not.toBeNull();

    const byTag = await call(sandbox, 'GET', '/rest/v1/geoRegions', { headers: { 'If-None-Match': etag ?? '' } });
    expect(byTag.status).toBe(304);
    expect(byTag.text).toBe('');
    expect(byTag.headers.get('etag')).toBe(etag);
    const byDate = await call(sandbox, 'GET', '/rest/v1/geoRegions', { headers: { 'If-Modified-Since': lastModified ?? '' } });
    expect(byDate.status).toBe(304);
    const otherTag = await call(sandbox, 'GET', '/rest/v1/geoRegions', { headers: { 'If-None-Match': '"other"' } });
    expect(otherTag.status).toBe(200);
    expect(otherTag.json).toEqual(first.json);

    expect((await control('GET')).json).toEqual({ rules: [{ route: '/rest/v1/geoRegions', maxAgeS: 30 }], notModified: 2 });
    // Routes the rules do not name carry no caching header.
    expect((await call(sandbox, 'GET', '/rest/v1/dataCenters')).headers.get('etag')).toBeNull();
  });

  it('a change gives a new ETag, so the old one is answered in full', async () => {
    sandbox.control.setCaching([{ route: '/rest/v1/networks/{networkId}' }]);
    const net = firstNetwork(sandbox.restFacts());
    const before = await call(sandbox, 'GET', `/rest/v1/networks/${net.id}`);
    const etag = before.headers.get('etag') ?? '';
    expect(before.headers.get('cache-control')).toBe('private, max-age=60');
    const renamed = await call(sandbox, 'PUT', `/rest/v1/networks/${net.id}`, { body: { name: 'renamed-for-caching' } });
    expect(renamed.status).toBe(200);
    expect(renamed.headers.get('etag')).toBeNull(); // changes never carry validators
    const after = await call(sandbox, 'GET', `/rest/v1/networks/${net.id}`, { headers: { 'If-None-Match': etag } });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(etag);
    expect(Date.parse(after.headers.get('last-modified') ?? '')).toBeGreaterThan(Date.parse(before.headers.get('last-modified') ?? ''));
  });

  it('no-store rules send no-store; error answers carry no validators; bad rules are refused', async () => {
    sandbox.control.setCaching([{ route: '^/rest/v1/geo', noStore: true }]);
    expect((await call(sandbox, 'GET', '/rest/v1/geoRegions')).headers.get('cache-control')).toBe('no-store');
    const refused = await call(sandbox, 'GET', '/rest/v1/geoRegions', { token: null });
    expect(refused.status).toBe(401);
    expect(refused.headers.get('etag')).toBeNull();
    expect((await control('POST', { maxAgeS: -1 })).status).toBe(400);
    expect((await control('POST', { ttl: 1 })).status).toBe(400);
    expect((await control('DELETE')).status).toBe(204);
    expect((await control('GET')).json).toEqual({ rules: [], notModified: 0 });
  });
});
