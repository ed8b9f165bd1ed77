import { ApolloServer } from '@apollo/server';
import { GraphQLError } from 'graphql';
import { BadInputError, ErrorCode, UpstreamError } from '../../src/errors/codes';
import { createErrorFormatter } from '../../src/pipeline/format';
import { toGraphQLError } from '../../src/errors/to-graphql-error';
import { ShapeError } from '../../src/errors/shape-error';

const upstream = { service: 'rest-v1' as const, method: 'GET', path: '/rest/v1/networks/n1', status: 403 };

describe('toGraphQLError', () => {
  it('maps each known error class to its code and extensions', () => {
    expect(toGraphQLError(new UpstreamError(ErrorCode.FORBIDDEN, 'rest-v1 answered 403', upstream))?.extensions).toEqual({
      code: 'FORBIDDEN',
      upstream,
    });
    expect(toGraphQLError(new BadInputError('input.name', 'name is required'))?.extensions).toEqual({ code: 'BAD_USER_INPUT', field: 'input.name' });
    expect(toGraphQLError(new ShapeError('network.id: expected a non-empty string'))?.extensions).toEqual({ code: 'UPSTREAM_BAD_RESPONSE' });
    expect(toGraphQLError(new Error('boom'))).toBeNull();
  });
});

async function run(development: boolean, query: string): Promise<{ data?: unknown; errors?: ReadonlyArray<Record<string, unknown>> }> {
  const server = new ApolloServer({
    typeDefs: `type Query { ok: String, forbidden: String, badInput: String, bug: String, coded: String, needsInt(n: Int!): Int }`,
    resolvers: {
      Query: {
        ok: () => 'fine',
        forbidden: () => {
          throw new UpstreamError(ErrorCode.FORBIDDEN, 'rest-v1 answered 403: not allowed', upstream);
        },
        badInput: () => {
          throw new BadInputError('first', 'first must be between 0 and 1000');
        },
        bug: () => {
          throw new TypeError('cannot read properties of undefined (secret detail)');
        },
        coded: () => {
          throw new GraphQLError('search is not configured', { extensions: { code: ErrorCode.NOT_CONFIGURED } });
        },
        needsInt: (_: unknown, args: { n: number }) => args.n,
      },
    },
    // As the HTTP door formats Apollo's own errors: through the pipeline's one formatter.
    formatError: (formatted, error) => createErrorFormatter({ development })([error]).formatted[0] ?? formatted,
    includeStacktraceInErrorResponses: development,
  });
  await server.start();
  try {
    const res = await server.executeOperation({ query });
    if (res.body.kind !== 'single') throw new Error('expected a single result');
    return res.body.singleResult as { data?: unknown; errors?: ReadonlyArray<Record<string, unknown>> };
  } finally {
    await server.stop();
  }
}

describe('formatError', () => {
  it('turns thrown gateway errors into field errors with codes while other fields resolve', async () => {
    const result = await run(false, '{ ok forbidden badInput coded }');
    expect(result.data).toEqual({ ok: 'fine', forbidden: null, badInput: null, coded: null });
    const byPath = Object.fromEntries((result.errors ?? []).map((e) => [String((e['path'] as string[])[0]), e]));
    expect(byPath['forbidden']).toMatchObject({ message: 'rest-v1 answered 403: not allowed', extensions: { code: 'FORBIDDEN', upstream } });
    expect(byPath['badInput']).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'first' } });
    expect(byPath['coded']).toMatchObject({ extensions: { code: 'NOT_CONFIGURED' } });
    expect(JSON.stringify(result.errors)).not.toContain('stacktrace');
  });

  it('masks unexpected errors outside development', async () => {
    const result = await run(false, '{ ok bug }');
    expect(result.errors).toEqual([{ message: 'Unexpected error.', locations: [{ line: 1, column: 6 }], path: ['bug'], extensions: { code: 'INTERNAL_SERVER_ERROR' } }]);
  });

  it('shows details of unexpected errors in development', async () => {
    const result = await run(true, '{ bug }');
    expect(result.errors?.[0]).toMatchObject({ message: 'Unexpected error.', extensions: { code: 'INTERNAL_SERVER_ERROR', detail: expect.stringContaining('secret detail') } });
  });

  it('keeps validation errors as they are', async () => {
    const result = await run(false, '{ nope }');
    expect(result.errors?.[0]).toMatchObject({ extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } });
    expect(String(result.errors?.[0]?.['message'])).toContain('nope');
  });
});
