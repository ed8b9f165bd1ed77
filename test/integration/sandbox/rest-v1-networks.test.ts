import { ManualClock, type RestV1Facts, type RunningSandbox } from '../../../src/sandbox';
import { at, call, keys, list, str, withSandbox } from './sandbox-client';

let sandbox: RunningSandbox;
let facts: RestV1Facts;
const clock = new ManualClock(1000);

beforeAll(async () => {
  sandbox = await withSandbox({ clock });
  facts = sandbox.restFacts();
});
afterAll(() => sandbox.close());


describe('rest/v1 networks', () => {
  it('lists the seeded networks with HAL links, _embedded and a page object', async () => {
    const r = await call(sandbox, 'GET', '/rest/v1/networks');
    expect(r.status).toBe(200);
    const networks = list(r.json, 'networks');
    expect(networks.map((n) => n['id'])).toEqual(facts.networkIds);
    expect(at(r.json, 'page')).toEqual({ number: 0, size: 20, totalElements: 2, totalPages: 1 });
    const first = networks[0] ?? {};
    expect(first).toEqual(
      expect.objectContaining({ name: 'production', status: 300, productFamily: 'SVC_ENABLED', organizationId: facts.organizationIds[0] }),
    );
    expect(str(first['createdAt'])).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}\+0000$/);
    expect(keys(at(first, '_links'))).toEqual(
      ['self', 'organization', 'networkControllerHosts', 'endpoints', 'endpointGroups', 'services', 'appWans', 'gatewayClusters', 'cas', 'virtualWanSites', 'networkConfigMetadata'].sort(),
    );
    expect(at(first, '_links', 'self', 'href')).toBe(`${sandbox.baseUrl}/rest/v1/networks/${str(first['id'])}`);
    // Every link resolves.
    for (const rel of ['self', 'endpoints', 'appWans', 'networkConfigMetadata', 'organization']) {
      const href = str(at(first, '_links', rel, 'href'));
      const followed = await call(sandbox, 'GET', href.slice(sandbox.baseUrl.length));
      expect([rel, followed.status]).toEqual([rel, 200]);
    }
  });

  it('creates a network: 202 with status 100, then PROVISIONING and PROVISIONED on the clock', async () => {
    const r = await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: 'created' } });
    expect(r.status).toBe(202);
    expect(r.json).toEqual(expect.objectContaining({ name: 'created', status: 100, organizationId: facts.organizationIds[0], provisionedAt: null }));
    const id = str(at(r.json, 'id'));
    const status = async (): Promise<unknown> => at((await call(sandbox, 'GET', `/rest/v1/networks/${id}`)).json, 'status');
    expect(await status()).toBe(100);
    clock.advance(999);
    expect(await status()).toBe(100);
    clock.advance(1);
    expect(await status()).toBe(200);
    clock.advance();
    expect(await status()).toBe(300);
    const done = await call(sandbox, 'GET', `/rest/v1/networks/${id}`);
    expect(str(at(done.json, 'provisionedAt'))).toMatch(/\+0000$/);
    expect(at(done.json, 'updatedAt')).toBe(at(done.json, 'provisionedAt'));
  });

  it('rejects a network without a name (400) and creates nothing', async () => {
    const before = await call(sandbox, 'GET', '/rest/v1/networks');
    const r = await call(sandbox, 'POST', '/rest/v1/networks', { body: { productFamily: 'DVN' } });
    expect(r.status).toBe(400);
    expect(str(at(r.json, 'message'))).toContain('name');
    const after = await call(sandbox, 'GET', '/rest/v1/networks');
    expect(at(after.json, 'page', 'totalElements')).toBe(at(before.json, 'page', 'totalElements'));
  });

  it('rejects a wrongly typed field and an unknown reference with 400', async () => {
    expect((await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: 7 } })).status).toBe(400);
    expect((await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: 'x', networkConfigMetadataId: 'nope' } })).status).toBe(400);
    expect((await call(sandbox, 'POST', '/rest/v1/networks', { body: [1, 2] })).status).toBe(400);
  });

  it('redefines a network with PUT (200) and answers 404 for an unknown one', async () => {
    const id = facts.networkIds[1] ?? '';
    const r = await call(sandbox, 'PUT', `/rest/v1/networks/${id}`, { body: { name: 'staging-renamed', productFamily: 'DVN' } });
    expect(r.status).toBe(200);
    expect(r.json).toEqual(expect.objectContaining({ name: 'staging-renamed', productFamily: 'DVN', id }));
    expect((await call(sandbox, 'PUT', `/rest/v1/networks/${id}`, { body: { productFamily: 'DVN' } })).status).toBe(400);
    expect((await call(sandbox, 'GET', '/rest/v1/networks/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('paginates: page/size, clamps size to 200, sorts by a field both ways, rejects bad parameters', async () => {
    for (let i = 0; i < 3; i++) await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: `zz-page-${i}` } });
    const total = Number(at((await call(sandbox, 'GET', '/rest/v1/networks')).json, 'page', 'totalElements'));
    const p1 = await call(sandbox, 'GET', '/rest/v1/networks?page=1&size=2&sort=name,ASC');
    expect(at(p1.json, 'page')).toEqual({ number: 1, size: 2, totalElements: total, totalPages: Math.ceil(total / 2) });
    expect(list(p1.json, 'networks')).toHaveLength(2);
    expect(at(p1.json, '_links', 'next', 'href')).toContain('page=2');
    expect(at(p1.json, '_links', 'prev', 'href')).toContain('page=0');
    const asc = list((await call(sandbox, 'GET', '/rest/v1/networks?sort=name,ASC&size=200')).json, 'networks').map((n) => str(n['name']));
    expect(asc).toEqual([...asc].sort((a, b) => a.localeCompare(b)));
    const desc = list((await call(sandbox, 'GET', '/rest/v1/networks?sort=name,DESC')).json, 'networks').map((n) => str(n['name']));
    expect(desc[0]).toBe(asc[asc.length - 1]);
    const clamped = await call(sandbox, 'GET', '/rest/v1/networks?size=5000');
    expect(at(clamped.json, 'page', 'size')).toBe(200);
    expect((await call(sandbox, 'GET', '/rest/v1/networks?page=-1')).status).toBe(400);
    expect((await call(sandbox, 'GET', '/rest/v1/networks?size=abc')).status).toBe(400);
    expect((await call(sandbox, 'GET', '/rest/v1/networks?sort=nosuchfield,ASC')).status).toBe(400);
    const beyond = await call(sandbox, 'GET', '/rest/v1/networks?page=99');
    expect(list(beyond.json, 'networks')).toEqual([]);
  });

  it('permissions: reader reads but may not write (403); nobody may not read (403); no token 401', async () => {
    expect((await call(sandbox, 'GET', '/rest/v1/networks', { token: sandbox.tokens.reader })).status).toBe(200);
    const denied = await call(sandbox, 'POST', '/rest/v1/networks', { token: sandbox.tokens.reader, body: { name: 'x' } });
    expect(denied.status).toBe(403);
    expect(at(denied.json, 'error')).toBe('Forbidden');
    expect((await call(sandbox, 'GET', '/rest/v1/networks', { token: sandbox.tokens.nobody })).status).toBe(403);
    expect((await call(sandbox, 'GET', '/rest/v1/networks', { token: null })).status).toBe(401);
  });

  it('deleting a network shows DELETING (800), then removes it and its resources', async () => {
    const created = await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: 'doomed' } });
    const id = str(at(created.json, 'id'));
    const ep = await call(sandbox, 'POST', `/rest/v1/networks/${id}/endpoints`, { body: { name: 'gw', endpointType: 'GW' } });
    expect(ep.status).toBe(202);
    const epId = str(at(ep.json, 'id'));
    const del = await call(sandbox, 'DELETE', `/rest/v1/networks/${id}`);
    expect(del.status).toBe(202);
    expect(at(del.json, 'status')).toBe(800);
    expect(at((await call(sandbox, 'GET', `/rest/v1/networks/${id}`)).json, 'status')).toBe(800);
    clock.advance();
    expect(at((await call(sandbox, 'GET', `/rest/v1/networks/${id}`)).json, 'status')).toBe(800);
    clock.advance();
    expect((await call(sandbox, 'GET', `/rest/v1/networks/${id}`)).status).toBe(404);
    expect((await call(sandbox, 'GET', `/rest/v1/networks/${id}/endpoints/${epId}`)).status).toBe(404);
    const groupEndpoints = list((await call(sandbox, 'GET', `/rest/v1/networkgroups/${facts.organizationIds[0] ?? ''}/endpoints`)).json, 'endpoints');
    expect(groupEndpoints.some((e) => e['id'] === epId)).toBe(false);
  });
});
