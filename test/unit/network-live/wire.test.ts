/**
 * A `networkChanges` state as it travels between the replicas of a fleet: built from a sandbox
 * network's own bodies (parsed by the records' parsers, as a poll does), encoded, sent through
 * JSON and decoded, it is the same state (fingerprint, resources in order, memberships, the
 * union's typenames); a value of another shape throws.
 */
import { networkChangesPoll } from '../../../src/resolvers/network-live/poll';
import {
  appWanState,
  deletedState,
  endpointGroupState,
  endpointState,
  membershipKey,
  networkResourceTypename,
  networkState,
  serviceState,
  type MembershipRecord,
  type NetworkState,
  type ResourceStateRecord,
} from '../../../src/resolvers/network-live/state';
import { resources } from '../../../src/upstream/network/resources';
import { asArray, Fields } from '../../../src/core/parse';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';

let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'tiny' });
});
afterAll(async () => {
  await sandbox?.close();
});

async function get(path: string): Promise<unknown> {
  const res = await fetch(`${sandbox.baseUrl}/rest/v1${path}`, { headers: { authorization: `Bearer ${sandbox.tokens.admin}` } });
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
  return res.json();
}

/** A HAL list's items (the sandbox's first page, 200 items at most). */
async function list(path: string, key: string): Promise<unknown[]> {
  const embedded = Fields.of(await get(`${path}?size=200`), path).object('_embedded');
  return embedded === null ? [] : asArray(embedded[key] ?? [], key);
}

const wire = networkChangesPoll.wire;
if (wire === undefined) throw new Error('networkChanges has no wire');
const travel = (s: NetworkState): NetworkState => wire.decode(JSON.parse(JSON.stringify(wire.encode(s))));

/** What a subscriber can see of a resource state (the record's fields through its getters). */
const view = (r: ResourceStateRecord): unknown => ({ ...r, resource: JSON.parse(JSON.stringify(r.resource)), typename: networkResourceTypename(r.resource) });

async function sandboxState(networkId: string): Promise<NetworkState> {
  const base = `/networks/${networkId}`;
  const network = resources.network.parse(await get(base));
  const states = new Map<string, ResourceStateRecord>();
  for (const e of await list(`${base}/endpoints`, 'endpoints')) states.set(resources.endpoint.parse(e).id, endpointState(resources.endpoint.parse(e)));
  for (const s of await list(`${base}/services`, 'services')) states.set(resources.service.parse(s).id, serviceState(resources.service.parse(s)));
  const appWans = (await list(`${base}/appWans`, 'appWans')).map((a) => resources.appWan.parse(a));
  for (const a of appWans) states.set(a.id, appWanState(a));
  for (const g of await list(`${base}/endpointGroups`, 'endpointGroups')) states.set(resources.endpointGroup.parse(g).id, endpointGroupState(resources.endpointGroup.parse(g)));
  const memberships = new Map<string, MembershipRecord>();
  for (const a of appWans) {
    for (const [memberKind, key] of [['ENDPOINT', 'endpoints'], ['SERVICE', 'services'], ['ENDPOINT_GROUP', 'endpointGroups']] as const) {
      for (const item of await list(`${base}/appWans/${a.id}/${key}`, key)) {
        const m: MembershipRecord = { appWanId: a.id, memberKind, memberId: Fields.of(item, key).id('id') };
        memberships.set(membershipKey(m), m);
      }
    }
  }
  return networkState({ networkId, network, resources: states, memberships, upstreamCalls: 7 });
}

it('decodes what it encoded, through JSON, into the same state', async () => {
  const networkId = sandbox.restFacts().networkIds[0] ?? '';
  const state = await sandboxState(networkId);
  // A network with something in it, so the test says something.
  expect(new Set([...state.resources.values()].map((r) => r.kind))).toEqual(new Set(['ENDPOINT', 'SERVICE', 'APP_WAN', 'ENDPOINT_GROUP']));
  expect(state.memberships.size).toBeGreaterThan(0);

  const decoded = travel(state);
  expect(decoded.fingerprint).toBe(state.fingerprint);
  expect(decoded).toMatchObject({ networkId, deleted: false, inProgress: state.inProgress, observedAt: state.observedAt, upstreamCalls: 7 });
  expect(decoded.network).toMatchObject(JSON.parse(JSON.stringify(state.network)));
  expect([...decoded.resources.keys()]).toEqual([...state.resources.keys()]);
  expect([...decoded.resources.values()].map(view)).toEqual([...state.resources.values()].map(view));
  expect([...decoded.memberships.entries()]).toEqual([...state.memberships.entries()]);
  // The fingerprint computed again from the decoded parts is the holder's.
  expect(networkState({ ...decoded }).fingerprint).toBe(state.fingerprint);
});

it('carries the last state of a deleted network', () => {
  expect(travel(deletedState('n', 3))).toMatchObject({ networkId: 'n', network: null, deleted: true, fingerprint: 'deleted', upstreamCalls: 3, resources: new Map(), memberships: new Map() });
});

describe('a value of another shape throws', () => {
  const good = (): Record<string, unknown> => {
    const s = networkState({ networkId: 'n', network: resources.network.parse({ id: 'n', name: 'net', status: 300 }), resources: new Map([['e1', endpointState(resources.endpoint.parse({ id: 'e1', name: 'e', status: 300 }))]]), memberships: new Map([['a|ENDPOINT|e1', { appWanId: 'a', memberKind: 'ENDPOINT', memberId: 'e1' } as const]]), upstreamCalls: 1 });
    return JSON.parse(JSON.stringify(wire.encode(s))) as Record<string, unknown>;
  };
  it('decodes the well-formed value', () => {
    expect(wire.decode(good()).resources.size).toBe(1);
  });
  it.each<[string, (v: Record<string, unknown>) => unknown]>([
    ['not an object', () => 'state'],
    ['resources not a list', (v) => ({ ...v, resources: {} })],
    ['a resource of an unknown kind', (v) => ({ ...v, resources: [{ kind: 'ROUTER', id: 'e1', resource: { id: 'e1' } }] })],
    ['a resource without its record', (v) => ({ ...v, resources: [{ kind: 'ENDPOINT', id: 'e1', resource: null }] })],
    ['a record without an id', (v) => ({ ...v, resources: [{ kind: 'ENDPOINT', id: 'e1', resource: { name: 'e' } }] })],
    ['a record of another id', (v) => ({ ...v, resources: [{ kind: 'ENDPOINT', id: 'e2', resource: { id: 'e1' } }] })],
    ['a membership of an unknown kind', (v) => ({ ...v, memberships: [{ appWanId: 'a', memberKind: 'ROUTER', memberId: 'e1' }] })],
    ['a live network without its record', (v) => ({ ...v, network: null })],
    ['no fingerprint', (v) => ({ ...v, fingerprint: undefined })],
    ['upstreamCalls not a number', (v) => ({ ...v, upstreamCalls: 'many' })],
    ['deleted missing', (v) => ({ ...v, deleted: undefined })],
  ])('%s', (_what, spoil) => {
    expect(() => wire.decode(spoil(good()))).toThrow();
  });
});
