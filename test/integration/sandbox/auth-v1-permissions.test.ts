/**
 * auth/v1 permission column over HTTP, for each demo identity: 401 without a valid token, 403
 * lacking the permission, and that a create's referenced record must be readable.
 */
import { NOBODY_IDENTITY_ID, type RunningSandbox } from '../../../src/sandbox';
import { AUTH_DOMAIN_ID, NETWORK_DOMAIN_ID } from '../../../src/sandbox/auth';
import { at, call, str, withSandbox } from './sandbox-client';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await withSandbox();
});
afterAll(() => sandbox.close());

type Who = 'admin' | 'reader' | 'nobody';
const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** [method, path, body, expected status for admin, reader, nobody] — bodies are valid for admin. */
function table(ids: { superUser: string; publicGrant: string; type: string; action: string }): [string, string, unknown, Record<Who, number>][] {
  return [
    ['GET', '/auth/v1/domains', undefined, { admin: 200, reader: 200, nobody: 403 }],
    ['GET', '/auth/v1/domains/network', undefined, { admin: 200, reader: 200, nobody: 403 }],
    ['POST', '/auth/v1/domains', { name: 'P', code: 'perm-test' }, { admin: 200, reader: 403, nobody: 403 }],
    ['GET', '/auth/v1/resource-types', undefined, { admin: 200, reader: 200, nobody: 403 }],
    ['GET', `/auth/v1/resource-types/${ids.type}`, undefined, { admin: 200, reader: 200, nobody: 403 }],
    ['POST', '/auth/v1/resource-types', { domainId: NETWORK_DOMAIN_ID, resourceType: { name: 'P', code: 'perm-type' } }, { admin: 200, reader: 403, nobody: 403 }],
    ['GET', '/auth/v1/resource-actions', undefined, { admin: 200, reader: 200, nobody: 403 }],
    ['GET', `/auth/v1/resource-actions/${ids.action}`, undefined, { admin: 200, reader: 200, nobody: 403 }],
    ['POST', '/auth/v1/resource-actions', { resourceTypeId: ids.type, actions: [{ name: 'P', code: 'perm-action' }] }, { admin: 200, reader: 403, nobody: 403 }],
    ['GET', '/auth/v1/grants', undefined, { admin: 200, reader: 200, nobody: 200 }],
    ['GET', '/auth/v1/super-users', undefined, { admin: 200, reader: 403, nobody: 403 }],
    ['GET', `/auth/v1/super-users/${ids.superUser}`, undefined, { admin: 200, reader: 403, nobody: 403 }],
    ['POST', '/auth/v1/super-users', { identityId: SOME_ID, domainId: AUTH_DOMAIN_ID }, { admin: 200, reader: 403, nobody: 403 }],
    ['DELETE', `/auth/v1/super-users/${ids.superUser}`, undefined, { admin: 200, reader: 403, nobody: 403 }],
    ['GET', '/auth/v1/public-grants', undefined, { admin: 200, reader: 403, nobody: 403 }],
    ['GET', `/auth/v1/public-grants/${ids.publicGrant}`, undefined, { admin: 200, reader: 403, nobody: 403 }],
    ['POST', '/auth/v1/public-grants', { resourceActionId: ids.action, path: [{ resourceId: 'x' }] }, { admin: 200, reader: 403, nobody: 403 }],
    ['POST', '/auth/v1/masquerade', { identityId: SOME_ID, audience: 'a', claims: {} }, { admin: 200, reader: 403, nobody: 403 }],
  ];
}

async function firstId(path: string): Promise<string> {
  const r = await call(sandbox, 'GET', path);
  return str(at(r.json, 0, 'id'));
}

describe('auth/v1 permission column', () => {
  it('answers each operation per identity: admin allowed, reader only reads, nobody only /grants', async () => {
    const ids = {
      superUser: await firstId('/auth/v1/super-users?isDeleted=true'),
      publicGrant: await firstId('/auth/v1/public-grants'),
      type: await firstId(`/auth/v1/resource-types?domainId=${NETWORK_DOMAIN_ID}&code=gateway-cluster`),
      action: await firstId(`/auth/v1/resource-actions?code=read&domainId=${NETWORK_DOMAIN_ID}`),
    };
    const seen: string[] = [];
    // Refusals first (they change nothing), then the admin's calls.
    for (const who of ['nobody', 'reader', 'admin'] as const) {
      for (const [method, path, body, expected] of table(ids)) {
        const r = await call(sandbox, method, path, { token: sandbox.tokens[who], body });
        seen.push(`${who} ${method} ${path} ${r.status}`);
        expect(`${who} ${method} ${path} ${r.status}`).toBe(`${who} ${method} ${path} ${expected[who]}`);
        if (r.status === 403) expect(String(at(r.json, 'message'))).toMatch(/forbidden|may not/);
      }
    }
    expect(seen).toHaveLength(54);
  });

  it('answers 401 without a token, with a malformed one and with an expired one', async () => {
    const expired = sandbox.tokenService.sign({ sub: NOBODY_IDENTITY_ID, exp: Math.floor(Date.now() / 1000) - 60 });
    for (const token of [null, 'not-a-jwt', expired]) {
      expect((await call(sandbox, 'GET', '/auth/v1/grants', { token })).status).toBe(401);
      expect((await call(sandbox, 'POST', '/auth/v1/domains', { token, body: { name: 'x', code: 'x' } })).status).toBe(401);
    }
  });

  it('checks permission before validation: a forbidden caller never learns about its bad body', async () => {
    const r = await call(sandbox, 'POST', '/auth/v1/domains', { token: sandbox.tokens.reader, body: { code: 'BAD' } });
    expect(r.status).toBe(403);
  });
});

describe('auth/v1: a create\'s referenced records must be readable', () => {
  it('lets a caller create a type in a domain it may read, and answers 403 naming domainId for another', async () => {
    const action = async (domainId: string, type: string, code: string) =>
      str(at((await call(sandbox, 'GET', `/auth/v1/resource-actions?code=${code}&resourceTypeId=${await typeIdOf(domainId, type)}`)).json, 0, 'id'));
    const typeIdOf = async (domainId: string, code: string) => str(at((await call(sandbox, 'GET', `/auth/v1/resource-types?domainId=${domainId}&code=${code}`)).json, 0, 'id'));
    const grant = (resourceActionId: string, path: { resourceId: string }[]) => call(sandbox, 'POST', '/auth/v1/public-grants', { body: { resourceActionId, path, anonymous: false } });

    // Every authenticated caller (nobody included) may now create and read resource types, but
    // may read only the network domain (a grant limited to that one domain's path).
    expect((await grant(await action(AUTH_DOMAIN_ID, 'resource-type', 'create'), [])).status).toBe(200);
    expect((await grant(await action(AUTH_DOMAIN_ID, 'resource-type', 'read'), [])).status).toBe(200);
    expect((await grant(await action(AUTH_DOMAIN_ID, 'domain', 'read'), [{ resourceId: NETWORK_DOMAIN_ID }])).status).toBe(200);

    const nobody = sandbox.tokens.nobody;
    const allowed = await call(sandbox, 'POST', '/auth/v1/resource-types', { token: nobody, body: { domainId: NETWORK_DOMAIN_ID, resourceType: { name: 'Rule one', code: 'rule-one' } } });
    expect(allowed.status).toBe(200);
    expect(at(allowed.json, 'createdBy')).toBe(NOBODY_IDENTITY_ID);
    const refused = await call(sandbox, 'POST', '/auth/v1/resource-types', { token: nobody, body: { domainId: AUTH_DOMAIN_ID, resourceType: { name: 'Rule one', code: 'rule-one' } } });
    expect(refused.status).toBe(403);
    expect(String(at(refused.json, 'message'))).toMatch(/^domainId/);
    // The path-limited grant does not open the type-wide list of domains.
    expect((await call(sandbox, 'GET', '/auth/v1/domains', { token: nobody })).status).toBe(403);
  });
});
