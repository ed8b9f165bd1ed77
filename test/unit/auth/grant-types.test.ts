/**
 * The Grant interface over upstream answers the sandbox never gives: an unknown grant kind, a
 * Spring page object, odd privilege leaves. The gateway's schema and resolvers run in-process over
 * a fake HttpClient.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { graphql } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { inProcessContext } from '../../helpers/context';
import { resolvers } from '../../../src/resolvers';
import { FakeAuthHttp } from './fake-auth-http';

const root = join(__dirname, '../../..');
const typeDefs = readdirSync(join(root, 'schema'))
  .filter((f) => f.endsWith('.graphql'))
  .map((f) => readFileSync(join(root, 'schema', f), 'utf8'));
const schema = makeExecutableSchema({ typeDefs, resolvers });

async function run(http: FakeAuthHttp, source: string) {
  return graphql({ schema, source, contextValue: inProcessContext(http) });
}

const grant = (grantType: string, privileges: unknown) => ({
  grantType,
  grantId: `g-${grantType}`,
  identityId: 'i1',
  privileges,
  createdBy: 'u',
  createdAt: '2024-01-01T00:00:00.000Z',
  deletedAt: null,
  deletedBy: null,
});

const QUERY = `{ grants { totalCount nodes { __typename grantType upstreamGrantType grantId
  privilegeEntries { domainCode resourceTypeCode actionCode paths value } } } }`;

it('keeps a grant of an unknown kind as UnknownGrant and the rest of the list intact (page object form)', async () => {
  const http = new FakeAuthHttp({
    'GET /grants': () => ({
      content: [grant('SuperUser', { auth: { domain: { read: [[]] } } }), grant('RoleBinding', { auth: { domain: { read: 'ALL' } } })],
      totalElements: 2,
      totalPages: 1,
      size: 1000,
      number: 0,
    }),
  });
  const result = await run(http, QUERY);
  expect(result.errors).toBeUndefined();
  expect(result.data).toEqual({
    grants: {
      totalCount: 2,
      nodes: [
        {
          __typename: 'SuperUserGrant',
          grantType: 'SuperUser',
          upstreamGrantType: 'SuperUser',
          grantId: 'g-SuperUser',
          privilegeEntries: [{ domainCode: 'auth', resourceTypeCode: 'domain', actionCode: 'read', paths: [[]], value: [[]] }],
        },
        {
          __typename: 'UnknownGrant',
          grantType: null,
          upstreamGrantType: 'RoleBinding',
          grantId: 'g-RoleBinding',
          privilegeEntries: [{ domainCode: 'auth', resourceTypeCode: 'domain', actionCode: 'read', paths: null, value: 'ALL' }],
        },
      ],
    },
  });
  expect(http.calls).toHaveLength(1);
});

it('answers UPSTREAM_BAD_RESPONSE on the list when a grant has no grantType', async () => {
  const http = new FakeAuthHttp({ 'GET /grants': () => [{ grantId: 'g1' }], 'GET /domains': () => [] });
  const result = await run(http, '{ grants { totalCount } domains { totalCount } }');
  expect(result.errors?.[0]?.path).toEqual(['grants']);
  expect(result.errors?.[0]?.originalError).toMatchObject({ code: 'UPSTREAM_BAD_RESPONSE' });
  expect(result.data).toEqual({ grants: null, domains: { totalCount: 0 } });
});
