import type { RunningSandbox } from '../../../src/sandbox';
import { at, call, withSandbox } from './sandbox-client';

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

  it('answers 401 with a Basic challenge on search routes without credentials', async () => {
    const res = await fetch(`${sandbox.searchUrl}/zfw.events*/_search`, { method: 'POST', body: '{}', headers: { 'Content-Type': 'application/json' } });
    // The search area may not be wired in every build; when it is, basic auth guards it.
    if (res.status !== 404) {
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    }
  });
});
