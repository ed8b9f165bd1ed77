/**
 * Global ids (src/resolvers/node/global-ids.ts): the table covers exactly the schema's Node types,
 * every id decodes back to what was encoded, the wire form is fixed (ids stay valid across
 * releases: the golden values below must never change), and what is not an id is refused.
 */
import { isInterfaceType } from 'graphql';
import { BadInputError } from '../../../src/errors/codes';
import { decodeNodeId, encodeNodeId, NODE_TYPES, nodeIdOf, type NodeTypeName } from '../../../src/resolvers/node/global-ids';
import { buildSchema } from '../../../src/server/schema';
import { MAX_NODE_IDS } from '../../../src/resolvers/node';
import { FIELD_COSTS } from '../../../src/limits/expected-sizes';

const NETWORK = '5c186625-714e-48fe-9c9a-064ee893467d';
const ID = '0b9d4f38-2b6a-4a43-9d0e-7e4c1f2a3b4c';
const types = Object.keys(NODE_TYPES) as NodeTypeName[];

test('the table holds exactly the types that implement Node, each with its own code', () => {
  const schema = buildSchema();
  const node = schema.getType('Node');
  if (!isInterfaceType(node)) throw new Error('no Node interface');
  expect([...types].sort()).toEqual(schema.getPossibleTypes(node).map((t) => t.name).sort());
  const codes = types.map((t) => NODE_TYPES[t].code);
  expect(new Set(codes).size).toBe(codes.length);
});

test('the cost model prices nodes(nodeIds:) up to the ids it takes', () => {
  expect(FIELD_COSTS['Query.nodes']?.size).toBe(MAX_NODE_IDS);
});

test.each(types)('%s: decodes back to its type and keys', (type) => {
  const keys = NODE_TYPES[type].keys.map((name) => (name === 'networkId' ? NETWORK : ID));
  const nodeId = encodeNodeId(type, keys);
  expect(nodeId).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(decodeNodeId(nodeId)).toEqual({ type, keys });
});

test('the wire form is fixed: ids issued by an earlier release still decode', () => {
  // base64url of `1:aw:<network>:<id>` and `1:nw:<id>`.
  expect(encodeNodeId('AppWan', [NETWORK, ID])).toBe('MTphdzo1YzE4NjYyNS03MTRlLTQ4ZmUtOWM5YS0wNjRlZTg5MzQ2N2Q6MGI5ZDRmMzgtMmI2YS00YTQzLTlkMGUtN2U0YzFmMmEzYjRj');
  expect(encodeNodeId('Network', [NETWORK])).toBe('MTpudzo1YzE4NjYyNS03MTRlLTQ4ZmUtOWM5YS0wNjRlZTg5MzQ2N2Q');
  expect(decodeNodeId('MTpudzo1YzE4NjYyNS03MTRlLTQ4ZmUtOWM5YS0wNjRlZTg5MzQ2N2Q')).toEqual({ type: 'Network', keys: [NETWORK] });
});

test('a grant id: its kind, grantId and identity; the identity left out when null (public grants), never empty', () => {
  const grant = { grantType: 'CustomRole', grantId: ID, identityId: NETWORK } as Parameters<typeof nodeIdOf<'CustomRoleGrant'>>[1];
  expect(decodeNodeId(nodeIdOf('CustomRoleGrant', grant))).toEqual({ type: 'CustomRoleGrant', keys: [ID, NETWORK] });
  const publicGrant = { grantType: 'PublicGrant', grantId: ID, identityId: null } as Parameters<typeof nodeIdOf<'PublicGrantGrant'>>[1];
  expect(decodeNodeId(nodeIdOf('PublicGrantGrant', publicGrant))).toEqual({ type: 'PublicGrantGrant', keys: [ID] });
  // The kind is in the code: the same keys under another kind are another id.
  expect(encodeNodeId('SuperUserGrant', [ID, NETWORK])).not.toBe(encodeNodeId('CustomRoleGrant', [ID, NETWORK]));
  // Fixed wire form: base64url of `1:gcr:<grantId>:<identity>`.
  expect(encodeNodeId('CustomRoleGrant', [ID, NETWORK])).toBe('MTpnY3I6MGI5ZDRmMzgtMmI2YS00YTQzLTlkMGUtN2U0YzFmMmEzYjRjOjVjMTg2NjI1LTcxNGUtNDhmZS05YzlhLTA2NGVlODkzNDY3ZA');
  expect(() => nodeIdOf('SuperUserGrant', { ...grant, grantType: 'SuperUser', grantId: null })).toThrow(/grantId missing/);
  expect(() => decodeNodeId(Buffer.from(`1:gcr:${ID}:`).toString('base64url'))).toThrow(BadInputError);
  expect(() => decodeNodeId(Buffer.from(`1:gcr:${ID}:${NETWORK}:x`).toString('base64url'))).toThrow(BadInputError);
  expect(() => decodeNodeId(Buffer.from('1:gcr').toString('base64url'))).toThrow(BadInputError);
});

test('keys of any text survive (percent-encoded inside the id)', () => {
  const keys = ['a:b/c%d', 'é ü'];
  expect(decodeNodeId(encodeNodeId('Endpoint', keys))).toEqual({ type: 'Endpoint', keys });
});

test("a record's nodeId carries its network for network-scoped types, and not for the others", () => {
  expect(decodeNodeId(nodeIdOf('Service', { id: ID, networkId: NETWORK } as Parameters<typeof nodeIdOf<'Service'>>[1]))).toEqual({ type: 'Service', keys: [NETWORK, ID] });
  expect(decodeNodeId(nodeIdOf('V2Service', { id: ID } as Parameters<typeof nodeIdOf<'V2Service'>>[1]))).toEqual({ type: 'V2Service', keys: [ID] });
  expect(() => nodeIdOf('Endpoint', { id: ID, networkId: null } as Parameters<typeof nodeIdOf<'Endpoint'>>[1])).toThrow(/networkId missing/);
});

test.each([
  ['empty', ''],
  ['a REST id', ID],
  ['not base64url', 'abc+/='],
  ['padded', `${encodeNodeId('Network', [NETWORK])}=`],
  ['unknown version', Buffer.from(`2:nw:${NETWORK}`).toString('base64url')],
  ['unknown type', Buffer.from(`1:xx:${NETWORK}`).toString('base64url')],
  ['too many keys', Buffer.from(`1:nw:${NETWORK}:${ID}`).toString('base64url')],
  ['too few keys', Buffer.from(`1:ep:${ID}`).toString('base64url')],
  ['an empty key', Buffer.from(`1:ep::${ID}`).toString('base64url')],
  ['a broken escape', Buffer.from('1:nw:%E0%A4%A').toString('base64url')],
  ['too long', 'A'.repeat(600)],
])('refused with BAD_USER_INPUT: %s', (_what, nodeId) => {
  expect(() => decodeNodeId(nodeId)).toThrow(BadInputError);
});
