/** auth/v1 over HTTP: every operation of the authorization API with its status, fields, filters and rules. */
import { ADMIN_IDENTITY_ID, READER_IDENTITY_ID, type RunningSandbox } from '../../../src/sandbox';
import { AUTH_DOMAIN_ID, NETWORK_DOMAIN_ID } from '../../../src/sandbox/auth';
import { at, call, str, withSandbox } from './sandbox-client';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await withSandbox();
});
afterAll(() => sandbox.close());

const ISO_Z = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
type Item = Record<string, unknown>;

function items(value: unknown): Item[] {
  if (!Array.isArray(value)) throw new Error(`expected a bare array, got ${JSON.stringify(value).slice(0, 200)}`);
  return value.filter((x): x is Item => typeof x === 'object' && x !== null);
}

async function typeId(code: string, domainId = NETWORK_DOMAIN_ID): Promise<string> {
  const r = await call(sandbox, 'GET', `/auth/v1/resource-types?domainId=${domainId}&code=${code}`);
  return str(items(r.json)[0]?.['id']);
}

async function actionId(typeCode: string, code: string, domainId = NETWORK_DOMAIN_ID): Promise<string> {
  const r = await call(sandbox, 'GET', `/auth/v1/resource-actions?code=${code}&resourceTypeId=${await typeId(typeCode, domainId)}`);
  return str(items(r.json)[0]?.['id']);
}

function claimsOf(token: string): Item {
  const payload = token.split('.')[1] ?? '';
  const parsed: unknown = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  if (typeof parsed !== 'object' || parsed === null) throw new Error('token payload is not an object');
  return parsed as Item;
}

describe('auth/v1 domains', () => {
  it('lists domains as a bare array with every field', async () => {
    const r = await call(sandbox, 'GET', '/auth/v1/domains');
    expect(r.status).toBe(200);
    const domains = items(r.json);
    expect(domains.map((d) => d['code'])).toEqual(expect.arrayContaining(['auth', 'network']));
    for (const d of domains) {
      expect(Object.keys(d).sort()).toEqual(['_title', 'code', 'createdAt', 'createdBy', 'id', 'name', 'updatedAt']);
      expect(d['createdAt']).toMatch(ISO_Z);
    }
  });

  it('answers the same record for the id and the code, 404 for neither', async () => {
    const byId = await call(sandbox, 'GET', `/auth/v1/domains/${AUTH_DOMAIN_ID}`);
    const byCode = await call(sandbox, 'GET', '/auth/v1/domains/auth');
    expect(byId.status).toBe(200);
    expect(byCode.json).toEqual(byId.json);
    expect((await call(sandbox, 'GET', '/auth/v1/domains/unknown-domain')).status).toBe(404);
  });

  it('creates a domain with createdBy = caller, and names the field of a bad request', async () => {
    const r = await call(sandbox, 'POST', '/auth/v1/domains', { body: { name: 'Billing', code: 'billing' } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ name: 'Billing', code: 'billing', createdBy: ADMIN_IDENTITY_ID, _title: 'Billing' });
    expect((await call(sandbox, 'GET', '/auth/v1/domains/billing')).status).toBe(200);
    const cases: [unknown, RegExp][] = [
      [{ code: 'x' }, /name/],
      [{ name: null, code: 'x' }, /name/],
      [{ name: 'X' }, /code/],
      [{ name: 'X', code: 'Has Spaces' }, /code/],
      [{ name: 'X', code: 'trailing-' }, /code/],
    ];
    for (const [body, field] of cases) {
      const bad = await call(sandbox, 'POST', '/auth/v1/domains', { body });
      expect(bad.status).toBe(400);
      expect(String(at(bad.json, 'message'))).toMatch(field);
    }
    expect((await call(sandbox, 'POST', '/auth/v1/domains', { body: { name: 'Again', code: 'billing' } })).status).toBe(409);
  });
});

describe('auth/v1 resource types', () => {
  it('filters by domainId, code and parentId and fetches by id', async () => {
    const networkTypes = items((await call(sandbox, 'GET', `/auth/v1/resource-types?domainId=${NETWORK_DOMAIN_ID}`)).json);
    expect(networkTypes.every((t) => t['domainId'] === NETWORK_DOMAIN_ID)).toBe(true);
    const networkType = networkTypes.find((t) => t['code'] === 'network');
    expect(networkType).toMatchObject({ root: false, depth: 1 });
    const children = items((await call(sandbox, 'GET', `/auth/v1/resource-types?parentId=${str(networkType?.['id'])}`)).json);
    expect(children.map((c) => c['code'])).toEqual(expect.arrayContaining(['endpoint', 'service', 'app-wan', 'edge-router']));
    expect(networkType?.['childrenIds']).toEqual(expect.arrayContaining(children.map((c) => c['id'])));
    const one = await call(sandbox, 'GET', `/auth/v1/resource-types/${str(networkType?.['id'])}`);
    expect(one.json).toEqual(networkType);
    expect((await call(sandbox, 'GET', '/auth/v1/resource-types/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('creates a nested tree under a parent, deriving domain and depth', async () => {
    const parent = await typeId('network');
    const r = await call(sandbox, 'POST', '/auth/v1/resource-types', {
      body: { parentId: parent, resourceType: { name: 'Posture check', code: 'posture-check', children: [{ name: 'Posture rule', code: 'posture-rule' }] } },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ domainId: NETWORK_DOMAIN_ID, parentId: parent, root: false, depth: 2, createdBy: ADMIN_IDENTITY_ID });
    const childIds = at(r.json, 'childrenIds');
    expect(Array.isArray(childIds) ? childIds.length : 0).toBe(1);
    const child = await call(sandbox, 'GET', `/auth/v1/resource-types/${str(at(r.json, 'childrenIds', 0))}`);
    expect(child.json).toMatchObject({ code: 'posture-rule', depth: 3, parentId: at(r.json, 'id') });
    const parentNow = await call(sandbox, 'GET', `/auth/v1/resource-types/${parent}`);
    expect(at(parentNow.json, 'childrenIds')).toEqual(expect.arrayContaining([at(r.json, 'id')]));
  });

  it('rejects bad requests with the field named, and unknown references with 404', async () => {
    const cases: [unknown, number, RegExp][] = [
      [{ domainId: NETWORK_DOMAIN_ID }, 400, /resourceType/],
      [{ domainId: NETWORK_DOMAIN_ID, resourceType: { code: 'a' } }, 400, /resourceType\.name/],
      [{ domainId: NETWORK_DOMAIN_ID, resourceType: { name: 'A', code: 'A' } }, 400, /resourceType\.code/],
      [{ domainId: NETWORK_DOMAIN_ID, resourceType: { name: 'A', code: 'a', children: [{ name: 'B' }] } }, 400, /resourceType\.children\[0\]\.code/],
      [{ resourceType: { name: 'A', code: 'a' } }, 400, /domainId/],
      [{ domainId: '00000000-0000-4000-8000-000000000000', resourceType: { name: 'A', code: 'a' } }, 404, /domainId/],
      [{ parentId: '00000000-0000-4000-8000-000000000000', resourceType: { name: 'A', code: 'a' } }, 404, /parentId/],
      [{ domainId: NETWORK_DOMAIN_ID, resourceType: { name: 'Dup', code: 'endpoint' } }, 409, /resourceType\.code/],
    ];
    for (const [body, status, field] of cases) {
      const r = await call(sandbox, 'POST', '/auth/v1/resource-types', { body });
      expect([status, String(at(r.json, 'message'))]).toEqual([status, expect.stringMatching(field)]);
    }
  });
});

describe('auth/v1 resource actions', () => {
  it('filters seeded standard actions by code, type and domain', async () => {
    const reads = items((await call(sandbox, 'GET', `/auth/v1/resource-actions?code=read&domainId=${AUTH_DOMAIN_ID}`)).json);
    expect(reads.length).toBeGreaterThanOrEqual(5);
    expect(reads.every((a) => a['code'] === 'read' && a['standardAction'] === true)).toBe(true);
    const endpointType = await typeId('endpoint');
    const onEndpoint = items((await call(sandbox, 'GET', `/auth/v1/resource-actions?resourceTypeId=${endpointType}`)).json);
    expect(onEndpoint.map((a) => a['code']).sort()).toEqual(['read', 'write']);
    const one = await call(sandbox, 'GET', `/auth/v1/resource-actions/${str(onEndpoint[0]?.['id'])}`);
    expect(one.json).toEqual(onEndpoint[0]);
  });

  it('creates several actions at once and validates them', async () => {
    const type = await typeId('gateway-cluster');
    const r = await call(sandbox, 'POST', '/auth/v1/resource-actions', { body: { resourceTypeId: type, actions: [{ name: 'Scale', code: 'scale' }, { name: 'Restart', code: 'restart' }] } });
    expect(r.status).toBe(200);
    const created = items(r.json);
    expect(created.map((a) => [a['code'], a['standardAction'], a['resourceTypeId'], a['createdBy']])).toEqual([
      ['scale', false, type, ADMIN_IDENTITY_ID],
      ['restart', false, type, ADMIN_IDENTITY_ID],
    ]);
    const empty = await call(sandbox, 'POST', '/auth/v1/resource-actions', { body: { resourceTypeId: type, actions: [] } });
    expect([empty.status, at(empty.json, 'message')]).toEqual([400, expect.stringMatching(/^actions: must not be empty/)]);
    const noCode = await call(sandbox, 'POST', '/auth/v1/resource-actions', { body: { resourceTypeId: type, actions: [{ name: 'X' }] } });
    expect([noCode.status, at(noCode.json, 'message')]).toEqual([400, expect.stringMatching(/^actions\[0\]\.code/)]);
    expect((await call(sandbox, 'POST', '/auth/v1/resource-actions', { body: { resourceTypeId: 'missing', actions: [{ name: 'X', code: 'x' }] } })).status).toBe(404);
  });
});

describe('auth/v1 grants, super users and public grants', () => {
  it('lists grants of all four kinds, filtered by type, identity, action and path', async () => {
    const all = items((await call(sandbox, 'GET', '/auth/v1/grants', { token: sandbox.tokens.nobody })).json);
    expect(new Set(all.map((g) => g['grantType']))).toEqual(new Set(['CustomRole', 'IdentityResourceAction', 'PublicGrant', 'SuperUser']));
    for (const g of all) expect(g).toHaveProperty('privileges');
    const readerGrants = items((await call(sandbox, 'GET', `/auth/v1/grants?identityId=${READER_IDENTITY_ID}&grantType=IdentityResourceAction`)).json);
    expect(readerGrants.length).toBeGreaterThan(0);
    expect(readerGrants.every((g) => g['identityId'] === READER_IDENTITY_ID && g['grantType'] === 'IdentityResourceAction')).toBe(true);
    const domainRead = await actionId('domain', 'read', AUTH_DOMAIN_ID);
    const byAction = items((await call(sandbox, 'GET', `/auth/v1/grants?resourceActionId=${domainRead}&grantType=IdentityResourceAction`)).json);
    expect(byAction).toHaveLength(1);
    expect(at(byAction[0], 'privileges', 'auth', 'domain', 'read')).toEqual([[]]);
    const su = items((await call(sandbox, 'GET', `/auth/v1/grants?grantType=SuperUser&identityId=${ADMIN_IDENTITY_ID}`)).json);
    expect(at(su[0], 'privileges', 'network', 'host', 'write')).toEqual([[]]);
    expect((await call(sandbox, 'GET', '/auth/v1/grants?grantType=Owner')).status).toBe(400);
    const onPath = items((await call(sandbox, 'GET', '/auth/v1/grants?grantType=PublicGrant&path=some-resource')).json);
    expect(onPath.every((g) => JSON.stringify(g['privileges']).includes('[[]]'))).toBe(true);
  });

  it('creates, fetches and soft-deletes a super user; isDeleted filters', async () => {
    const created = await call(sandbox, 'POST', '/auth/v1/super-users', { body: { identityId: READER_IDENTITY_ID, domainId: AUTH_DOMAIN_ID } });
    expect(created.status).toBe(200);
    expect(created.json).toMatchObject({ identityId: READER_IDENTITY_ID, domainId: AUTH_DOMAIN_ID, createdBy: ADMIN_IDENTITY_ID, deletedAt: null, deletedBy: null, type: expect.any(String), _title: expect.any(String) });
    const id = str(at(created.json, 'id'));
    // The new super user really has the powers: reader can now read super users.
    expect((await call(sandbox, 'GET', '/auth/v1/super-users', { token: sandbox.tokens.reader })).status).toBe(200);
    const del = await call(sandbox, 'DELETE', `/auth/v1/super-users/${id}`);
    expect([del.status, del.text]).toEqual([200, '']);
    expect((await call(sandbox, 'GET', '/auth/v1/super-users', { token: sandbox.tokens.reader })).status).toBe(403);
    const after = await call(sandbox, 'GET', `/auth/v1/super-users/${id}`);
    expect(at(after.json, 'deletedBy')).toBe(ADMIN_IDENTITY_ID);
    expect(String(at(after.json, 'deletedAt'))).toMatch(ISO_Z);
    const deleted = items((await call(sandbox, 'GET', `/auth/v1/super-users?isDeleted=true&identityId=${READER_IDENTITY_ID}`)).json);
    expect(deleted.map((s) => s['id'])).toContain(id);
    const live = items((await call(sandbox, 'GET', '/auth/v1/super-users?isDeleted=false')).json);
    expect(live.map((s) => s['identityId'])).toEqual([ADMIN_IDENTITY_ID]);
    const all = items((await call(sandbox, 'GET', `/auth/v1/super-users?domainId=${AUTH_DOMAIN_ID}`)).json);
    expect(all.map((s) => s['id'])).toContain(id);
    expect((await call(sandbox, 'POST', '/auth/v1/super-users', { body: { domainId: null } })).status).toBe(400);
    expect((await call(sandbox, 'DELETE', '/auth/v1/super-users/missing')).status).toBe(404);
  });

  it('creates public grants with paths and filters them', async () => {
    const action = await actionId('geo-region', 'read');
    const geoType = await typeId('geo-region');
    const r = await call(sandbox, 'POST', '/auth/v1/public-grants', { body: { resourceActionId: action, path: [{ resourceId: 'region-1', resourceTypeId: geoType }], anonymous: true } });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ resourceActionId: action, anonymous: true, path: [{ resourceId: 'region-1', resourceTypeId: geoType }], deletedAt: null, createdBy: ADMIN_IDENTITY_ID });
    const id = str(at(r.json, 'id'));
    expect((await call(sandbox, 'GET', `/auth/v1/public-grants/${id}`)).json).toEqual(r.json);
    const anonymous = items((await call(sandbox, 'GET', '/auth/v1/public-grants?isAnonymous=true&isDeleted=false')).json);
    expect(anonymous.map((g) => g['id'])).toContain(id);
    expect(anonymous.every((g) => g['anonymous'] === true && g['deletedAt'] === null)).toBe(true);
    const deleted = items((await call(sandbox, 'GET', '/auth/v1/public-grants?isDeleted=true')).json);
    expect(deleted.length).toBeGreaterThan(0);
    expect(deleted.every((g) => typeof g['deletedAt'] === 'string' && typeof g['deletedBy'] === 'string')).toBe(true);
    const onPath = items((await call(sandbox, 'GET', `/auth/v1/public-grants?path=region-1&resourceActionId=${action}`)).json);
    expect(onPath.map((g) => g['id'])).toEqual([id]);
    expect(items((await call(sandbox, 'GET', `/auth/v1/public-grants?path=region-2&resourceActionId=${action}`)).json)).toEqual([]);
    const noPath = await call(sandbox, 'POST', '/auth/v1/public-grants', { body: { resourceActionId: action } });
    expect([noPath.status, at(noPath.json, 'message')]).toEqual([400, expect.stringMatching(/^path: must not be null/)]);
    const noResource = await call(sandbox, 'POST', '/auth/v1/public-grants', { body: { resourceActionId: action, path: [{}] } });
    expect(at(noResource.json, 'message')).toMatch(/^path\[0\]\.resourceId/);
  });
});

describe('auth/v1 masquerade', () => {
  it('returns a token with the claims, sub = identityId and aud = audience, which the sandbox accepts', async () => {
    const r = await call(sandbox, 'POST', '/auth/v1/masquerade', { body: { identityId: READER_IDENTITY_ID, audience: 'netgraph-tests', claims: { team: 'ops', level: 3 } } });
    expect(r.status).toBe(200);
    const token = str(at(r.json, 'token'));
    expect(claimsOf(token)).toMatchObject({ sub: READER_IDENTITY_ID, aud: 'netgraph-tests', team: 'ops', level: 3 });
    // The masqueraded identity has the reader's permissions, no more.
    expect((await call(sandbox, 'GET', '/auth/v1/domains', { token })).status).toBe(200);
    expect((await call(sandbox, 'GET', '/auth/v1/super-users', { token })).status).toBe(403);
  });

  it('validates identityId, audience and claims', async () => {
    const cases: [unknown, RegExp][] = [
      [{ audience: 'a', claims: {} }, /^identityId/],
      [{ identityId: 'x', audience: '', claims: {} }, /^audience: must not be empty/],
      [{ identityId: 'x', audience: 'a' }, /^claims: must not be null/],
      [{ identityId: 'x', audience: 'a', claims: [1] }, /^claims/],
    ];
    for (const [body, message] of cases) {
      const r = await call(sandbox, 'POST', '/auth/v1/masquerade', { body });
      expect([r.status, at(r.json, 'message')]).toEqual([400, expect.stringMatching(message)]);
    }
  });
});
