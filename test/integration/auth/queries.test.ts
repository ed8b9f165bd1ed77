/** auth/v1 read operations through the gateway against the sandbox (admin token unless said). */
import { ADMIN_IDENTITY_ID, READER_IDENTITY_ID } from '../../../src/sandbox';
import { AUTH_DOMAIN_ID, NETWORK_DOMAIN_ID } from '../../../src/sandbox/auth/seed-data';
import { at, errorCodeAt, expectResult, startAuthStack, type AuthStack } from './auth-stack';

let stack: AuthStack;
beforeAll(async () => {
  stack = await startAuthStack();
});
afterAll(async () => {
  await stack.close();
});

async function query(source: string, variables?: Record<string, unknown>) {
  const result = await stack.gql(source, variables);
  return { source, result };
}

/** The items of a connection (`{ nodes }`) or of a plain list. */
function nodes(value: unknown): unknown[] {
  if (Array.isArray(value)) return value;
  const inner = typeof value === 'object' && value !== null ? (value as { nodes?: unknown }).nodes : undefined;
  return Array.isArray(inner) ? inner : [];
}

describe('domains', () => {
  it('lists the domains as a connection', async () => {
    const { source, result } = await query('{ domains(first: 1) { totalCount nodes { id code name } pageInfo { hasNextPage endCursor } } }');
    expectResult(source, result, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'domains', 'totalCount')).toBe(2);
      expect(at(r.data, 'domains', 'nodes')).toEqual([{ id: AUTH_DOMAIN_ID, code: 'auth', name: 'Authorization' }]);
      expect(at(r.data, 'domains', 'pageInfo', 'hasNextPage')).toBe(true);
    });
    const after = at(result.data, 'domains', 'pageInfo', 'endCursor');
    const next = await query('query($after: String) { domains(after: $after) { nodes { code } } }', { after });
    expectResult(next.source, next.result, (r) => expect(at(r.data, 'domains', 'nodes')).toEqual([{ code: 'network' }]));
  });

  it('finds a domain by id and by code, the same record', async () => {
    const { source, result } = await query(
      `query($id: String!) { byId: domain(idOrCode: $id) { id code createdBy createdAt updatedAt title }
         byCode: domain(idOrCode: "network") { id code createdBy createdAt updatedAt title } }`,
      { id: NETWORK_DOMAIN_ID },
    );
    expectResult(source, result, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'byId')).toEqual(at(r.data, 'byCode'));
      expect(at(r.data, 'byId', 'createdBy')).toBe(ADMIN_IDENTITY_ID);
      expect(at(r.data, 'byId', 'createdAt')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
    });
  });

  it('answers null with NOT_FOUND for an unknown domain', async () => {
    const { source, result } = await query('{ domain(idOrCode: "no-such-domain") { id } domains { totalCount } }');
    expectResult(source, result, (r) => {
      expect(at(r.data, 'domain')).toBeNull();
      expect(errorCodeAt(r, 'domain')).toBe('NOT_FOUND');
      expect(at(r.data, 'domains', 'totalCount')).toBe(2);
    });
  });
});

describe('resource types and actions', () => {
  it('walks the type tree from a domain: roots, children to any depth, parents, depth', async () => {
    const { source, result } = await query(`{ domain(idOrCode: "network") { resourceTypes(rootsOnly: true) { nodes {
        code root depth parent { code } domain { code }
        children { nodes { code depth parent { code } children { nodes { code depth root childrenIds } } } } } } } }`);
    expectResult(source, result, (r) => {
      expect(r.errors).toBeUndefined();
      const roots = nodes(at(r.data, 'domain', 'resourceTypes', 'nodes'));
      expect(roots.map((t) => at(t, 'code'))).toEqual(['network-group', 'data-center', 'geo-region', 'host', 'network-config-metadata']);
      const group = roots[0];
      expect(group).toMatchObject({ root: true, depth: 0, parent: null, domain: { code: 'network' } });
      const network = nodes(at(group, 'children')).find((c) => at(c, 'code') === 'network');
      expect(network).toMatchObject({ depth: 1, parent: { code: 'network-group' } });
      expect(nodes(at(network, 'children'))).toContainEqual({ code: 'endpoint', depth: 2, root: false, childrenIds: [] });
    });
  });

  it('lists all types of a domain flat unless rootsOnly', async () => {
    const { source, result } = await query(`{ domain(idOrCode: "auth") { all: resourceTypes { totalCount } roots: resourceTypes(rootsOnly: true) { totalCount } } }`);
    expectResult(source, result, (r) => {
      expect(at(r.data, 'domain', 'all', 'totalCount')).toBe(7);
      expect(at(r.data, 'domain', 'roots', 'totalCount')).toBe(5);
    });
  });

  it('filters resource types by domain, code and parent', async () => {
    const first = await query(`query($d: UUID) { resourceTypes(domainId: $d, code: "network") { nodes { id code domainId parentId } } }`, { d: NETWORK_DOMAIN_ID });
    const network = at(first.result.data, 'resourceTypes', 'nodes', 0);
    expectResult(first.source, first.result, () => expect(network).toMatchObject({ code: 'network', domainId: NETWORK_DOMAIN_ID }));
    const kids = await query(`query($p: UUID) { resourceTypes(parentId: $p) { totalCount nodes { code parent { id } } } }`, { p: at(network, 'id') });
    expectResult(kids.source, kids.result, (r) => {
      expect(at(r.data, 'resourceTypes', 'totalCount')).toBe(14);
      expect(at(r.data, 'resourceTypes', 'nodes', 0, 'parent', 'id')).toBe(at(network, 'id'));
    });
    const one = await query(`query($id: UUID!) { resourceType(id: $id) { code children { totalCount nodes { code } } } }`, { id: at(network, 'id') });
    expectResult(one.source, one.result, (r) => {
      expect(nodes(at(r.data, 'resourceType', 'children'))).toHaveLength(14);
      expect(at(r.data, 'resourceType', 'children', 'totalCount')).toBe(14);
    });
    const page = await query(`query($id: UUID!) { resourceType(id: $id) { children(first: 5) { totalCount pageInfo { hasNextPage } nodes { code } } } }`, { id: at(network, 'id') });
    expectResult(page.source, page.result, (r) => {
      expect(nodes(at(r.data, 'resourceType', 'children'))).toHaveLength(5);
      expect(at(r.data, 'resourceType', 'children', 'pageInfo', 'hasNextPage')).toBe(true);
    });
  });

  it('filters resource actions by code, type and domain, and links each to its type', async () => {
    const { source, result } = await query(`query($d: UUID) {
        reads: resourceActions(domainId: $d, code: "read") { totalCount nodes { id code standardAction resourceType { code domain { code } } } }
        all: resourceActions(domainId: $d) { totalCount } }`, { d: AUTH_DOMAIN_ID });
    expectResult(source, result, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'reads', 'totalCount')).toBe(6);
      expect(at(r.data, 'all', 'totalCount')).toBe(16);
      expect(at(r.data, 'reads', 'nodes', 0)).toMatchObject({ code: 'read', standardAction: true, resourceType: { code: 'domain', domain: { code: 'auth' } } });
    });
    const actionId = at(result.data, 'reads', 'nodes', 0, 'id');
    const one = await query(`query($id: UUID!) { resourceAction(id: $id) { code resourceTypeId resourceType { code } } }`, { id: actionId });
    expectResult(one.source, one.result, (r) => expect(at(r.data, 'resourceAction')).toMatchObject({ code: 'read', resourceType: { code: 'domain' } }));
    const typeId = at(one.result.data, 'resourceAction', 'resourceTypeId');
    const byType = await query(`query($t: UUID) { resourceActions(resourceTypeId: $t) { nodes { code } } }`, { t: typeId });
    expectResult(byType.source, byType.result, (r) => expect(at(r.data, 'resourceActions', 'nodes')).toEqual([{ code: 'read' }, { code: 'create' }]));
  });
});

describe('grants', () => {
  const GRANT_FIELDS = `__typename grantType upstreamGrantType grantId identityId privilegeSourceId deleted
    privilegeEntries { domainCode resourceTypeCode actionCode paths }`;

  it('resolves one GraphQL type per grant kind and flattens privileges', async () => {
    const { source, result } = await query(`{ grants { totalCount nodes { ${GRANT_FIELDS} } } }`);
    expectResult(source, result, (r) => {
      expect(r.errors).toBeUndefined();
      const all = nodes(at(r.data, 'grants', 'nodes'));
      const types = new Set(all.map((g) => at(g, '__typename')));
      expect(types).toEqual(new Set(['CustomRoleGrant', 'IdentityResourceActionGrant', 'PublicGrantGrant', 'SuperUserGrant']));
      const role = all.find((g) => at(g, 'grantType') === 'CustomRole');
      expect(role).toMatchObject({ __typename: 'CustomRoleGrant', upstreamGrantType: 'CustomRole', identityId: READER_IDENTITY_ID });
      expect(at(role, 'privilegeEntries')).toContainEqual({ domainCode: 'network', resourceTypeCode: 'endpoint', actionCode: 'read', paths: [[]] });
    });
  });

  it('filters by grant type and identity', async () => {
    const { source, result } = await query(`query($i: UUID) {
        su: grants(grantType: SuperUser) { nodes { grantType deleted } }
        mine: grants(identityId: $i, grantType: IdentityResourceAction) { totalCount nodes { identityId } } }`, { i: READER_IDENTITY_ID });
    expectResult(source, result, (r) => {
      expect(nodes(at(r.data, 'su', 'nodes')).every((g) => at(g, 'grantType') === 'SuperUser')).toBe(true);
      expect(nodes(at(r.data, 'su', 'nodes')).map((g) => at(g, 'deleted')).sort()).toEqual([false, true]);
      expect(at(r.data, 'mine', 'totalCount')).toBe(4);
    });
  });
});

describe('super users and public grants', () => {
  it('shows all-domain super users and filters by isDeleted', async () => {
    const { source, result } = await query(`{
        all: superUsers { totalCount }
        active: superUsers(isDeleted: false) { nodes { id identityId domainId allDomains domain { code } deleted type } }
        gone: superUsers(isDeleted: true) { nodes { id identityId allDomains domain { code } deleted deletedAt deletedBy } } }`);
    expectResult(source, result, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'all', 'totalCount')).toBe(2);
      expect(at(r.data, 'active', 'nodes')).toEqual([
        expect.objectContaining({ identityId: ADMIN_IDENTITY_ID, domainId: null, allDomains: true, domain: null, deleted: false }),
      ]);
      expect(at(r.data, 'gone', 'nodes')).toEqual([
        expect.objectContaining({ identityId: READER_IDENTITY_ID, allDomains: false, domain: { code: 'network' }, deleted: true, deletedBy: ADMIN_IDENTITY_ID }),
      ]);
    });
    const id = at(result.data, 'gone', 'nodes', 0, 'id');
    const one = await query('query($id: UUID!) { superUser(id: $id) { id deleted domain { id } } }', { id });
    expectResult(one.source, one.result, (r) => expect(at(r.data, 'superUser')).toEqual({ id, deleted: true, domain: { id: NETWORK_DOMAIN_ID } }));
  });

  it('filters public grants by isAnonymous and isDeleted and links action and path types', async () => {
    const { source, result } = await query(`{
        anon: publicGrants(isAnonymous: true) { nodes { id anonymous deleted path { resourceId resourceTypeId resourceType { code } } resourceAction { code resourceType { code } } } }
        authOnly: publicGrants(isAnonymous: false) { nodes { anonymous deleted } }
        deleted: publicGrants(isDeleted: true) { nodes { deleted deletedAt path { resourceId } resourceAction { code resourceType { code } } } }
        active: publicGrants(isDeleted: false) { totalCount } }`);
    expectResult(source, result, (r) => {
      expect(r.errors).toBeUndefined();
      const anon = at(r.data, 'anon', 'nodes', 0);
      expect(anon).toMatchObject({ anonymous: true, deleted: false, resourceAction: { code: 'read', resourceType: { code: 'network-config-metadata' } } });
      expect(at(anon, 'path', 0, 'resourceType', 'code')).toBe('network-config-metadata');
      expect(at(r.data, 'authOnly', 'nodes')).toEqual([{ anonymous: false, deleted: true }]);
      expect(at(r.data, 'deleted', 'nodes')).toEqual([
        expect.objectContaining({ deleted: true, path: [], resourceAction: { code: 'read', resourceType: { code: 'domain' } } }),
      ]);
      expect(at(r.data, 'active', 'totalCount')).toBe(1);
    });
    const id = at(result.data, 'anon', 'nodes', 0, 'id');
    const one = await query('query($id: UUID!) { publicGrant(id: $id) { id anonymous } }', { id });
    expectResult(one.source, one.result, (r) => expect(at(r.data, 'publicGrant')).toEqual({ id, anonymous: true }));
  });
});
