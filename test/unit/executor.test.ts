/**
 * The compiled executor's errors are graphql-js's, through the pipeline's error formatter:
 * resolver errors with and without codes, non-null violations, scalar serialize errors (coded and
 * not), a list that is not a list, abstract types; and a document graphql-jit will not compile.
 */
import { makeExecutableSchema } from '@graphql-tools/schema';
import { GraphQLError } from 'graphql';
import { DateTimeScalar, UuidScalar } from '../../src/resolvers/common/scalars';
import { buildSchema } from '../../src/server/schema';
import { createExecutor, expandedFieldCount, MAX_EXPANDED_FIELDS, recursiveInputTypes, type ExecutorKind } from '../../src/pipeline/execute';
import { createErrorFormatter } from '../../src/pipeline/format';
import { createPreparer } from '../../src/pipeline/prepare';
import { BENCH_QUERIES } from '../../bench/queries';
import { execute, getOperationAST, parse } from 'graphql';
import { OperationBudget } from '../../src/limits/budget';
import { instrumentSchema } from '../../src/limits/instrument';
import { DEFAULT_LIMITS } from '../../src/limits/limits';
import { Cancellation } from '../../src/core/cancellation';

const typeDefs = `
  scalar DateTime
  scalar UUID
  interface Thing { id: ID! }
  type Box implements Thing { id: ID! size: Int }
  type Bag implements Thing { id: ID! items: [String!] }
  type Item { name: String! when: DateTime uuid: UUID note: String }
  type Query {
    items: [Item!]!
    maybeItems: [Item]
    item: Item
    coded: String
    plain: String
    notAList: [String]
    things: [Thing!]!
    slow: String
  }
  input Tree { name: String! children: [Tree!] }
  input Pot { tree: Tree size: Int }
  type Mutation { bump(by: Int!): Int! plant(pot: Pot!): Int! }
`;

let counter = 0;
const resolvers = {
  DateTime: DateTimeScalar,
  UUID: UuidScalar,
  Thing: { __resolveType: (value: { kind: string }) => value.kind },
  // A promise from a field resolver (graphql-jit awaits resolvers' results, not promise-valued properties).
  Item: { note: () => Promise.resolve('n') },
  Query: {
    items: () => [{ name: 'a', when: '2024-05-01T12:00:00Z' }, { name: null }, { name: 'c', when: 'not a date' }],
    maybeItems: () => [{ name: 'a', uuid: 42 }, { name: null }, Promise.reject(new Error('boom'))],
    item: () => ({ name: 'x', when: 'garbage' }),
    coded: () => {
      throw new GraphQLError('nope', { extensions: { code: 'FORBIDDEN' } });
    },
    plain: () => Promise.reject(new Error('secret detail')),
    notAList: () => 'text',
    things: () => [{ kind: 'Box', id: '1', size: 3 }, { kind: 'Bag', id: '2', items: ['x', null] }, { kind: 'Nope', id: '3' }],
    slow: () => new Promise((resolve) => setTimeout(() => resolve('late'), 5)),
  },
  Mutation: {
    bump: (_: unknown, { by }: { by: number }) => (counter += by),
    plant: (_: unknown, { pot }: { pot: { tree?: { children?: unknown[] } } }) => pot.tree?.children?.length ?? 0,
  },
};

const schema = makeExecutableSchema({ typeDefs, resolvers });
const preparer = createPreparer({ schema, documentLimits: { maxBytes: 65_536, maxTokens: 5000 }, trusted: null });
const formatErrors = createErrorFormatter({ development: false });
const executors = { jit: createExecutor(schema, 'jit'), 'graphql-js': createExecutor(schema, 'graphql-js') };
const jit: ExecutorKind = 'jit';
const reference: ExecutorKind = 'graphql-js';

/** One operation as a client gets it: data and formatted errors. */
async function run(kind: ExecutorKind, query: string, variables: Record<string, unknown> | null): Promise<unknown> {
  const op = preparer.operation(preparer.document(query), null);
  if (op instanceof GraphQLError) throw op;
  const result = await executors[kind].execute(op, {}, variables ?? undefined);
  return { data: result.data, errors: result.errors ? formatErrors(result.errors).formatted : undefined };
}

// Three entries each: jest passes a `done` callback to a test function with more parameters than the row.
const cases: Array<[string, string, Record<string, unknown> | null]> = [
  ['a coded DateTime serialize error in a list', '{ items { when } }', null],
  ['a non-null violation that nulls the whole list', '{ items { name } }', null],
  ['nullable list items: UUID serialize error, rejected item', '{ maybeItems { uuid } }', null],
  ['serialize error beside a promised field', '{ item { name when note } }', null],
  ['coded and plain resolver errors, partial data', '{ coded plain slow }', null],
  ['a list that is not a list', '{ notAList }', null],
  ['abstract types, an unknown type name, a null in a non-null list', '{ things { __typename id ... on Box { size } ... on Bag { items } } }', null],
  ['a mutation with a variable', 'mutation M($by: Int!) { bump(by: $by) }', { by: 2 }],
  ['a variable that does not coerce', 'mutation M($by: Int!) { bump(by: $by) }', { by: 'two' }],
  ['a variable of a recursive input type (graphql-jit cannot compile it: graphql-js runs it)', 'mutation P($pot: Pot!) { plant(pot: $pot) }', { pot: { tree: { name: 'a', children: [{ name: 'b' }, { name: 'c' }] } } }],
  ['a recursive input type as a literal', 'mutation { plant(pot: { tree: { name: "a", children: [{ name: "b" }] } }) }', null],
  ['multi-line document locations', 'query Q {\n  slow\r\n  plain\r  coded\n}', null],
];

it.each(cases)('%s: identical to graphql-js', async (_name, query, variables) => {
  counter = 0;
  const expected = await run(reference, query, variables);
  counter = 0;
  expect(await run(jit, query, variables)).toEqual(expected);
});

/**
 * Where the two executors order their work differently: graphql-js stops completing a list at the
 * first item whose non-null violation nulls the list, graphql-jit completes every item (more
 * errors inside the nulled list, non-null violations last). A query with a non-null violation is
 * therefore answered by graphql-js (executor.ts), so the answer is identical.
 */
it.each(['{ items { name when } }', '{ maybeItems { name uuid } }'])('a query whose non-null violation nulls a list: identical to graphql-js (%s)', async (query) => {
  counter = 0;
  const expected = await run(reference, query, null);
  counter = 0;
  expect(await run(jit, query, null)).toEqual(expected);
});

it('finds the recursive input types of the gateway schema', () => {
  expect([...recursiveInputTypes(makeExecutableSchema({ typeDefs, resolvers }))].sort()).toEqual(['Pot', 'Tree']);
  expect(recursiveInputTypes(buildSchema()).size).toBeGreaterThan(0);
});

it('counts fields with fragments expanded, linear in the document: bench queries compile, fragment doubling does not', () => {
  const count = (text: string): number => {
    const document = parse(text);
    const operation = getOperationAST(document);
    if (!operation) throw new Error('no operation');
    return expandedFieldCount(document, operation);
  };
  expect(count('{ a b { c ... on B { d } ...F } } fragment F on B { e f { g } }')).toBe(7);
  for (const q of BENCH_QUERIES) expect({ name: q.name, fits: count(q.document) <= MAX_EXPANDED_FIELDS }).toEqual({ name: q.name, fits: true });
  let fragments = 'fragment F0 on Network { id name }';
  for (let i = 1; i <= 40; i += 1) fragments += ` fragment F${i} on Network { ...F${i - 1} ... on Network { ...F${i - 1} } }`;
  expect(count(`{ networks { nodes { ...F40 } } } ${fragments}`)).toBeGreaterThan(MAX_EXPANDED_FIELDS);
});

it('runs an operation that expands past the cap on graphql-js, with the same answer', async () => {
  let fragments = 'fragment F0 on Item { name }';
  for (let i = 1; i <= 14; i += 1) fragments += ` fragment F${i} on Item { ...F${i - 1} ... on Item { ...F${i - 1} } }`;
  const query = `{ item { ...F14 } } ${fragments}`;
  const before = executors.jit.stats();
  expect(await run(jit, query, null)).toEqual(await run(reference, query, null));
  // Not compiled: graphql-js ran it.
  expect(executors.jit.stats()).toEqual({ compiled: before.compiled, fallback: before.fallback + 1 });
});

it('counts the answer it keeps on the budget once, when a query runs again on graphql-js', async () => {
  const schema = instrumentSchema(
    makeExecutableSchema({
      typeDefs: 'type Item { name: String! } type Query { items: [Item!]! more: [Item!]! }',
      resolvers: { Query: { items: () => [{ name: 'a' }, { name: null }, { name: 'c' }], more: () => [{ name: 'x' }, { name: 'y' }] } },
    }),
  );
  const contextOf = (): { budget: OperationBudget } => ({ budget: new OperationBudget(DEFAULT_LIMITS.budget, new Cancellation()) });
  const document = parse('{ more { name } items { name } }');
  const operation = getOperationAST(document);
  if (!operation) throw new Error('no operation');
  const byGraphqlJs = contextOf();
  const expected = await execute({ schema, document, contextValue: byGraphqlJs });
  const byJit = contextOf();
  const executor = createExecutor(schema, 'jit');
  const answer = await executor.execute({ document, operation, name: null, type: 'query', hash: 'h', compiled: undefined, incremental: { kind: 'never' } }, byJit, undefined);
  expect(answer).toEqual(expected);
  // The compiled run's answer was discarded (a non-null violation): only graphql-js's is counted.
  expect(executor.stats()).toMatchObject({ compiled: 0, fallback: 1 });
  expect(byJit.budget.usage).toEqual(byGraphqlJs.budget.usage);
  expect(byJit.budget.usage.nodes).toBeGreaterThan(0);
});
