/**
 * The cost model (src/limits/cost.ts, price.ts): the re-entrant cycle and its variants are
 * refused, every bench query and every docs example is admitted under the default maximums
 * (but the one that shows the refusal).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { getIntrospectionQuery, parse } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { CostTooExpensiveError } from '../../../src/errors/codes';
import * as cost from '../../../src/limits/cost';
import { estimateCost } from '../../../src/limits/cost';
import { checkDocument, countTokens } from '../../../src/limits/document-check';
import { DEFAULT_LIMITS } from '../../../src/limits/limits';
import { priceOperation } from '../../../src/limits/price';
import { buildSchema } from '../../../src/server/schema';
import { CYCLE_QUERY } from '../../helpers/abusive-queries';
import { BENCH_QUERIES } from '../../../bench/queries';
import { docExamples } from '../../helpers/docs-examples';

const schema = buildSchema();
const root = join(__dirname, '..', '..', '..');


function price(query: string, variables?: Record<string, unknown>): ReturnType<typeof priceOperation> {
  return priceOperation(schema, parse(query), null, variables, DEFAULT_LIMITS.price);
}

function refusal(query: string, variables?: Record<string, unknown>): CostTooExpensiveError {
  try {
    price(query, variables);
  } catch (error) {
    if (error instanceof CostTooExpensiveError) return error;
    throw error;
  }
  throw new Error(`admitted: ${JSON.stringify(estimateCost(schema, parse(query), null, variables))}`);
}

describe('refused before running', () => {
  it('the re-entrant cycle query, on its node estimate', () => {
    const error = refusal(CYCLE_QUERY);
    expect(error.limit).toBe('nodes');
    expect(error.estimated).toBeGreaterThan(DEFAULT_LIMITS.price.maxNodes);
  });

  it('ten nested fragments of the cycle', () => {
    const fragments = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? `fragment F${i} on Endpoint { id appWans { nodes { ...F${i + 1} } } }`
        : `fragment F${i} on AppWan { id endpoints(first: 1000) { nodes { ${i + 1 < 10 ? `...F${i + 1}` : 'id'} } } }`,
    ).join('\n');
    const error = refusal(`{ networks { nodes { endpoints { nodes { ...F0 } } } } }\n${fragments.replace('...F10', 'id')}`);
    expect(['nodes', 'depth']).toContain(error.limit);
  });

  // Priced by walking each fragment once: a walk of every spread would visit 2^40 selections and
  // never finish (the test's timeout fails it); how fast pricing is belongs to the benchmark.
  it('a fragment spread twice per level is priced in linear time', () => {
    const levels = 40;
    const fragments = Array.from({ length: levels }, (_, i) => `fragment L${i} on Network { a: endpoints(first: 1) { totalCount } ${i + 1 < levels ? `...L${i + 1} ...L${i + 1}` : ''} }`).join('\n');
    const estimate = estimateCost(schema, parse(`{ networks(first: 1) { nodes { ...L0 } } } ${fragments}`), null, {});
    expect(estimate?.aliases).toBeGreaterThan(1e6);
  });

  it('500 aliases of a nested list', () => {
    const fields = Array.from({ length: 500 }, (_, i) => `a${i}: networks(first: 1000) { nodes { endpoints(first: 1000) { nodes { id name } } } }`).join(' ');
    expect(refusal(`{ ${fields} }`).limit).toBe('aliases');
  });

  it('a deep document', () => {
    const level = (inner: string): string => `endpoints(first: 1) { nodes { network { ${inner} } } }`;
    let deep = 'id';
    for (let i = 0; i < 6; i += 1) deep = level(deep);
    deep = `{ networks(first: 1) { nodes { ${deep} } } }`;
    expect(refusal(deep).limit).toBe('depth');
  });

  it('first given as a variable counts', () => {
    const query = 'query q($n: Int) { networks(first: $n) { nodes { endpoints(first: $n) { nodes { appWans { nodes { endpoints(first: $n) { nodes { appWans { nodes { id } } } } } } } } } } }';
    expect(refusal(query, { n: 1000 }).limit).toBe('nodes');
    expect(price(query, { n: 1 })).not.toBeNull();
  });
});

describe('admitted under the default maximums', () => {
  const uuid = '00000000-0000-4000-8000-000000000000';
  it.each(BENCH_QUERIES.map((q) => [q.name, q.document] as const))('bench query %s', (_name, document) => {
    const variables = { first: 1000, networkId: uuid, id: uuid, from: 'now-24h', to: 'now' };
    expect(priceOperation(schema, parse(document), null, variables, DEFAULT_LIMITS.price)).not.toBeNull();
  });

  // Every example of README.md and docs/*.md; one that says it is refused for its price is.
  it.each(docExamples().map((e) => [e.where, e] as const))('the docs example at %s', (_where, example) => {
    const doc = parse(example.source);
    // Examples with variables are priced with their defaults (first) or none.
    const price = () => priceOperation(schema, doc, null, example.variables ?? {}, DEFAULT_LIMITS.price);
    if (example.expected.includes('COST_ESTIMATED_TOO_EXPENSIVE')) expect(price).toThrow(CostTooExpensiveError);
    else expect(price).not.toThrow();
  });

  it("the IDE's introspection query", () => {
    expect(() => price(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }))).not.toThrow();
    expect(countTokens(getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true }), 1e9)).toBeLessThan(DEFAULT_LIMITS.price.maxDocumentTokens);
  });

  it('the network graph costs what its plans say, far below the maximums', () => {
    const doc = readFileSync(join(root, 'bench', 'queries', 'network-graph.graphql'), 'utf8');
    const estimate = estimateCost(schema, parse(doc), null, { first: 1000 });
    expect(estimate).toMatchObject({ depth: 11, aliases: 0 });
    expect(estimate?.nodes).toBeLessThan(DEFAULT_LIMITS.price.maxNodes / 2);
    expect(estimate?.upstreamCalls).toBeLessThan(DEFAULT_LIMITS.price.maxUpstreamCalls / 2);
  });
});

describe('global ids (node, nodes) are priced like their typed lookups', () => {
  const uuid = '00000000-0000-4000-8000-000000000000';
  const nested = '{ id endpoints(first: 1000) { nodes { appWans { nodes { id } } } } }';

  it('node(nodeId:) costs what network(id:) costs, for the same selection', () => {
    const typed = estimateCost(schema, parse(`{ network(id: "${uuid}") ${nested} }`), null, {});
    const byNode = estimateCost(schema, parse(`{ node(nodeId: "x") { nodeId ... on Network ${nested} } }`), null, {});
    expect(byNode?.upstreamCalls).toBe(typed?.upstreamCalls);
    expect(byNode?.nodes).toBe(typed?.nodes);
  });

  it('a grant by node(nodeId:) costs what its typed lookup, the filtered grant list, costs: one call', () => {
    const selection = '{ grantId privileges superUser { id } }';
    const typed = estimateCost(schema, parse(`{ grants(grantType: SuperUser, identityId: "${uuid}") { nodes { ... on SuperUserGrant ${selection} } } }`), null, {});
    const byNode = estimateCost(schema, parse(`{ node(nodeId: "x") { ... on SuperUserGrant ${selection} } }`), null, {});
    expect(typed?.upstreamCalls).toBe(1);
    expect(byNode?.upstreamCalls).toBe(typed?.upstreamCalls);
  });

  it('nodes(nodeIds:) costs one typed lookup per id, read from the list\'s length (literal or variable)', () => {
    const literal = (n: number) => estimateCost(schema, parse(`{ nodes(nodeIds: [${Array.from({ length: n }, () => '"x"').join(', ')}]) { nodeId } }`), null, {});
    expect(literal(1)).toMatchObject({ upstreamCalls: 1, nodes: 1 });
    expect(literal(7)).toMatchObject({ upstreamCalls: 7, nodes: 7 });
    const doc = parse('query q($ids: [ID!]!) { nodes(nodeIds: $ids) { nodeId } }');
    expect(priceOperation(schema, doc, 'q', { ids: ['a', 'b', 'c'] }, DEFAULT_LIMITS.price)).toMatchObject({ upstreamCalls: 3, nodes: 3 });
    // Remembered by the list's length: other ids of the same count, the same price; another count, its own.
    expect(priceOperation(schema, doc, 'q', { ids: ['d', 'e', 'f'] }, DEFAULT_LIMITS.price)).toMatchObject({ upstreamCalls: 3 });
    expect(priceOperation(schema, doc, 'q', { ids: ['a'] }, DEFAULT_LIMITS.price)).toMatchObject({ upstreamCalls: 1 });
  });
});

describe('remembered estimates and token counts', () => {
  it('one parsed document priced with other variables gets its own estimate', () => {
    const doc = parse('query q($n: Int) { networks(first: $n) { nodes { endpoints(first: $n) { nodes { appWans { nodes { endpoints(first: $n) { nodes { appWans { nodes { id } } } } } } } } } } }');
    const small = priceOperation(schema, doc, null, { n: 1 }, DEFAULT_LIMITS.price);
    expect(small).not.toBeNull();
    expect(() => priceOperation(schema, doc, null, { n: 1000 }, DEFAULT_LIMITS.price)).toThrow(CostTooExpensiveError);
    expect(priceOperation(schema, doc, null, { n: 1 }, DEFAULT_LIMITS.price)).toEqual(small);
  });

  it('a document counted under a high token maximum is still refused under a lower one', () => {
    const doc = `{ ${Array.from({ length: 40 }, (_, i) => `a${i}: gatewayInfo { version }`).join(' ')} }`;
    expect(() => checkDocument(doc, { maxBytes: 65_536, maxTokens: 5_000 })).not.toThrow();
    expect(() => checkDocument(doc, { maxBytes: 65_536, maxTokens: 100 })).toThrow(CostTooExpensiveError);
  });

  describe('keyed by the variables the price reads (cost inputs: those in `first` arguments)', () => {
    const ID = (i: number): string => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    let estimates: jest.SpyInstance;
    beforeEach(() => {
      estimates = jest.spyOn(cost, 'estimateCost');
    });
    afterEach(() => estimates.mockRestore());

    it('one document sent with 100 different ids is estimated once, and priced right each time', () => {
      const doc = parse('query q($id: UUID!) { network(id: $id) { id name endpoints { nodes { id } } } }');
      const expected = estimateCost(schema, doc, 'q', { id: ID(0) });
      estimates.mockClear();
      for (let i = 1; i <= 100; i += 1) expect(priceOperation(schema, doc, 'q', { id: ID(i) }, DEFAULT_LIMITS.price)).toEqual(expected);
      expect(estimates).toHaveBeenCalledTimes(1);
    });

    it('a `first` from a variable, also inside a fragment, gives each value its own estimate', () => {
      const doc = parse('query q($id: UUID!, $n: Int) { network(id: $id) { ...E } } fragment E on Network { endpoints(first: $n) { nodes { appWans { nodes { id } } } } }');
      const small = priceOperation(schema, doc, 'q', { id: ID(1), n: 2 }, DEFAULT_LIMITS.price);
      const large = priceOperation(schema, doc, 'q', { id: ID(2), n: 200 }, DEFAULT_LIMITS.price);
      expect(small).toEqual(estimateCost(schema, doc, 'q', { id: ID(1), n: 2 }));
      expect(large).toEqual(estimateCost(schema, doc, 'q', { id: ID(2), n: 200 }));
      expect(large?.nodes).toBeGreaterThan(small?.nodes ?? Infinity);
      expect(priceOperation(schema, doc, 'q', { id: ID(3), n: 2 }, DEFAULT_LIMITS.price)).toEqual(small);
    });

    it('an absent variable (its default applies) and an explicit null are different inputs', () => {
      const doc = parse('query q($n: Int = 500) { networks(first: $n) { nodes { endpoints(first: $n) { nodes { id } } } } }');
      const absent = priceOperation(schema, doc, 'q', {}, DEFAULT_LIMITS.price);
      const explicitNull = priceOperation(schema, doc, 'q', { n: null }, DEFAULT_LIMITS.price);
      expect(absent).toEqual(estimateCost(schema, doc, 'q', {}));
      expect(explicitNull).toEqual(estimateCost(schema, doc, 'q', { n: null }));
      expect(absent).not.toEqual(explicitNull);
    });

    it('variables that do not coerce are not priced, and that is not remembered: the next valid request with the same `first` is refused', () => {
      const doc = parse('query q($id: UUID!, $n: Int) { network(id: $id) { endpoints(first: $n) { nodes { appWans { nodes { endpoints(first: $n) { nodes { appWans { nodes { id } } } } } } } } } }');
      expect(priceOperation(schema, doc, 'q', { id: 'not-a-uuid', n: 1000 }, DEFAULT_LIMITS.price)).toBeNull();
      expect(() => priceOperation(schema, doc, 'q', { id: ID(1), n: 1000 }, DEFAULT_LIMITS.price)).toThrow(CostTooExpensiveError);
    });
  });

  it('reads the `first` argument alone: another argument that fails to coerce does not change the price', () => {
    const tiny = makeExecutableSchema({
      typeDefs: `type Query { things(first: Int = 100, mode: String! = "a"): ThingConnection }
        type ThingConnection { nodes: [Thing!]! pageInfo: PageInfo! } type PageInfo { hasNextPage: Boolean! } type Thing { id: ID! }`,
    });
    const doc = parse('query q($n: Int, $m: String) { things(first: $n, mode: $m) { nodes { id } } }');
    const withMode = estimateCost(tiny, doc, 'q', { n: 5, m: 'b' });
    expect(withMode?.nodes).toBe(5);
    expect(estimateCost(tiny, doc, 'q', { n: 5, m: null })).toEqual(withMode);
    expect(estimateCost(tiny, doc, 'q', { m: 'b' })?.nodes).toBe(100);
  });
});
