/**
 * The path-aware look-ahead (`selectionOf`, `along`, `nodesOf`): which fields sit under which,
 * with their arguments, through fragments, aliases, `edges { node }` and `@skip`/`@include`.
 */
import { graphql, type GraphQLResolveInfo } from 'graphql';
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
