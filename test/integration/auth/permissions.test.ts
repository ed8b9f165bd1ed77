/** What admin, reader, a token without grants and no token at all see of auth/v1. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NOBODY_IDENTITY_ID } from '../../../src/sandbox';
import { at, errorCodeAt, expectResult, startAuthStack, type AuthStack } from './auth-stack';

let stack: AuthStack;
beforeAll(async () => {
  stack = await startAuthStack();
});
afterAll(async () => {
  await stack.close();
});

const MIXED = `{
  domains { totalCount nodes { code } }
  resourceActions(code: "masquerade") { totalCount }
  grants { totalCount }
  superUsers { totalCount }
  publicGrants { totalCount }
}`;

describe('reader and admin see different things', () => {
  it('admin reads everything', async () => {
    const result = await stack.gql(MIXED, undefined, 'admin');
    expectResult(MIXED, result, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'superUsers', 'totalCount')).toBe(2);
      expect(at(r.data, 'publicGrants', 'totalCount')).toBe(2);
    });
  });

  it('reader: FORBIDDEN on super users and public grants, the rest of the same query intact', async () => {
    const result = await stack.gql(MIXED, undefined, 'reader');
    expectResult(MIXED, result, (r) => {
      expect(errorCodeAt(r, 'superUsers')).toBe('FORBIDDEN');
      expect(errorCodeAt(r, 'publicGrants')).toBe('FORBIDDEN');
      expect(r.errors).toHaveLength(2);
      expect(r.errors?.[0]?.extensions?.['upstream']).toMatchObject({ service: 'auth-v1', method: 'GET', status: 403 });
      expect(at(r.data, 'superUsers')).toBeNull();
      expect(at(r.data, 'publicGrants')).toBeNull();
      expect(at(r.data, 'domains', 'nodes')).toEqual([{ code: 'auth' }, { code: 'network' }]);
      expect(at(r.data, 'resourceActions', 'totalCount')).toBe(1);
      expect(at(r.data, 'grants', 'totalCount')).toBe(9);
    });
  });

  it('reader: a nested link it may not read fails alone', async () => {
    const source = '{ grants(grantType: SuperUser) { nodes { grantType grantId } } su: superUser(id: "00000000-0000-4000-8000-0000000000f1") { id } }';
    const result = await stack.gql(source, undefined, 'reader');
    expectResult(source, result, (r) => {
      expect(errorCodeAt(r, 'su')).toBe('FORBIDDEN');
      expect(at(r.data, 'grants', 'nodes', 0, 'grantType')).toBe('SuperUser');
    });
  });

  it('a token without grants: FORBIDDEN everywhere except grants, which need no permission', async () => {
    const result = await stack.gql(MIXED, undefined, 'nobody');
    expectResult(MIXED, result, (r) => {
      for (const field of ['domains', 'resourceActions', 'superUsers', 'publicGrants']) expect(errorCodeAt(r, field)).toBe('FORBIDDEN');
      expect(at(r.data, 'grants', 'totalCount')).toBe(9);
    });
    const mine = `{ grants(identityId: "${NOBODY_IDENTITY_ID}") { totalCount } }`;
    expect(at((await stack.gql(mine, undefined, 'nobody')).data, 'grants', 'totalCount')).toBe(0);
  });

  it('the docs example: complete for admin, FORBIDDEN only on superUsers for the reader', async () => {
    const source = readmeExample();
    const admin = await stack.gql(source, undefined, 'admin');
    expectResult(source, admin, (r) => {
      expect(r.errors).toBeUndefined();
      expect(at(r.data, 'superUsers', 'nodes', 0, 'allDomains')).toBe(true);
    });
    const reader = await stack.gql(source, undefined, 'reader');
    expectResult(source, reader, (r) => {
      expect(r.errors?.map((e) => [e.path?.join('.'), e.extensions?.['code']])).toEqual([['superUsers', 'FORBIDDEN']]);
      expect(at(r.data, 'domain', 'resourceTypes', 'nodes', 0, 'code')).toBe('network-group');
      expect(at(r.data, 'grants', 'nodes', 0, 'grantType')).toBe('CustomRole');
    });
  });

  it('no token: UNAUTHENTICATED', async () => {
    const source = '{ domains { totalCount } }';
    const result = await stack.gql(source, undefined, null);
    expectResult(source, result, (r) => expect(errorCodeAt(r, 'domains')).toBe('UNAUTHENTICATED'));
  });
});

/** The GraphQL example of docs/api-areas.md's "The authorization API (auth/v1)" section. */
function readmeExample(): string {
  const doc = readFileSync(join(__dirname, '../../../docs/api-areas.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## The authorization API (auth/v1)'));
  const match = /```graphql\n([\s\S]*?)```/.exec(section);
  if (!match?.[1]) throw new Error('docs/api-areas.md: no graphql example in the authorization API section');
  return match[1];
}
