/**
 * `networkChanges` over WebSocket and over SSE, against the sandbox on its manual clock: the
 * first event is the network as the sandbox's REST interface has it; then an endpoint added, its
 * status moving, an endpoint removed, a membership added, a status set from outside, each as a
 * delta; three subscribers share one poll per interval (the sandbox's call log), and a poll costs
 * what the README says (`1 + list pages + 3 × AppWANs`). Changes are made over rest/v1 directly,
 * as another client of the platform would.
 */
import { ManualClock } from '../../../src/sandbox';
import { startStack, type Stack } from '../../helpers/stack';
import { Clients, routeCalls, sandboxRest, type EventLog } from '../../helpers/subscriptions';
import { waitUntil } from '../../helpers/wait';

const INTERVAL_MS = 20;
const clock = new ManualClock(1000);
let stack: Stack;
const clients = new Clients(() => stack);

beforeAll(async () => {
  stack = await startStack({
    clock,
    config: { subscriptions: { networkPollIntervalMs: INTERVAL_MS, networkPollMaxIntervalMs: INTERVAL_MS }, upstream: { retryAttempts: 1 } },
  });
});
afterEach(async () => {
  await clients.disposeAll();
  await waitUntil(() => stack.pollerStats().pollers === 0, () => `no pollers (have ${JSON.stringify(stack.pollerStats())})`);
});
afterAll(() => stack.close());

const CHANGES = `subscription Live($networkId: UUID!) {
  networkChanges(networkId: $networkId) {
    networkId snapshot networkDeleted inProgress resourceCount membershipCount observedAt pollUpstreamCalls
    network { id name statusName }
    added { kind id name status statusName inProgress endpointType resource { __typename ... on Endpoint { id } ... on Service { id } ... on AppWan { id } ... on EndpointGroup { id } } }
    removed { kind id name statusName }
    changed { kind id before { statusName name } after { statusName name } }
    membershipsAdded { appWanId memberKind memberId }
    membershipsRemoved { appWanId memberKind memberId }
  }
}`;

interface State {
  statusName: string | null;
  name: string | null;
}
interface ResourceState extends State {
  kind: string;
  id: string;
  status: number | null;
  inProgress: boolean;
  endpointType: string | null;
  resource: { __typename: string; id: string };
}
interface Membership {
  appWanId: string;
  memberKind: string;
  memberId: string;
}
interface ChangesEvent {
  networkId: string;
  snapshot: boolean;
  networkDeleted: boolean;
  inProgress: boolean;
  resourceCount: number;
  membershipCount: number;
  pollUpstreamCalls: number;
  network: { id: string; name: string; statusName: string } | null;
  added: ResourceState[];
  removed: Array<State & { kind: string; id: string }>;
  changed: Array<{ kind: string; id: string; before: State; after: State }>;
  membershipsAdded: Membership[];
  membershipsRemoved: Membership[];
}

// The test reads events it asked for with CHANGES: their shape is the query's.
const eventsOf = (log: EventLog): ChangesEvent[] => log.values('networkChanges') as ChangesEvent[];
const lastEvent = (log: EventLog): ChangesEvent => {
  const event = eventsOf(log).at(-1);
  if (!event) throw new Error(`no event yet\n${log.describe()}`);
  return event;
};

/** Waits for the next event and returns it. */
async function nextEvent(log: EventLog): Promise<ChangesEvent> {
  await log.events(log.results.length + 1);
  return lastEvent(log);
}

/**
 * What a client holds after applying every event so far, as the schema says to (add `added`, drop
 * `removed`, replace `changed`, add and drop memberships), and every status each resource was seen in.
 * A change that lands while a poll reads may reach the client over two events: tests wait for
 * states, not for event counts.
 */
class Model {
  readonly resources = new Map<string, ResourceState | (State & { kind: string; id: string })>();
  readonly memberships = new Set<string>();
  /** `id` → the statuses it was seen in, in order. */
  readonly seen = new Map<string, Array<string | null>>();
  deleted = false;

  constructor(events: ChangesEvent[]) {
    for (const e of events) this.apply(e);
  }

  status(id: string): string | null | undefined {
    return this.resources.get(id)?.statusName;
  }

  private see(id: string, status: string | null): void {
    const seen = this.seen.get(id) ?? [];
    if (seen.at(-1) !== status) seen.push(status);
    this.seen.set(id, seen);
  }

  private apply(e: ChangesEvent): void {
    for (const r of e.added) {
      this.resources.set(r.id, r);
      this.see(r.id, r.statusName);
    }
    for (const r of e.removed) this.resources.delete(r.id);
    for (const c of e.changed) {
      const known = this.resources.get(c.id);
      if (known) this.resources.set(c.id, { ...known, ...c.after });
      this.see(c.id, c.after.statusName);
    }
    for (const m of membershipKeys(e.membershipsAdded)) this.memberships.add(m);
    for (const m of membershipKeys(e.membershipsRemoved)) this.memberships.delete(m);
    this.deleted ||= e.networkDeleted;
  }
}

/** Waits until the events so far, applied, satisfy `ready`; returns that model. */
async function until(log: EventLog, ready: (model: Model) => boolean, what: string): Promise<Model> {
  await waitUntil(() => log.results.length > 0 && ready(new Model(eventsOf(log))), () => `${what}\n${log.describe()}`);
  return new Model(eventsOf(log));
}

const network = (index: number) => {
  const n = stack.sandbox.restFacts().networks[index];
  if (!n) throw new Error(`no seeded network ${index}`);
  return n;
};

/** Every item of a rest/v1 list, as the sandbox has it now. */
async function list(path: string): Promise<Array<Record<string, unknown>>> {
  const { status, body } = await sandboxRest(stack, 'GET', `${path}?size=200`);
  if (status !== 200) throw new Error(`GET ${path}: ${status}`);
  const embedded = body['_embedded'];
  const items: unknown = typeof embedded === 'object' && embedded !== null ? Object.values(embedded)[0] : [];
  return Array.isArray(items) ? items.filter((i): i is Record<string, unknown> => typeof i === 'object' && i !== null) : [];
}

/** The network's resources and memberships from the REST interface: what the first event must hold. */
async function restView(networkId: string): Promise<{ resources: string[]; memberships: string[] }> {
  const base = `/networks/${networkId}`;
  const kinds = [
    ['ENDPOINT', 'endpoints'],
    ['SERVICE', 'services'],
    ['APP_WAN', 'appWans'],
    ['ENDPOINT_GROUP', 'endpointGroups'],
  ] as const;
  const resources: string[] = [];
  for (const [kind, path] of kinds) for (const r of await list(`${base}/${path}`)) resources.push(`${kind}:${String(r['id'])}:${String(r['name'])}`);
  const memberships: string[] = [];
  for (const a of await list(`${base}/appWans`)) {
    for (const [kind, path] of kinds.filter(([k]) => k !== 'APP_WAN')) {
      for (const m of await list(`${base}/appWans/${String(a['id'])}/${path}`)) memberships.push(`${String(a['id'])}|${kind}|${String(m['id'])}`);
    }
  }
  return { resources: resources.sort(), memberships: memberships.sort() };
}

/** `netgraph_network_poll_upstream_calls` from /metrics: polls (`count`) and their upstream calls (`sum`). */
async function pollMetric(): Promise<{ sum: number; count: number; text: string }> {
  const text = await (await fetch(`${stack.origin}/metrics`)).text();
  const read = (suffix: string): number => Number(new RegExp(`^netgraph_network_poll_upstream_calls_${suffix} (\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { sum: read('sum'), count: read('count'), text };
}

const resourceKeys = (rs: ResourceState[]): string[] => rs.map((r) => `${r.kind}:${r.id}:${r.name ?? ''}`).sort();
const membershipKeys = (ms: Membership[]): string[] => ms.map((m) => `${m.appWanId}|${m.memberKind}|${m.memberId}`).sort();

async function createEndpoint(networkId: string, name: string): Promise<string> {
  const created = await sandboxRest(stack, 'POST', `/networks/${networkId}/endpoints`, { name, endpointType: 'ZTCL' });
  expect(created).toMatchObject({ status: 202, body: { status: 100 } });
  return String(created.body['id']);
}

describe.each([
  ['WebSocket', () => clients.ws()],
  ['SSE', () => clients.sse()],
] as const)('networkChanges over %s', (transport, client) => {
  it('starts with the whole network as the REST interface has it, then sends nothing while nothing changes', async () => {
    const n = network(0);
    const log = clients.follow(client(), CHANGES, { networkId: n.id });
    const first = await nextEvent(log);
    const rest = await restView(n.id);
    expect(first).toMatchObject({ networkId: n.id, snapshot: true, networkDeleted: false, network: { id: n.id, name: n.name, statusName: 'PROVISIONED' }, removed: [], changed: [], membershipsRemoved: [] });
    expect(resourceKeys(first.added)).toEqual(rest.resources);
    expect(membershipKeys(first.membershipsAdded)).toEqual(rest.memberships);
    expect(first.resourceCount).toBe(rest.resources.length);
    expect(first.membershipCount).toBe(rest.memberships.length);
    // The records themselves come along, typed (gateways are endpoints).
    for (const r of first.added) expect(r.resource.id).toBe(r.id);
    expect(new Set(first.added.map((r) => r.resource.__typename))).toEqual(new Set(['Endpoint', 'Service', 'AppWan', 'EndpointGroup']));
    // One poll: the network, its four lists (one page each here), three member lists per AppWAN.
    expect(first.pollUpstreamCalls).toBe(1 + 4 + 3 * n.appWanIds.length);

    const polls = routeCalls(stack, 'GET /rest/v1/networks/{networkId}');
    await waitUntil(() => routeCalls(stack, 'GET /rest/v1/networks/{networkId}') >= polls + 5, () => '5 more polls');
    expect(log.results).toHaveLength(1);
    expect(log.status).toBe('open');
  });

  it('sends a new endpoint, its status as it moves, and its removal, each as a delta', async () => {
    const n = network(0);
    const log = clients.follow(client(), CHANGES, { networkId: n.id });
    const first = await nextEvent(log);
    const name = `live-${transport}`;

    const id = await createEndpoint(n.id, name);
    const added = await until(log, (m) => m.status(id) === 'NEW', 'the new endpoint, NEW');
    expect(added.resources.get(id)).toMatchObject({ kind: 'ENDPOINT', id, name, status: 100, inProgress: true, endpointType: 'ZTCL' });
    expect(lastEvent(log)).toMatchObject({ snapshot: false, inProgress: true, resourceCount: first.resourceCount + 1 });
    clock.advance();
    await until(log, (m) => m.status(id) === 'PROVISIONING', 'PROVISIONING');
    clock.advance();
    await until(log, (m) => m.status(id) === 'PROVISIONED', 'PROVISIONED');
    expect(lastEvent(log).inProgress).toBe(false);

    expect((await sandboxRest(stack, 'DELETE', `/networks/${n.id}/endpoints/${id}`)).status).toBe(202);
    await until(log, (m) => m.status(id) === 'DELETING', 'DELETING');
    clock.advance();
    const after = await until(log, (m) => !m.resources.has(id), 'the endpoint gone');
    expect(after.seen.get(id)).toEqual(['NEW', 'PROVISIONING', 'PROVISIONED', 'DELETING']);
    expect(after.resources.size).toBe(first.resourceCount);
    // Only the first event holds the network; each later one holds this endpoint alone.
    const deltas = eventsOf(log).slice(1);
    expect(deltas.every((e) => !e.snapshot && e.network === null && e.membershipsAdded.length === 0 && e.membershipsRemoved.length === 0)).toBe(true);
    expect(new Set(deltas.flatMap((e) => [...e.added, ...e.removed, ...e.changed].map((r) => r.id)))).toEqual(new Set([id]));
    expect(deltas.flatMap((e) => e.removed)).toEqual([{ kind: 'ENDPOINT', id, name, statusName: 'DELETING' }]);
  });

  it('sends a membership change: an endpoint authorized into an AppWAN and taken out again, the AppWAN UPDATING then PROVISIONED', async () => {
    const n = network(0);
    const appWanId = n.appWanIds[1] ?? '';
    const members = (await list(`/networks/${n.id}/appWans/${appWanId}/endpoints`)).map((e) => String(e['id']));
    const outsider = n.endpointIds.find((e) => !members.includes(e));
    if (!outsider) throw new Error('every endpoint is in the AppWAN already');
    const membership = `${appWanId}|ENDPOINT|${outsider}`;
    const log = clients.follow(client(), CHANGES, { networkId: n.id });
    expect(new Model([await nextEvent(log)]).memberships.has(membership)).toBe(false);

    expect((await sandboxRest(stack, 'POST', `/networks/${n.id}/appWans/${appWanId}/endpoints`, { ids: [outsider] })).status).toBe(202);
    await until(log, (m) => m.memberships.has(membership) && m.status(appWanId) === 'UPDATING', 'the membership, the AppWAN UPDATING');
    for (let i = 0; i < 3; i++) clock.advance();
    await until(log, (m) => m.status(appWanId) === 'PROVISIONED', 'the AppWAN PROVISIONED');
    expect(eventsOf(log).slice(1).flatMap((e) => e.membershipsAdded)).toEqual([{ appWanId, memberKind: 'ENDPOINT', memberId: outsider }]);

    expect((await sandboxRest(stack, 'DELETE', `/networks/${n.id}/appWans/${appWanId}/endpoints`, { ids: [outsider] })).status).toBe(202);
    // Both seen before the clock moves: a poll may read the AppWAN list before the DELETE and its
    // members after it, so the membership can be gone while the AppWAN still shows PROVISIONED;
    // moving the clock then would finish the update before any poll saw it UPDATING.
    await until(log, (m) => !m.memberships.has(membership) && m.status(appWanId) === 'UPDATING', 'the membership gone, the AppWAN UPDATING');
    for (let i = 0; i < 3; i++) clock.advance();
    const after = await until(log, (m) => m.status(appWanId) === 'PROVISIONED' && m.seen.get(appWanId)?.length === 5, 'the AppWAN PROVISIONED again');
    expect(after.seen.get(appWanId)).toEqual(['PROVISIONED', 'UPDATING', 'PROVISIONED', 'UPDATING', 'PROVISIONED']);
    expect(eventsOf(log).flatMap((e) => e.membershipsRemoved)).toEqual([{ appWanId, memberKind: 'ENDPOINT', memberId: outsider }]);
  });

  it('sends a status set from outside (a gateway reaching ERROR) as a change', async () => {
    const n = network(0);
    const gatewayId = n.endpointIds[0] ?? '';
    const log = clients.follow(client(), CHANGES, { networkId: n.id });
    const before = new Model([await nextEvent(log)]).status(gatewayId);
    stack.sandbox.control.setStatus({ kind: 'endpoint', id: gatewayId, status: 500 });
    try {
      await until(log, (m) => m.status(gatewayId) === 'ERROR', 'the gateway in ERROR');
      expect(lastEvent(log).changed).toEqual([{ kind: 'ENDPOINT', id: gatewayId, before: expect.objectContaining({ statusName: before }), after: expect.objectContaining({ statusName: 'ERROR' }) }]);
    } finally {
      stack.sandbox.control.setStatus({ kind: 'endpoint', id: gatewayId, status: 300 });
    }
    await until(log, (m) => m.status(gatewayId) === 'PROVISIONED', 'the gateway back');
  });
});

describe('networkChanges: sharing, cost and ends', () => {
  it('polls once per interval for three subscribers (two WebSockets and an SSE stream), each poll at its cost', async () => {
    const n = network(0);
    const logs = [clients.follow(clients.ws(), CHANGES, { networkId: n.id }), clients.follow(clients.ws(), CHANGES, { networkId: n.id }), clients.follow(clients.sse(), CHANGES, { networkId: n.id })];
    for (const log of logs) await log.events(1);
    expect(stack.pollerStats()).toEqual({ pollers: 1, subscribers: 3 });
    const perPoll = 1 + 4 + 3 * n.appWanIds.length;

    stack.sandbox.control.resetCalls();
    const networkReads = (): number => routeCalls(stack, 'GET /rest/v1/networks/{networkId}');
    await waitUntil(() => networkReads() >= 6, () => '6 polls');
    // Settled between polls: every poll read the network once and sent its whole cost, and no more.
    await waitUntil(() => stack.sandbox.control.calls().total === networkReads() * perPoll, () => `whole polls (${JSON.stringify(stack.sandbox.control.calls())})`);
    const polls = networkReads();
    const byRoute = stack.sandbox.control.calls().byRoute;
    expect(byRoute).toEqual({
      'GET /rest/v1/networks/{networkId}': polls,
      'GET /rest/v1/networks/{networkId}/endpoints': polls,
      'GET /rest/v1/networks/{networkId}/services': polls,
      'GET /rest/v1/networks/{networkId}/appWans': polls,
      'GET /rest/v1/networks/{networkId}/endpointGroups': polls,
      'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/endpoints': polls * n.appWanIds.length,
      'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/services': polls * n.appWanIds.length,
      'GET /rest/v1/networks/{networkId}/appWans/{appWanId}/endpointGroups': polls * n.appWanIds.length,
    });

    // A change reaches all three, from the same poll.
    const id = await createEndpoint(n.id, 'live-shared');
    for (const log of logs) {
      await log.events(2);
      expect(lastEvent(log).added.map((r) => r.id)).toEqual([id]);
    }
    // Then its status and its removal, to all three alike.
    for (const [step, count] of [[() => clock.advance(), 3], [() => clock.advance(), 4], [() => void sandboxRest(stack, 'DELETE', `/networks/${n.id}/endpoints/${id}`), 5], [() => clock.advance(), 6]] as const) {
      step();
      for (const log of logs) await log.events(count);
    }
    const [first, ...others] = logs.map((log) => eventsOf(log).map((e) => ({ ...e, observedAt: '' })));
    for (const other of others) expect(other).toEqual(first);
    expect(first?.at(-1)?.removed.map((r) => r.id)).toEqual([id]);
  });

  it('ends with a last event, every resource removed, when the network is deleted; every poll and its calls are in /metrics', async () => {
    const n = network(1);
    // Earlier tests' pollers have stopped; a poll they cut short is counted once it settles.
    let before = await pollMetric();
    for (let again = await pollMetric(); again.count !== before.count; again = await pollMetric()) before = again;
    stack.sandbox.control.resetCalls();
    const log = clients.follow(clients.ws(), CHANGES, { networkId: n.id });
    const first = await nextEvent(log);
    expect((await sandboxRest(stack, 'DELETE', `/networks/${n.id}`)).status).toBe(202);
    await waitUntil(() => eventsOf(log).some((e) => e.network?.statusName === 'DELETING'), () => `the network DELETING\n${log.describe()}`);
    clock.advance();
    clock.advance();
    await log.ended();
    expect(log.status).toBe('complete');
    expect(lastEvent(log)).toMatchObject({ networkDeleted: true, network: null, added: [], changed: [], resourceCount: 0, membershipCount: 0 });
    const events = eventsOf(log);
    expect(events.slice(0, -1).every((e) => !e.networkDeleted)).toBe(true);
    // Everything it held went, in the last event (or, for what vanished while a poll read, just before).
    const gone = new Model(events);
    expect(gone.deleted).toBe(true);
    expect(gone.resources.size + gone.memberships.size).toBe(0);
    expect(events.flatMap((e) => e.removed.map((r) => r.id)).sort()).toEqual(first.added.map((r) => r.id).sort());
    expect(membershipKeys(events.flatMap((e) => e.membershipsRemoved))).toEqual(membershipKeys(first.membershipsAdded));

    // Each poll read the network once (the last one answered 404) and is counted with every call it sent.
    const polls = routeCalls(stack, 'GET /rest/v1/networks/{networkId}');
    const gets = Object.entries(stack.sandbox.control.calls().byRoute).reduce((n, [route, count]) => (route.startsWith('GET ') ? n + count : n), 0);
    const after = await waitUntil(async () => {
      const now = await pollMetric();
      return now.count - before.count >= polls ? now : null;
    }, `${polls} polls in /metrics`);
    expect(after.count - before.count).toBe(polls);
    expect(after.sum - before.sum).toBe(gets);
    expect(after.text).toMatch(/^netgraph_polls_total\{kind="networkChanges",outcome="changed"\} \d+/m);
    stack.sandbox.control.reset();
  });

  it('ends with NOT_FOUND for a network that is not there, and refuses a malformed id before any call', async () => {
    const log = clients.follow(clients.ws(), CHANGES, { networkId: '00000000-0000-4000-8000-000000000000' });
    await log.ended();
    expect(log.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    const before = stack.sandbox.control.calls().total;
    const bad = clients.follow(clients.ws(), CHANGES, { networkId: 'nope' });
    await bad.ended();
    expect(bad.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(stack.sandbox.control.calls().total).toBe(before);
  });
});

describe('networkChanges on a large network', () => {
  let large: Stack;
  const largeClients = new Clients(() => large);
  beforeAll(async () => {
    large = await startStack({ seed: 'large', clock: new ManualClock(1000), config: { subscriptions: { networkPollIntervalMs: INTERVAL_MS, networkPollMaxIntervalMs: INTERVAL_MS } } });
  });
  afterAll(async () => {
    await largeClients.disposeAll();
    await large.close();
  });

  it('costs 1 + list pages + 3 calls per AppWAN a poll, and sends only what changed', async () => {
    const n = large.sandbox.restFacts().networks[0];
    if (!n) throw new Error('no network');
    const log = largeClients.follow(largeClients.ws(), CHANGES, { networkId: n.id });
    await log.events(1);
    const first = lastEvent(log);
    // 400 endpoints: two pages of 200; services, AppWANs and groups: one page each.
    expect(first.pollUpstreamCalls).toBe(1 + 2 + 1 + 1 + 1 + 3 * n.appWanIds.length);
    expect(first.added.length).toBe(n.endpointIds.length + n.serviceIds.length + n.appWanIds.length + n.endpointGroupIds.length);

    const created = await sandboxRest(large, 'POST', `/networks/${n.id}/endpoints`, { name: 'large-live', endpointType: 'ZTCL' });
    await log.events(2);
    const delta = lastEvent(log);
    // The upstream holds nothing else in progress here, so the one poll that saw it sent it alone.
    expect(delta.added.map((r) => r.id)).toEqual([created.body['id']]);
    expect(delta).toMatchObject({ removed: [], changed: [], membershipsAdded: [], membershipsRemoved: [], resourceCount: first.resourceCount + 1 });
    // What travels: a delta is a small part of the first event.
    expect(JSON.stringify(log.results[1]).length * 50).toBeLessThan(JSON.stringify(log.results[0]).length);
  });
});
