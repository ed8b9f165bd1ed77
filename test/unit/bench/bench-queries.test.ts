import { parse, validate } from 'graphql';
import { BENCH_QUERIES } from '../../../bench/queries';
import { PASSTHROUGH_QUERY } from '../../../bench/passthrough';
import { buildSchema } from '../../../src/server/schema';

describe('bench queries', () => {
  const schema = buildSchema();
  const documents = [...BENCH_QUERIES.map((q) => [q.name, q.document] as const), ['passthrough', PASSTHROUGH_QUERY] as const];

  it.each(documents)('%s is valid against the gateway schema', (_name, document) => {
    expect(validate(schema, parse(document)).map((e) => e.message)).toEqual([]);
  });

  it('have unique names, each the name of its operation', () => {
    expect(new Set(BENCH_QUERIES.map((q) => q.name)).size).toBe(BENCH_QUERIES.length);
    for (const q of BENCH_QUERIES) expect(q.document).toMatch(new RegExp(`^query ${q.name}\\b`, 'm'));
  });
});
