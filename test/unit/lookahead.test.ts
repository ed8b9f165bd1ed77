/**
 * The path-aware look-ahead (`selectionOf`, `along`, `nodesOf`): which fields sit under which,
 * with their arguments, through fragments, aliases, `edges { node }` and `@skip`/`@include`.
 */
import { execute, graphql, parse, type GraphQLResolveInfo } from 'graphql';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { along, selectionOf, type Selection } from '../../src/resolvers/lookahead';

const typeDefs = `
  type Query { groups(first: Int = 100): GroupConnection }
  type GroupConnection { nodes: [Group!]! edges: [GroupEdge!]! totalCount: Int! }
  type GroupEdge { node: Group! cursor: String! }
  type Group { id: ID! networks(first: Int = 100, sort: String): NetworkConnection }
  type NetworkConnection { nodes: [Network!]! edges: [NetworkEdge!]! }
  type NetworkEdge { node: Network! }
  type Network { id: ID! endpoints(first: Int = 100): EndpointConnection }
  type EndpointConnection { nodes: [Endpoint!]! }
  type Endpoint { id: ID! }
`;

/** The selection below `groups`, as its resolver sees it. */
async function selectionFor(source: string, variableValues: Record<string, unknown> = {}): Promise<Selection> {
  let seen: Selection = new Map();
  const schema = makeExecutableSchema({
    typeDefs,
    resolvers: {
      Query: {
        groups: (_root: unknown, _args: unknown, _ctx: unknown, info: GraphQLResolveInfo) => {
          seen = selectionOf(info);
          return null;
        },
      },
    },
  });
  const result = await graphql({ schema, source, variableValues });
  expect(result.errors).toBeUndefined();
  return seen;
}

const argsAlong = (selection: Selection, ...path: string[]) => along(selection, ...path).map((f) => f.args);

/** The resolving field as one occurrence, so `along` can start with it. */
const asField = (name: string, selection: Selection): Selection => new Map([[name, [{ args: {}, below: selection }]]]);

it('follows nodes and edges { node } of each connection, with each field’s arguments (defaults and variables applied)', async () => {
  const selection = await selectionFor(
    `query ($n: Int) { groups { totalCount nodes { networks(first: $n, sort: "name") { nodes { endpoints { nodes { id } } } } }
       edges { cursor node { networks { edges { node { id } } } } } } }`,
    { n: 7 },
  );
  expect([...selection.keys()]).toEqual(['totalCount', 'nodes', 'edges']);
  const groups = asField('groups', selection);
  expect(argsAlong(groups, 'groups', 'networks')).toEqual([{ first: 7, sort: 'name' }, { first: 100 }]);
  expect(argsAlong(groups, 'groups', 'networks', 'endpoints')).toEqual([{ first: 100 }]);
  expect(argsAlong(groups, 'groups', 'networks', 'id')).toEqual([{}]);
  expect(argsAlong(groups, 'groups', 'endpoints')).toEqual([]);
});

it('merges the two ways to a connection’s nodes and keeps aliases as separate occurrences', async () => {
  const selection = await selectionFor(`{ groups { nodes { a: networks(first: 1) { nodes { id } } } edges { node { b: networks(first: 2) { nodes { id } } } } } }`);
  expect(argsAlong(asField('groups', selection), 'groups', 'networks')).toEqual([{ first: 1 }, { first: 2 }]);
});

it('follows named and inline fragments', async () => {
  const selection = await selectionFor(`
    { groups { nodes { ...G ... on Group { sorted: networks(sort: "id") { nodes { id } } } } } }
    fragment G on Group { networks(first: 3) { nodes { ...N } } }
    fragment N on Network { endpoints(first: 4) { nodes { id } } }`);
  const groups = asField('groups', selection);
  expect(argsAlong(groups, 'groups', 'networks')).toEqual([{ first: 3 }, { first: 100, sort: 'id' }]);
  expect(argsAlong(groups, 'groups', 'networks', 'endpoints')).toEqual([{ first: 4 }]);
});

it('leaves out what @skip or @include leaves out', async () => {
  const source = `query ($skip: Boolean!, $include: Boolean!) { groups { nodes {
    networks @skip(if: $skip) { nodes { id } }
    other: networks(first: 5) @include(if: $include) { nodes { id } }
  } } }`;
  const groupsBelow = async (skip: boolean, include: boolean) => asField('groups', await selectionFor(source, { skip, include }));
  expect(argsAlong(await groupsBelow(true, false), 'groups', 'networks')).toEqual([]);
  expect(argsAlong(await groupsBelow(false, false), 'groups', 'networks')).toEqual([{ first: 100 }]);
  expect(argsAlong(await groupsBelow(true, true), 'groups', 'networks')).toEqual([{ first: 5 }]);
});

describe('remembered per document when nothing below reads a variable', () => {
  /** The selections below `groups` of one parsed document executed once per variables object (as repeated requests share Apollo's parsed document). */
  async function selectionsOf(source: string, runs: ReadonlyArray<Record<string, unknown>>): Promise<Selection[]> {
    const seen: Selection[] = [];
    const schema = makeExecutableSchema({
      typeDefs,
      resolvers: { Query: { groups: (_root: unknown, _args: unknown, _ctx: unknown, info: GraphQLResolveInfo) => void seen.push(selectionOf(info)) } },
    });
    const document = parse(source);
    for (const variableValues of runs) expect((await execute({ schema, document, variableValues })).errors).toBeUndefined();
    return seen;
  }

  it('a document without variables below the field: the second request gets the first one’s selection, equal to a fresh walk', async () => {
    const source = `{ groups { nodes { networks(first: 3) { nodes { ...E } } } } } fragment E on Network { endpoints { nodes { id } } }`;
    const [first, second] = await selectionsOf(source, [{}, {}]);
    expect(second).toBe(first);
    expect(first).toEqual(await selectionFor(source));
  });

  it('a variable in an argument below, or in a directive inside a fragment below, is read on every request', async () => {
    const [small, large] = await selectionsOf(`query ($n: Int) { groups { nodes { networks(first: $n) { nodes { id } } } } }`, [{ n: 1 }, { n: 50 }]);
    expect(argsAlong(asField('groups', small ?? new Map()), 'groups', 'networks')).toEqual([{ first: 1 }]);
    expect(argsAlong(asField('groups', large ?? new Map()), 'groups', 'networks')).toEqual([{ first: 50 }]);
    const [shown, hidden] = await selectionsOf(
      `query ($on: Boolean!) { groups { nodes { ...G } } } fragment G on Group { networks @include(if: $on) { nodes { id } } }`,
      [{ on: true }, { on: false }],
    );
    expect(along(asField('groups', shown ?? new Map()), 'groups', 'networks')).toHaveLength(1);
    expect(along(asField('groups', hidden ?? new Map()), 'groups', 'networks')).toHaveLength(0);
  });

  it('the same field selected twice (merged nodes) still gets both selections', async () => {
    const [merged] = await selectionsOf(`{ groups { nodes { id } } groups { nodes { networks { nodes { id } } } } }`, [{}]);
    const groups = asField('groups', merged ?? new Map());
    expect(along(groups, 'groups', 'id')).toHaveLength(1);
    expect(along(groups, 'groups', 'networks')).toHaveLength(1);
  });
});
