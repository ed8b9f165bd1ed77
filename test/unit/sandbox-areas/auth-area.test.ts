import { TokenService } from '../../../src/sandbox/core/tokens';
import { ADMIN_IDENTITY_ID, READER_IDENTITY_ID } from '../../../src/sandbox/core/identities';
import { AUTH_DOMAIN_ID, NETWORK_DOMAIN_ID, createAuthArea } from '../../../src/sandbox/auth';
import { admin, arr, call, nobody, obj, reader, testContext } from './harness';

function setup(size: 'tiny' | 'demo' | 'large' = 'demo') {
  const ctx = testContext();
  const tokens = new TokenService('sandbox-test');
  const area = createAuthArea(ctx, tokens);
  ctx.setAuthz(area.authz);
  area.seed(size);
  return { ctx, tokens, area, routes: area.routes };
}

describe('authz model', () => {
  const { area } = setup();
  const { authz } = area;

  it('lets the admin (super user of all domains) do anything, even on unknown codes', () => {
    expect(authz.can(admin, 'auth', 'super-user', 'delete')).toBe(true);
    expect(authz.can(admin, 'network', 'host', 'write')).toBe(true);
    expect(authz.can(admin, 'no-such-domain', 'x', 'y')).toBe(true);
  });

  it('gives the reader read everywhere except the excluded types, and no writes', () => {
    expect(authz.can(reader, 'network', 'network', 'read')).toBe(true);
    expect(authz.can(reader, 'network', 'endpoint', 'read')).toBe(true);
    expect(authz.can(reader, 'auth', 'domain', 'read')).toBe(true);
    for (const t of ['host', 'network-controller-host', 'cloud-subscription']) expect(authz.can(reader, 'network', t, 'read')).toBe(false);
    for (const t of ['super-user', 'public-grant']) expect(authz.can(reader, 'auth', t, 'read')).toBe(false);
    expect(authz.can(reader, 'network', 'network', 'write')).toBe(false);
    expect(authz.can(reader, 'auth', 'domain', 'create')).toBe(false);
    expect(() => authz.require(reader, 'network', 'network', 'write')).toThrow(/forbidden/);
  });

  it('gives nobody nothing (a path-limited public grant does not count type-wide)', () => {
    expect(authz.can(nobody, 'network', 'network', 'read')).toBe(false);
    expect(authz.can(nobody, 'network', 'network-config-metadata', 'read')).toBe(false);
    expect(authz.can(nobody, 'auth', 'domain', 'read')).toBe(false);
  });

  it('ignores soft-deleted grants and counts path-limited ones only for the named resource', () => {
    const { area: a } = setup();
    // Seeded: a revoked super user of the network domain for the reader.
    const revoked = [...a.store.superUsers.values()].find((s) => s.deletedAt !== null);
    expect(revoked?.identityId).toBe(reader.identityId);
    expect(a.authz.can(reader, 'network', 'network', 'write')).toBe(false);
    // Seeded: a live public grant of network-config-metadata read limited to one resource.
    const limited = [...a.store.publicGrants.values()].find((g) => g.deletedAt === null && g.path.length > 0);
    const resourceId = limited?.path[0]?.resourceId ?? '';
    expect(a.authz.canOn(nobody, 'network', 'network-config-metadata', 'read', resourceId)).toBe(true);
    expect(a.authz.canOn(nobody, 'network', 'network-config-metadata', 'read', 'another-resource')).toBe(false);
    expect(a.authz.can(nobody, 'network', 'network-config-metadata', 'read')).toBe(false);
    // Revoking the reader's custom role grant removes its network reads at once.
    for (const g of a.store.customRoleGrants.values()) g.deletedAt = 1;
    expect(a.authz.can(reader, 'network', 'endpoint', 'read')).toBe(false);
    expect(a.authz.can(reader, 'auth', 'domain', 'read')).toBe(true);
  });

  it('honours a new public grant with an empty path for every authenticated caller', async () => {
    const { area: a, routes } = setup();
    expect(a.authz.can(nobody, 'network', 'geo-region', 'read')).toBe(false);
    const actions = await call(routes, admin, 'GET', '/auth/v1/resource-actions?code=read&domainId=' + NETWORK_DOMAIN_ID);
    const types = arr((await call(routes, admin, 'GET', '/auth/v1/resource-types?code=geo-region')).json);
    const geoRead = arr(actions.json).find((x) => x['resourceTypeId'] === types[0]?.['id']);
    const created = await call(routes, admin, 'POST', '/auth/v1/public-grants', { resourceActionId: geoRead?.['id'], path: [], anonymous: false });
    expect(created.status).toBe(200);
    expect(a.authz.can(nobody, 'network', 'geo-region', 'read')).toBe(true);
  });
});

describe('auth/v1 operations (direct handler calls)', () => {
  it('fetches a domain by id or by code with the same record', async () => {
    const { routes } = setup();
    const byId = await call(routes, reader, 'GET', `/auth/v1/domains/${AUTH_DOMAIN_ID}`);
    const byCode = await call(routes, reader, 'GET', '/auth/v1/domains/auth');
    expect(byId.status).toBe(200);
    expect(byCode.json).toEqual(byId.json);
    expect(obj(byId.json)['_title']).toEqual(expect.any(String));
    expect(obj(byId.json)['createdAt']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect((await call(routes, reader, 'GET', '/auth/v1/domains/nope')).status).toBe(404);
    expect((await call(routes, nobody, 'GET', '/auth/v1/domains')).status).toBe(403);
  });

  it('validates domain creates naming the field, and records the caller', async () => {
    const { routes } = setup();
    const missing = await call(routes, admin, 'POST', '/auth/v1/domains', { code: 'x' });
    expect(missing.status).toBe(400);
    expect(missing.message).toMatch(/^name:/);
    const bad = await call(routes, admin, 'POST', '/auth/v1/domains', { name: 'X', code: 'Bad_Code' });
    expect(bad.status).toBe(400);
    expect(bad.message).toMatch(/^code: must match/);
    expect((await call(routes, reader, 'POST', '/auth/v1/domains', { name: 'X', code: 'x' })).status).toBe(403);
    const ok = await call(routes, admin, 'POST', '/auth/v1/domains', { name: 'Extra', code: 'extra-one' });
    expect(ok.status).toBe(200);
    expect(obj(ok.json)).toMatchObject({ name: 'Extra', code: 'extra-one', createdBy: ADMIN_IDENTITY_ID });
    expect((await call(routes, admin, 'POST', '/auth/v1/domains', { name: 'Again', code: 'extra-one' })).status).toBe(409);
  });

  it('creates a resource-type subtree with nested children, depths and childrenIds', async () => {
    const { routes } = setup();
    const res = await call(routes, admin, 'POST', '/auth/v1/resource-types', {
      domainId: NETWORK_DOMAIN_ID,
      resourceType: { name: 'Site', code: 'site', children: [{ name: 'Rack', code: 'rack', children: [{ name: 'Slot', code: 'slot' }] }, { name: 'Door', code: 'door' }] },
    });
    expect(res.status).toBe(200);
    const site = obj(res.json);
    expect(site).toMatchObject({ code: 'site', root: true, depth: 0, parentId: null, domainId: NETWORK_DOMAIN_ID });
    const childIds = site['childrenIds'];
    expect(Array.isArray(childIds) && childIds.length).toBe(2);
    const children = arr((await call(routes, admin, 'GET', `/auth/v1/resource-types?parentId=${String(site['id'])}`)).json);
    expect(children.map((c) => c['code']).sort()).toEqual(['door', 'rack']);
    const rack = children.find((c) => c['code'] === 'rack');
    expect(rack).toMatchObject({ root: false, depth: 1, parentId: site['id'] });
    const slot = arr((await call(routes, admin, 'GET', `/auth/v1/resource-types?parentId=${String(rack?.['id'])}`)).json)[0];
    expect(slot).toMatchObject({ code: 'slot', depth: 2, childrenIds: [] });
  });

  it('rejects a bad child code before storing anything', async () => {
    const { routes } = setup();
    const before = arr((await call(routes, admin, 'GET', '/auth/v1/resource-types')).json).length;
    const res = await call(routes, admin, 'POST', '/auth/v1/resource-types', {
      domainId: NETWORK_DOMAIN_ID,
      resourceType: { name: 'Site', code: 'site', children: [{ name: 'Rack', code: 'RACK' }] },
    });
    expect(res.status).toBe(400);
    expect(res.message).toMatch(/^resourceType\.children\[0\]\.code:/);
    expect(arr((await call(routes, admin, 'GET', '/auth/v1/resource-types')).json).length).toBe(before);
  });

  it('soft-deletes super users and filters by isDeleted', async () => {
    const { routes } = setup();
    const created = obj((await call(routes, admin, 'POST', '/auth/v1/super-users', { identityId: READER_IDENTITY_ID, domainId: AUTH_DOMAIN_ID })).json);
    expect(created).toMatchObject({ identityId: READER_IDENTITY_ID, domainId: AUTH_DOMAIN_ID, deletedAt: null, deletedBy: null, createdBy: ADMIN_IDENTITY_ID });
    const del = await call(routes, admin, 'DELETE', `/auth/v1/super-users/${String(created['id'])}`);
    expect(del).toMatchObject({ status: 200, json: undefined });
    const again = obj((await call(routes, admin, 'GET', `/auth/v1/super-users/${String(created['id'])}`)).json);
    expect(again['deletedBy']).toBe(ADMIN_IDENTITY_ID);
    const deleted = arr((await call(routes, admin, 'GET', '/auth/v1/super-users?isDeleted=true')).json);
    expect(deleted.map((s) => s['id'])).toContain(created['id']);
    const live = arr((await call(routes, admin, 'GET', '/auth/v1/super-users?isDeleted=false')).json);
    expect(live.every((s) => s['deletedAt'] === null)).toBe(true);
    expect((await call(routes, admin, 'GET', '/auth/v1/super-users?isDeleted=maybe')).status).toBe(400);
  });

  it('lists grants of all four kinds with privileges maps', async () => {
    const { routes } = setup();
    const grants = arr((await call(routes, nobody, 'GET', '/auth/v1/grants')).json);
    expect(new Set(grants.map((g) => g['grantType']))).toEqual(new Set(['CustomRole', 'IdentityResourceAction', 'PublicGrant', 'SuperUser']));
    const role = arr((await call(routes, nobody, 'GET', `/auth/v1/grants?grantType=CustomRole&identityId=${READER_IDENTITY_ID}`)).json);
    expect(role).toHaveLength(1);
    const privileges = obj(obj(role[0]?.['privileges'])['network']);
    expect(obj(privileges['network'])['read']).toEqual([[]]);
    expect(privileges['host']).toBeUndefined();
  });

  it('signs masquerade tokens that carry the claims, sub and aud', async () => {
    const { routes, tokens } = setup();
    const res = await call(routes, admin, 'POST', '/auth/v1/masquerade', { identityId: READER_IDENTITY_ID, audience: 'netgraph', claims: { role: 'ops' } });
    expect(res.status).toBe(200);
    const claims = tokens.verify(String(obj(res.json)['token']));
    expect(claims).toMatchObject({ sub: READER_IDENTITY_ID, aud: 'netgraph', role: 'ops' });
    expect((await call(routes, reader, 'POST', '/auth/v1/masquerade', { identityId: 'x', audience: 'a', claims: {} })).status).toBe(403);
    const empty = await call(routes, admin, 'POST', '/auth/v1/masquerade', { identityId: 'x', audience: '', claims: {} });
    expect(empty.message).toMatch(/^audience: must not be empty/);
  });

  it('seeds a deeper tree for large', () => {
    const { area } = setup('large');
    const depths = [...area.store.types.values()].map((t) => t.depth);
    expect(area.store.domains.size).toBe(5);
    expect(Math.max(...depths)).toBeGreaterThanOrEqual(2);
    expect(area.store.types.size).toBeGreaterThan(90);
  });
});
