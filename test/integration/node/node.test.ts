/**
 * `Query.node`/`Query.nodes` against the sandbox: every Node type read again by its global id,
 * bad ids refused with no upstream call, missing objects null with NOT_FOUND, ids batched as
 * their typed lookups batch them.
 */
import { randomUUID } from 'node:crypto';
import { expectErrorAt, expectNoErrors, startStack, type Stack } from '../../helpers/stack';
import { decodeNodeId, encodeNodeId, NODE_TYPES, type NodeTypeName } from '../../../src/resolvers/node/global-ids';
import { idField, nodeSamples, type NodeSample } from './node-sample';
import { callWaves, type Wave } from '../../helpers/round-trips';
import { WAVE_LATENCY_MS } from '../../../bench/call-waves';

let stack: Stack;
let samples: NodeSample[];

beforeAll(async () => {
  stack = await startStack({ seed: 'tiny' });
  samples = await nodeSamples(stack);
});
afterAll(() => stack.close());

const NODE = 'query ($nodeId: ID!) { node(nodeId: $nodeId) { __typename nodeId ... on Endpoint { id name } ... on AppWan { id } ... on Network { id } } }';

function sample(typename: NodeTypeName): NodeSample {
  const found = samples.find((s) => s.typename === typename);
  if (found === undefined) throw new Error(`the seed has no ${typename}`);
  return found;
}

test('the seed holds every Node type (so the tests below cover them all)', () => {
  expect(samples.map((s) => s.typename).sort()).toEqual(Object.keys(NODE_TYPES).sort());
});

test('every object is read again by its global id, as the same type with the same REST id', async () => {
  const query = `query ($nodeId: ID!) { node(nodeId: $nodeId) { __typename nodeId ${samples.map((s) => `... on ${s.typename} { ${idField(s.typename)} }`).join(' ')} } }`;
  for (const { typename, nodeId, id } of samples) {
    const data = expectNoErrors(await stack.gql(query, { nodeId }));
    expect({ typename, node: data['node'] }).toEqual({ typename, node: { __typename: typename, nodeId, [idField(typename)]: id } });
  }
});

test('a global id is stable: the same object gives the same nodeId in another request', async () => {
  const again = await nodeSamples(stack);
  expect(again).toEqual(samples);
});

test('an endpoint by global id costs one upstream call, the one its typed lookup makes', async () => {
  const endpoint = sample('Endpoint');
  stack.sandbox.control.resetCalls();
  const data = expectNoErrors(await stack.gql(NODE, { nodeId: endpoint.nodeId }));
  expect(data['node']).toEqual(expect.objectContaining({ __typename: 'Endpoint', id: endpoint.id }));
  const calls = stack.sandbox.control.calls();
  expect(calls.total).toBe(1);
  expect(Object.keys(calls.byRoute)).toEqual([expect.stringMatching(/^GET \/rest\/v1\/networks\/[^/]+\/endpoints\/[^/]+$/)]);
});

test('a network by global id starts its selected lists alongside, as network(id:) does: the same calls in the same round trips', async () => {
  const network = sample('Network');
  const below = '{ name endpoints(first: 5) { nodes { name } } appWans(first: 5) { nodes { name } } }';
  const { control } = stack.sandbox;
  const waves = async (query: string, variables: Record<string, unknown>): Promise<Wave[]> => {
    control.setLatency(WAVE_LATENCY_MS);
    control.resetCalls();
    try {
      expectNoErrors(await stack.gql(query, variables));
      return callWaves(control.timings());
    } finally {
      control.setLatency(0);
    }
  };
  const typed = await waves(`query ($id: UUID!) { network(id: $id) ${below} }`, { id: network.id });
  // A fragment on another type selects nothing here: it must not start an endpoint's lists.
  const byNode = await waves(`query ($nodeId: ID!) { node(nodeId: $nodeId) { ... on Network ${below} ... on Endpoint { appWans { nodes { name } } } } }`, { nodeId: network.nodeId });
  expect(byNode).toEqual(typed);
  expect(typed).toHaveLength(1);
});

test('nodes(nodeIds:) answers in order, one entry per id, all types at once', async () => {
  const ids = samples.map((s) => s.nodeId);
  const data = expectNoErrors(await stack.gql('query ($ids: [ID!]!) { nodes(nodeIds: $ids) { __typename nodeId } }', { ids }));
  expect(data['nodes']).toEqual(samples.map((s) => ({ __typename: s.typename, nodeId: s.nodeId })));
});

test('ids of one catalog are batched into its one list call, as typed lookups are', async () => {
  const listed = expectNoErrors(await stack.gql('{ dataCenters(first: 3) { nodes { nodeId } } }'));
  const ids = (listed['dataCenters'] as { nodes: { nodeId: string }[] }).nodes.map((n) => n.nodeId);
  expect(ids.length).toBeGreaterThanOrEqual(2);
  stack.sandbox.control.resetCalls();
  expectNoErrors(await stack.gql('query ($ids: [ID!]!) { nodes(nodeIds: $ids) { nodeId } }', { ids }));
  expect(stack.sandbox.control.calls().byRoute).toEqual({ 'GET /rest/v1/dataCenters': 1 });
});

test('ids of one authorization-API kind are answered from its one list, as its typed lookups are', async () => {
  const listed = expectNoErrors(await stack.gql('{ resourceTypes(first: 3) { nodes { nodeId } } }'));
  const ids = (listed['resourceTypes'] as { nodes: { nodeId: string }[] }).nodes.map((n) => n.nodeId);
  expect(ids.length).toBeGreaterThanOrEqual(2);
  stack.sandbox.control.resetCalls();
  expectNoErrors(await stack.gql('query ($ids: [ID!]!) { nodes(nodeIds: $ids) { nodeId } }', { ids }));
  expect(stack.sandbox.control.calls().total).toBe(1);
});

describe('grants by global id: read from the grant list of their kind and identity', () => {
  const NODES = 'query ($ids: [ID!]!) { nodes(nodeIds: $ids) { __typename nodeId ... on Grant { grantId identityId } } }';
  const grantCalls = (): Array<Record<string, string | string[]>> =>
    stack.sandbox.control.requests().filter((r) => r.route === '/auth/v1/grants').map(({ query: { page: _page, size: _size, ...filter } }) => filter);

  async function grantIds(kind: string): Promise<Array<{ nodeId: string; grantId: string; identityId: string | null }>> {
    const data = expectNoErrors(await stack.gql(`{ grants(grantType: ${kind}) { nodes { grantId identityId ... on Node { nodeId } } } }`));
    return (data['grants'] as { nodes: Array<{ nodeId: string; grantId: string; identityId: string | null }> }).nodes;
  }

  test('grants of one kind and identity share one list call, filtered by both; another kind is its own call', async () => {
    const identityGrants = await grantIds('IdentityResourceAction');
    const identity = identityGrants[0]?.identityId ?? null;
    const same = identityGrants.filter((g) => g.identityId === identity);
    expect(identity).not.toBeNull();
    expect(same.length).toBeGreaterThanOrEqual(2);
    const superUser = (await grantIds('SuperUser'))[0];
    if (superUser === undefined) throw new Error('the seed has no super user grant');

    stack.sandbox.control.resetCalls();
    const data = expectNoErrors(await stack.gql(NODES, { ids: [...same.map((g) => g.nodeId), superUser.nodeId] }));
    expect(data['nodes']).toEqual([
      ...same.map((g) => ({ __typename: 'IdentityResourceActionGrant', nodeId: g.nodeId, grantId: g.grantId, identityId: identity })),
      { __typename: 'SuperUserGrant', nodeId: superUser.nodeId, grantId: superUser.grantId, identityId: superUser.identityId },
    ]);
    expect(stack.sandbox.control.calls().total).toBe(2);
    expect(grantCalls()).toEqual(expect.arrayContaining([
      { grantType: 'IdentityResourceAction', identityId: identity },
      { grantType: 'SuperUser', identityId: superUser.identityId },
    ]));
  });

  test('a public grant (no identity) is found in the unfiltered list of its kind; its id carries no identity', async () => {
    const [publicGrant] = await grantIds('PublicGrant');
    if (publicGrant === undefined) throw new Error('the seed has no public grant');
    expect(publicGrant.identityId).toBeNull();
    expect(decodeNodeId(publicGrant.nodeId)).toEqual({ type: 'PublicGrantGrant', keys: [publicGrant.grantId] });
    stack.sandbox.control.resetCalls();
    const data = expectNoErrors(await stack.gql(NODES, { ids: [publicGrant.nodeId] }));
    expect(data['nodes']).toEqual([{ __typename: 'PublicGrantGrant', nodeId: publicGrant.nodeId, grantId: publicGrant.grantId, identityId: null }]);
    expect(grantCalls()).toEqual([{ grantType: 'PublicGrant' }]);
  });

  test('the same grant list asked for by another field of the request serves the read: one call for both', async () => {
    const [customRole] = await grantIds('CustomRole');
    if (customRole === undefined) throw new Error('the seed has no custom role grant');
    stack.sandbox.control.resetCalls();
    const query = 'query ($nodeId: ID!, $identityId: UUID) { grants(grantType: CustomRole, identityId: $identityId) { totalCount } node(nodeId: $nodeId) { nodeId } }';
    const data = expectNoErrors(await stack.gql(query, { nodeId: customRole.nodeId, identityId: customRole.identityId }));
    expect(data['node']).toEqual({ nodeId: customRole.nodeId });
    expect(stack.sandbox.control.calls().total).toBe(1);
  });

  test('a grant the list lacks (another id, or another identity) is null with NOT_FOUND', async () => {
    const [customRole] = await grantIds('CustomRole');
    if (customRole === undefined || customRole.identityId === null) throw new Error('the seed has no custom role grant of an identity');
    const ids = [encodeNodeId('CustomRoleGrant', [randomUUID(), customRole.identityId]), encodeNodeId('CustomRoleGrant', [customRole.grantId, randomUUID()])];
    for (const nodeId of ids) {
      const result = await stack.gql(NODE, { nodeId });
      expectErrorAt(result, ['node'], 'NOT_FOUND');
      expect(result.body.data).toEqual({ node: null });
    }
  });
});

describe('ids that do not decode: BAD_USER_INPUT, no upstream call', () => {
  const endpointNetwork = (): string => sample('Network').id;
  const cases: Array<[string, () => string]> = [
    ['not base64url', () => 'not a global id!'],
    ['a REST id', () => sample('Endpoint').id],
    ['an unknown type', () => Buffer.from('1:zz:abc').toString('base64url')],
    ['an unknown version', () => Buffer.from(`9:ep:${endpointNetwork()}:abc`).toString('base64url')],
    ['too few keys', () => Buffer.from('1:ep:abc').toString('base64url')],
    ['an empty key', () => Buffer.from('1:nw:').toString('base64url')],
    ['padding (not canonical)', () => `${Buffer.from('1:nw:a').toString('base64url')}=`],
  ];
  test.each(cases)('%s', async (_what, make) => {
    stack.sandbox.control.resetCalls();
    const result = await stack.gql(NODE, { nodeId: make() });
    expectErrorAt(result, ['node'], 'BAD_USER_INPUT');
    expect(result.body.data?.['node']).toBeNull();
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  test('one bad id among good ones fails nodes whole, before any call', async () => {
    stack.sandbox.control.resetCalls();
    const result = await stack.gql('query ($ids: [ID!]!) { nodes(nodeIds: $ids) { nodeId } }', { ids: [sample('Network').nodeId, 'nope'] });
    expect(expectErrorAt(result, ['nodes'], 'BAD_USER_INPUT').message).toMatch(/nodeIds\[1\]/);
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  test('more than 100 ids', async () => {
    stack.sandbox.control.resetCalls();
    const ids = Array.from({ length: 101 }, () => sample('Network').nodeId);
    expectErrorAt(await stack.gql('query ($ids: [ID!]!) { nodes(nodeIds: $ids) { nodeId } }', { ids }), ['nodes'], 'BAD_USER_INPUT');
    expect(stack.sandbox.control.calls().total).toBe(0);
  });
});

test('a well-formed id of a missing object is null with NOT_FOUND (alone, and at its place in nodes)', async () => {
  const missing = encodeNodeId('AppWan', [sample('Network').id, randomUUID()]);
  const one = await stack.gql(NODE, { nodeId: missing });
  expectErrorAt(one, ['node'], 'NOT_FOUND');
  expect(one.body.data).toEqual({ node: null });

  const many = await stack.gql('query ($ids: [ID!]!) { nodes(nodeIds: $ids) { nodeId } }', { ids: [sample('Network').nodeId, missing] });
  expectErrorAt(many, ['nodes', 1], 'NOT_FOUND');
  expect(many.body.data).toEqual({ nodes: [{ nodeId: sample('Network').nodeId }, null] });
});
