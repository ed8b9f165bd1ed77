/** auth/v1 create/delete operations and masquerade through the gateway against the sandbox. */
import { ADMIN_IDENTITY_ID, NOBODY_IDENTITY_ID, READER_IDENTITY_ID } from '../../../src/sandbox';
import { NETWORK_DOMAIN_ID } from '../../../src/sandbox/auth/seed-data';
import { at, errorCodeAt, expectResult, startAuthStack, type AuthStack, type Who } from './auth-stack';

/** A well-formed id that names nothing in the sandbox. */
const SOME_ID = '00000000-0000-4000-8000-0000000000f1';

let stack: AuthStack;
beforeAll(async () => {
  stack = await startAuthStack();
});
afterAll(async () => {
  await stack.close();
});

async function run(source: string, variables?: Record<string, unknown>, who: Who = 'admin') {
  const result = await stack.gql(source, variables, who);
  return { source, result };
}

const CREATE_DOMAIN = `mutation($input: CreateDomainInput!) { createDomain(input: $input) { domain { id name code createdBy } } }`;

describe('createDomain', () => {
  it('creates a domain, findable by its code afterwards', async () => {
    const { source, result } = await run(CREATE_DOMAIN, { input: { name: 'Lab', code: 'lab' } });
    expectResult(source, result, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'createDomain', 'domain')).toMatchObject({ name: 'Lab', code: 'lab', createdBy: ADMIN_IDENTITY_ID });
    });
    const found = await run('{ domain(idOrCode: "lab") { id } }');
    expect(at(found.result.data, 'domain', 'id')).toBe(at(result.data, 'createDomain', 'domain', 'id'));
  });

  it('maps the upstream refusals: 409 for a taken code, 400 for a code outside its pattern, 403 for a caller without create', async () => {
    const taken = await run(CREATE_DOMAIN, { input: { name: 'Again', code: 'lab' } });
    expectResult(taken.source, taken.result, (r) => expect(errorCodeAt(r, 'createDomain')).toBe('CONFLICT'));
    const pattern = await run(CREATE_DOMAIN, { input: { name: 'Caps', code: 'Not_A_Code' } });
    expectResult(pattern.source, pattern.result, (r) => {
      expect(errorCodeAt(r, 'createDomain')).toBe('BAD_USER_INPUT');
      expect(r.errors?.[0]?.extensions?.['upstream']).toMatchObject({ service: 'auth-v1', method: 'POST', path: '/auth/v1/domains', status: 400 });
    });
    const reader = await run(CREATE_DOMAIN, { input: { name: 'R', code: 'reader-lab' } }, 'reader');
    expectResult(reader.source, reader.result, (r) => expect(errorCodeAt(r, 'createDomain')).toBe('FORBIDDEN'));
  });
});

describe('createResourceType and createResourceActions', () => {
  it('creates a type with nested children, then actions on it', async () => {
    const created = await run(
      `mutation($input: CreateResourceTypeInput!) { createResourceType(input: $input) {
         resourceType { id code root depth domain { code } children { nodes { code depth parent { code } children { nodes { code depth } } } } } } }`,
      {
        input: {
          domainId: NETWORK_DOMAIN_ID,
          resourceType: { name: 'Rack', code: 'rack', children: [{ name: 'Shelf', code: 'shelf', children: [{ name: 'Slot', code: 'slot' }] }] },
        },
      },
    );
    expectResult(created.source, created.result, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'createResourceType', 'resourceType')).toMatchObject({
        code: 'rack',
        root: true,
        depth: 0,
        domain: { code: 'network' },
        children: { nodes: [{ code: 'shelf', depth: 1, parent: { code: 'rack' }, children: { nodes: [{ code: 'slot', depth: 2 }] } }] },
      });
    });
    const typeId = at(created.result.data, 'createResourceType', 'resourceType', 'id');
    const actions = await run(
      `mutation($input: CreateResourceActionsInput!) { createResourceActions(input: $input) { resourceActions { totalCount nodes { id code name standardAction resourceType { code } } } } }`,
      { input: { resourceTypeId: typeId, actions: [{ name: 'Mount', code: 'mount' }, { name: 'Unmount', code: 'unmount' }] } },
    );
    expectResult(actions.source, actions.result, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'createResourceActions', 'resourceActions', 'totalCount')).toBe(2);
      expect(at(r.data, 'createResourceActions', 'resourceActions', 'nodes')).toEqual([
        expect.objectContaining({ code: 'mount', resourceType: { code: 'rack' } }),
        expect.objectContaining({ code: 'unmount', resourceType: { code: 'rack' } }),
      ]);
    });
    const read = await run('query($id: UUID!) { resourceType(id: $id) { actions { nodes { code } } } }', { id: typeId });
    expect(at(read.result.data, 'resourceType', 'actions', 'nodes')).toEqual([{ code: 'mount' }, { code: 'unmount' }]);
  });
});

describe('super users', () => {
  it('creates a super user for one domain and for all domains, deletes one, and the deleted one shows under isDeleted', async () => {
    const create = `mutation($input: CreateSuperUserInput!) { createSuperUser(input: $input) { superUser { id identityId allDomains domain { code } deleted createdBy } } }`;
    const one = await run(create, { input: { identityId: NOBODY_IDENTITY_ID, domainId: NETWORK_DOMAIN_ID } });
    expectResult(one.source, one.result, (r) =>
      expect(at(r.data, 'createSuperUser', 'superUser')).toMatchObject({ identityId: NOBODY_IDENTITY_ID, allDomains: false, domain: { code: 'network' }, deleted: false, createdBy: ADMIN_IDENTITY_ID }),
    );
    // A fresh identity: making the reader super user would change what later tests see.
    const all = await run(create, { input: { identityId: '00000000-0000-4000-8000-0000000000e1' } });
    expectResult(all.source, all.result, (r) => expect(at(r.data, 'createSuperUser', 'superUser')).toMatchObject({ allDomains: true, domain: null }));

    const id = at(one.result.data, 'createSuperUser', 'superUser', 'id');
    const del = await run('mutation($id: UUID!) { deleteSuperUser(id: $id) { id deleted } }', { id });
    expectResult(del.source, del.result, (r) => expect(at(r.data, 'deleteSuperUser')).toEqual({ id, deleted: true }));

    const after = await run(`query($i: UUID) { gone: superUsers(identityId: $i, isDeleted: true) { nodes { id deletedBy } } live: superUsers(identityId: $i, isDeleted: false) { totalCount } }`, { i: NOBODY_IDENTITY_ID });
    expectResult(after.source, after.result, (r) => {
      expect(at(r.data, 'gone', 'nodes')).toEqual([{ id, deletedBy: ADMIN_IDENTITY_ID }]);
      expect(at(r.data, 'live', 'totalCount')).toBe(0);
    });
  });

  it('answers NOT_FOUND for an unknown super user and an unknown domain', async () => {
    const del = await run('mutation { deleteSuperUser(id: "00000000-0000-4000-8000-00000000dead") { id } }');
    expect(errorCodeAt(del.result, 'deleteSuperUser')).toBe('NOT_FOUND');
    const create = await run('mutation { createSuperUser(input: { identityId: "00000000-0000-4000-8000-0000000000f1", domainId: "00000000-0000-4000-8000-00000000dead" }) { superUser { id } } }');
    expect(errorCodeAt(create.result, 'createSuperUser')).toBe('NOT_FOUND');
  });
});

describe('createPublicGrant', () => {
  it('creates an anonymous grant on a path, linked to its action and path types', async () => {
    const ids = await run(`{ resourceTypes(code: "endpoint") { nodes { id actions { nodes { id code } } } } }`);
    const typeId = at(ids.result.data, 'resourceTypes', 'nodes', 0, 'id');
    const actionId = at(ids.result.data, 'resourceTypes', 'nodes', 0, 'actions', 'nodes', 0, 'id');
    const { source, result } = await run(
      `mutation($input: CreatePublicGrantInput!) { createPublicGrant(input: $input) { publicGrant {
         id anonymous deleted createdBy resourceAction { code resourceType { code } } path { resourceId resourceType { code } } } } }`,
      { input: { resourceActionId: actionId, anonymous: true, path: [{ resourceId: 'ep-1', resourceTypeId: typeId }] } },
    );
    expectResult(source, result, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'createPublicGrant', 'publicGrant')).toMatchObject({
        anonymous: true,
        deleted: false,
        createdBy: ADMIN_IDENTITY_ID,
        resourceAction: { code: 'read', resourceType: { code: 'endpoint' } },
        path: [{ resourceId: 'ep-1', resourceType: { code: 'endpoint' } }],
      });
    });
    const listed = await run('query($a: UUID) { publicGrants(resourceActionId: $a, isAnonymous: true) { totalCount } }', { a: actionId });
    expect(at(listed.result.data, 'publicGrants', 'totalCount')).toBe(1);
  });
});

describe('masquerade', () => {
  it('returns a token for the identity and audience carrying the claims', async () => {
    const { source, result } = await run(
      `mutation($input: MasqueradeInput!) { masquerade(input: $input) { token claims expiresAt } }`,
      { input: { identityId: READER_IDENTITY_ID, audience: 'console', claims: { tenant: 'acme', roles: ['ops'] } } },
    );
    expectResult(source, result, (r) => {
      expect(r.errors).toBeUndefined();
      const token = at(r.data, 'masquerade', 'token');
      expect(typeof token).toBe('string');
      // Decode the JWT payload here, independently of the gateway's own decoding.
      const payload: unknown = JSON.parse(Buffer.from(String(token).split('.')[1] ?? '', 'base64url').toString('utf8'));
      expect(payload).toMatchObject({ sub: READER_IDENTITY_ID, aud: 'console', tenant: 'acme', roles: ['ops'] });
      expect(at(r.data, 'masquerade', 'claims')).toEqual(payload);
      expect(at(r.data, 'masquerade', 'expiresAt')).toMatch(/Z$/);
    });
    // The token works: the reader's identity can read domains with it.
    const token = String(at(result.data, 'masquerade', 'token'));
    expect(stack.sandbox.tokenService.verify(token)).toMatchObject({ sub: READER_IDENTITY_ID });
  });

  it('is FORBIDDEN for the reader', async () => {
    const { result } = await run(`mutation { masquerade(input: { identityId: "${SOME_ID}", audience: "a", claims: {} }) { token } }`, undefined, 'reader');
    expectResult('masquerade', result, (r) => expect(errorCodeAt(r, 'masquerade')).toBe('FORBIDDEN'));
  });
});

describe('field rules are checked before any upstream call', () => {
  const cases: Array<[string, string, Record<string, unknown>, string]> = [
    ['an empty domain code', CREATE_DOMAIN, { input: { name: 'X', code: '' } }, 'input.code'],
    ['a domain code with whitespace', CREATE_DOMAIN, { input: { name: 'X', code: 'a b' } }, 'input.code'],
    [
      'a nested child code with whitespace',
      'mutation($input: CreateResourceTypeInput!) { createResourceType(input: $input) { resourceType { id } } }',
      { input: { resourceType: { name: 'A', code: 'a', children: [{ name: 'B', code: 'b', children: [{ name: 'C', code: ' c' }] }] } } },
      'input.resourceType.children[0].children[0].code',
    ],
    [
      'an empty action list',
      'mutation($input: CreateResourceActionsInput!) { createResourceActions(input: $input) { resourceActions { nodes { id } } } }',
      { input: { resourceTypeId: SOME_ID, actions: [] } },
      'input.actions',
    ],
    [
      'an empty action code',
      'mutation($input: CreateResourceActionsInput!) { createResourceActions(input: $input) { resourceActions { nodes { id } } } }',
      { input: { resourceTypeId: SOME_ID, actions: [{ name: 'ok', code: 'ok' }, { name: 'x', code: '' }] } },
      'input.actions[1].code',
    ],
    [
      'an empty audience',
      'mutation($input: MasqueradeInput!) { masquerade(input: $input) { token } }',
      { input: { identityId: SOME_ID, audience: '', claims: {} } },
      'input.audience',
    ],
    [
      'claims that are not a map',
      'mutation($input: MasqueradeInput!) { masquerade(input: $input) { token } }',
      { input: { identityId: SOME_ID, audience: 'a', claims: ['x'] } },
      'input.claims',
    ],
    [
      'an empty path resource id',
      'mutation($input: CreatePublicGrantInput!) { createPublicGrant(input: $input) { publicGrant { id } } }',
      { input: { resourceActionId: SOME_ID, path: [{ resourceId: '' }] } },
      'input.path[0].resourceId',
    ],
  ];

  it.each(cases)('%s → BAD_USER_INPUT naming the field, zero upstream calls', async (_name, source, variables, field) => {
    stack.resetCalls();
    const { result } = await run(source, variables);
    expectResult(source, result, (r) => {
      expect(r.errors).toHaveLength(1);
      expect(r.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field });
    });
    expect(stack.calls().total).toBe(0);
  });
});

describe('ids are checked as UUIDs before any upstream call', () => {
  it.each([
    ['a malformed super-user id', 'mutation { deleteSuperUser(id: "not-a-uuid") { id } }'],
    ['a malformed identity', 'mutation { createSuperUser(input: { identityId: "" }) { superUser { id } } }'],
    ['a malformed resource type id', '{ resourceType(id: "42") { id } }'],
  ])('%s → BAD_USER_INPUT, zero upstream calls', async (_name, source) => {
    stack.resetCalls();
    const { result } = await run(source);
    expectResult(source, result, (r) => expect(r.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT'));
    expect(stack.calls().total).toBe(0);
  });
});
