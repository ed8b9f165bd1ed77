import { graphql, type GraphQLError } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { DateTimeScalar, JsonScalar, UuidScalar, normalizeDateTime } from '../../src/resolvers/common/scalars';

describe('DateTime', () => {
  it.each([
    ['2024-05-01T12:00:00Z', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T12:00:00.123456Z', '2024-05-01T12:00:00.123Z'],
    ['2024-05-01T12:00:00.5+0000', '2024-05-01T12:00:00.500Z'],
    ['2024-05-01T14:00:00+02:00', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T07:30:00-0430', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01 12:00:00z', '2024-05-01T12:00:00.000Z'],
  ])('normalizes %s to %s', (input, expected) => {
    expect(normalizeDateTime(input)).toBe(expected);
    expect(DateTimeScalar.serialize(input)).toBe(expected);
  });

  it.each(['2024-05-01', '2024-02-30T00:00:00Z', '2024-05-01T25:00:00Z', '2024-05-01T12:00:00', 'yesterday', '2024-05-01T12:00:00+2500'])('rejects %s', (input) => {
    expect(normalizeDateTime(input)).toBeNull();
  });

  it('serializes Dates and epoch milliseconds', () => {
    expect(DateTimeScalar.serialize(new Date(Date.UTC(2024, 0, 2)))).toBe('2024-01-02T00:00:00.000Z');
    expect(DateTimeScalar.serialize(0)).toBe('1970-01-01T00:00:00.000Z');
    expect(DateTimeScalar.serialize(1714564800000)).toBe('2024-05-01T12:00:00.000Z');
    expect(() => DateTimeScalar.serialize(new Date(Number.NaN))).toThrow(/DateTime cannot represent/);
    expect(() => DateTimeScalar.serialize('garbage')).toThrow(/DateTime cannot represent/);
  });

  it.each([
    ['2024-05-01T12:00:00', '2024-05-01T12:00:00.000Z'],
    ['2024-05-01T12:00:00.250', '2024-05-01T12:00:00.250Z'],
    ['1714564800000', '2024-05-01T12:00:00.000Z'],
    ['1714564800', '2024-05-01T12:00:00.000Z'],
  ])('reads the upstream form %s as %s (output only: inputs stay strict)', (input, expected) => {
    expect(DateTimeScalar.serialize(input)).toBe(expected);
    expect(normalizeDateTime(input)).toBeNull();
  });
});

const schema = makeExecutableSchema({
  typeDefs: `scalar DateTime scalar UUID scalar JSON
    type Query { at(t: DateTime!): DateTime!, id(id: UUID!): String!, echo(v: JSON): JSON }`,
  resolvers: {
    DateTime: DateTimeScalar,
    UUID: UuidScalar,
    JSON: JsonScalar,
    Query: { at: (_: unknown, a: { t: string }) => a.t, id: (_: unknown, a: { id: string }) => a.id, echo: (_: unknown, a: { v: unknown }) => a.v },
  },
});

async function exec(source: string, variableValues?: Record<string, unknown>): Promise<{ data: unknown; codes: unknown[] }> {
  const res = await graphql({ schema, source, variableValues });
  return { data: res.data ?? null, codes: (res.errors ?? []).map((e: GraphQLError) => e.originalError && 'extensions' in e.originalError ? (e.originalError as GraphQLError).extensions['code'] : e.extensions['code']) };
}

describe('scalars as arguments', () => {
  it('normalizes DateTime literals and variables', async () => {
    expect((await exec('{ at(t: "2024-05-01T14:00:00+02:00") }')).data).toEqual({ at: '2024-05-01T12:00:00.000Z' });
    expect((await exec('query($t: DateTime!) { at(t: $t) }', { t: '2024-05-01T12:00:00+0000' })).data).toEqual({ at: '2024-05-01T12:00:00.000Z' });
  });

  it('rejects invalid DateTime and UUID inputs with BAD_USER_INPUT before resolving', async () => {
    expect((await exec('{ at(t: "soon") }')).codes).toEqual(['BAD_USER_INPUT']);
    expect((await exec('query($id: UUID!) { id(id: $id) }', { id: 'not-a-uuid' })).codes).toEqual(['BAD_USER_INPUT']);
    expect((await exec('{ id(id: 42) }')).codes).toEqual(['BAD_USER_INPUT']);
  });

  it('accepts UUIDs in canonical form, lowercased', async () => {
    expect((await exec('{ id(id: "0F8FAD5B-D9CB-469F-A165-70867728950E") }')).data).toEqual({ id: '0f8fad5b-d9cb-469f-a165-70867728950e' });
  });

  it('passes JSON through from literals (with variables inside) and variables', async () => {
    expect((await exec('query($x: String) { echo(v: { a: [1, "two", true, null], b: { c: $x }, e: RED }) }', { x: 'three' })).data).toEqual({
      echo: { a: [1, 'two', true, null], b: { c: 'three' }, e: 'RED' },
    });
    expect((await exec('query($v: JSON) { echo(v: $v) }', { v: { deep: [{ k: 1 }] } })).data).toEqual({ echo: { deep: [{ k: 1 }] } });
  });
});
