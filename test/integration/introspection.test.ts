/**
 * Introspection can be turned off (INTROSPECTION=off): over HTTP, `__schema` and `__type` are
 * refused at validation (before anything runs), on the first request and again once the gateway
 * has seen the text, while `__typename` and ordinary fields work. The default stays on, for the IDE.
 */
import { expectNoErrors, startStack, type GqlResult, type Stack } from '../helpers/stack';

const SCHEMA = '{ __schema { queryType { name } } }';
const TYPE = '{ __type(name: "Query") { name } }';
const ORDINARY = '{ gatewayInfo { __typename sandbox } }';

function expectIntrospectionRefused(res: GqlResult): void {
  expect(res.status).toBe(400);
  expect(res.body.data).toBeUndefined();
  // One error per introspection field asked (`__schema`, then `queryType`, a `__Type`).
  expect(res.body.errors?.length).toBeGreaterThan(0);
  for (const error of res.body.errors ?? []) {
    expect(error.extensions?.['code']).toBe('GRAPHQL_VALIDATION_FAILED');
    expect(error.message).toMatch(/^GraphQL introspection has been disabled/);
  }
}

describe('INTROSPECTION=off', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: { server: { introspection: false } } });
  });
  afterAll(() => stack.close());

  it.each([
    ['__schema', SCHEMA],
    ['__type', TYPE],
  ])('refuses %s, every time it is asked', async (_what, query) => {
    for (let i = 0; i < 2; i++) expectIntrospectionRefused(await stack.gql(query));
  });

  it('refuses introspection without a token too, and serves the rest', async () => {
    expectIntrospectionRefused(await stack.gql(SCHEMA, undefined, { token: null }));
    expect(expectNoErrors(await stack.gql(ORDINARY))).toEqual({ gatewayInfo: { __typename: 'GatewayInfo', sandbox: true } });
  });
});

describe('by default', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('answers introspection, for the IDE', async () => {
    expect(expectNoErrors(await stack.gql(SCHEMA))).toEqual({ __schema: { queryType: { name: 'Query' } } });
    expect(expectNoErrors(await stack.gql(TYPE))).toEqual({ __type: { name: 'Query' } });
  });
});
