import type { RunningSandbox } from '../../../src/sandbox';
import { at, call, records, withSandbox } from './sandbox-client';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await withSandbox();
});
afterAll(() => sandbox.close());

describe('sandbox core: routing, auth, errors', () => {
  it('answers 404 with a Spring error body for an unknown path', async () => {
    const r = await call(sandbox, 'GET', '/rest/v1/nothing-here');
    expect(r.status).toBe(404);
    expect(r.json).toEqual(
      expect.objectContaining({ status: 404, error: 'Not Found', path: '/rest/v1/nothing-here', message: expect.any(String), timestamp: expect.any(String) }),
    );
  });

  it('answers 405 with Allow for a known path and a wrong method', async () => {
    const r = await call(sandbox, 'PATCH', '/rest/v1/networks');
    expect(r.status).toBe(405);
    expect(r.headers.get('allow')).toContain('GET');
  });

  it('treats trailing slashes as insignificant', async () => {
    const a = await call(sandbox, 'GET', '/rest/v1/network-groups/');
    const b = await call(sandbox, 'GET', '/rest/v1/network-groups');
    expect(a.status).toBe(200);
    expect(b.json).toEqual(expect.objectContaining({ _embedded: at(a.json, '_embedded') }));
  });

  it.each([
    ['missing', null],
    ['malformed', 'not-a-jwt'],
    ['bad signature', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl'],
  ])('answers 401 to a %s token', async (_, token) => {
    const r = await call(sandbox, 'GET', '/rest/v1/networks', { token });
    expect(r.status).toBe(401);
    expect(at(r.json, 'status')).toBe(401);
  });

  it('answers 401 to an expired token', async () => {
    const expired = sandbox.tokenService.sign({ sub: 'x', exp: Math.floor(Date.now() / 1000) - 10 });
    expect((await call(sandbox, 'GET', '/rest/v1/networks', { token: expired })).status).toBe(401);
  });

  it('answers 400 to malformed JSON and keeps serving', async () => {
    const r = await call(sandbox, 'POST', '/rest/v1/networks', { rawBody: '{"name": ', contentType: 'application/json' });
    expect(r.status).toBe(400);
    expect(String(at(r.json, 'message'))).toContain('malformed JSON');
    expect((await call(sandbox, 'GET', '/rest/v1/networks')).status).toBe(200);
  });

  it('guards search routes with basic credentials (401 + WWW-Authenticate: Basic) and accepts the right ones', async () => {
    const url = `${sandbox.searchUrl}/zfw.events*/_search`;
    const json = { 'Content-Type': 'application/json' };
    const none = await fetch(url, { method: 'POST', body: '{}', headers: json });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Basic/);
    const wrong = await fetch(url, { method: 'POST', body: '{}', headers: { ...json, Authorization: `Basic ${Buffer.from('sandbox:nope').toString('base64')}` } });
    expect(wrong.status).toBe(401);
    const { username, password } = sandbox.searchCredentials;
    const right = await fetch(url, { method: 'POST', body: '{"size":1}', headers: { ...json, Authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` } });
    expect(right.status).toBe(200);
  });

  it('proxies network-event searches for a network group (rest/v1 /elastic/ncentityevent/{orgId}/_search/)', async () => {
    const org = sandbox.restFacts().organizationIds[0] ?? '';
    const r = await call(sandbox, 'POST', `/rest/v1/elastic/ncentityevent/${org}/_search/`, { body: { size: 3, query: { match_all: {} } } });
    expect(r.status).toBe(200);
    const hits = records(at(r.json, 'hits', 'hits'));
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => at(h, '_source', 'organizationId') === org)).toBe(true);
    expect((await call(sandbox, 'POST', `/rest/v1/elastic/ncentityevent/nope/_search/`, { body: {} })).status).toBe(404);
    expect((await call(sandbox, 'POST', `/rest/v1/elastic/ncentityevent/${org}/_search/`, { body: {}, token: sandbox.tokens.nobody })).status).toBe(403);
  });

  it('serves every area on one origin: auth/v1, rest/v1, identity/v1 and core/v2', async () => {
    for (const path of ['/auth/v1/domains', '/rest/v1/networks', '/identity/v1/organization', '/core/v2/networks']) {
      const r = await call(sandbox, 'GET', path);
      expect([path, r.status]).toEqual([path, 200]);
      expect((await call(sandbox, 'GET', path, { token: null })).status).toBe(401);
    }
  });
});
