/**
 * `workflow` and `resourceStatus` against the sandbox on its manual clock: changes are started
 * over rest/v1 directly (admin token), the sandbox moves one step per `clock.advance()`, and the
 * gateway's pollers (20 ms apart here, no backoff) report each step. Run with
 * `npx jest --detectOpenHandles test/integration/subscriptions` to see that nothing is left running.
 */
import { ManualClock } from '../../../src/sandbox';
import { startStack, type Stack } from '../../helpers/stack';
import { Clients, routeCalls, sandboxRest, type EventLog } from '../../helpers/subscriptions';
import { countOver, onePer, pause, waitUntil } from '../../helpers/wait';

const INTERVAL_MS = 20;
const clock = new ManualClock(1000);
let stack: Stack;
const clients = new Clients(() => stack);

beforeAll(async () => {
  stack = await startStack({
    clock,
    config: { subscriptions: { pollIntervalMs: INTERVAL_MS, pollMaxIntervalMs: INTERVAL_MS, pollNotFoundGraceMs: 100 }, upstream: { retryAttempts: 1 } },
  });
});
afterEach(async () => {
  await clients.disposeAll();
  await waitUntil(() => stack.pollerStats().pollers === 0, () => `no pollers (have ${JSON.stringify(stack.pollerStats())})`);
});
afterAll(() => stack.close());

const WORKFLOW = `subscription Follow($key: String!) {
  workflow(businessKey: $key) { businessKey processDefinitionKey state done steps { task status } }
}`;
const STATUS = `subscription Status($kind: ResourceKind!, $networkId: UUID, $id: UUID!) {
  resourceStatus(kind: $kind, networkId: $networkId, id: $id) {
    kind id networkId status statusName terminal observedAt
    resource { __typename ... on Network { name } ... on Endpoint { name } ... on AppWan { name } }
  }
}`;

const firstNetwork = () => {
  const network = stack.sandbox.restFacts().networks[0];
  if (!network) throw new Error('no seeded network');
  return network;
};

async function createNetwork(name: string): Promise<string> {
  const created = await sandboxRest(stack, 'POST', '/networks', { name });
  expect(created).toMatchObject({ status: 202, body: { status: 100 } });
  return String(created.body['id']);
}

/** Adds an endpoint to the first AppWAN: a 3-step AppWanUpdate process and the AppWAN at 600 until it ends. */
async function updateAppWan(): Promise<{ businessKey: string; appWanId: string; networkId: string }> {
  const network = firstNetwork();
  const appWanId = network.appWanIds[0] ?? '';
  const res = await sandboxRest(stack, 'POST', `/networks/${network.id}/appWans/${appWanId}/endpoints`, { ids: [network.endpointIds.at(-1)] });
  expect(res.status).toBe(202);
  return { businessKey: String(res.body['businessKey']), appWanId, networkId: network.id };
}

/** Waits for each event in turn, advancing the sandbox one step after each, until `count` events. */
async function stepThrough(logs: EventLog[], count: number): Promise<void> {
  for (let i = 1; i <= count; i += 1) {
    for (const log of logs) await log.events(i);
    if (i < count) clock.advance();
  }
  for (const log of logs) await log.ended();
}

const step = (task: string, status: string) => ({ task, status });

describe('workflow', () => {
  it('emits each change of a succeeding workflow in order and completes after SUCCEEDED', async () => {
    const { businessKey } = await updateAppWan();
    const log = clients.follow(clients.ws(), WORKFLOW, { key: businessKey });
    await stepThrough([log], 4);
    expect(log.status).toBe('complete');
    const base = { businessKey, processDefinitionKey: 'AppWanUpdate' };
    expect(log.values('workflow')).toEqual([
      { ...base, state: 'RUNNING', done: false, steps: [step('ValidateAppWan', 'InProgress')] },
      { ...base, state: 'RUNNING', done: false, steps: [step('ValidateAppWan', 'Completed'), step('UpdateAppWanPolicy', 'InProgress')] },
      {
        ...base,
        state: 'RUNNING',
        done: false,
        steps: [step('ValidateAppWan', 'Completed'), step('UpdateAppWanPolicy', 'Completed'), step('PushEndpointConfiguration', 'InProgress')],
      },
      {
        ...base,
        state: 'SUCCEEDED',
        done: true,
        steps: [step('ValidateAppWan', 'Completed'), step('UpdateAppWanPolicy', 'Completed'), step('PushEndpointConfiguration', 'Completed')],
      },
    ]);
  });

  it('emits each change of a failing workflow in order and completes after FAILED, its AppWAN ending in ERROR', async () => {
    stack.sandbox.control.failAsync({ processDefinition: 'AppWanUpdate', atStep: 2 });
    const { businessKey, appWanId, networkId } = await updateAppWan();
    const workflow = clients.follow(clients.ws(), WORKFLOW, { key: businessKey });
    const status = clients.follow(clients.ws(), STATUS, { kind: 'APP_WAN', networkId, id: appWanId });
    await stepThrough([workflow], 3);
    await status.ended();
    expect(workflow.status).toBe('complete');
    expect(workflow.values('workflow').map((w) => [(w as { state: string }).state, (w as { steps: Array<{ status: string }> }).steps.map((s) => s.status)])).toEqual([
      ['RUNNING', ['InProgress']],
      ['RUNNING', ['Completed', 'InProgress']],
      ['FAILED', ['Completed', 'Failed']],
    ]);
    expect(status.values('resourceStatus').map((e) => (e as { statusName: string }).statusName)).toEqual(['UPDATING', 'ERROR']);
    expect(status.status).toBe('complete');
  });

  it('sends nothing between changes: polls that see the same steps emit no event', async () => {
    const { businessKey } = await updateAppWan();
    const log = clients.follow(clients.ws(), WORKFLOW, { key: businessKey });
    await log.events(1);
    const before = routeCalls(stack, 'GET /rest/v1/workflow-status/{businessKey}');
    await waitUntil(() => routeCalls(stack, 'GET /rest/v1/workflow-status/{businessKey}') >= before + 5, () => '5 more polls');
    expect(log.results).toHaveLength(1);
    expect(log.status).toBe('open');
  });

  it('ends with NOT_FOUND for a business key the upstream never knows, after the grace period', async () => {
    const log = clients.follow(clients.ws(), WORKFLOW, { key: 'no-such-key' });
    await log.ended();
    expect(log.results).toHaveLength(1);
    expect(log.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
    // More than one poll: the key was waited for.
    expect(routeCalls(stack, 'GET /rest/v1/workflow-status/{businessKey}')).toBeGreaterThan(1);
  });
});

describe('resourceStatus', () => {
  it('follows a new network from NEW to PROVISIONED and completes', async () => {
    const id = await createNetwork('subs-provisioning');
    const log = clients.follow(clients.ws(), STATUS, { kind: 'NETWORK', id });
    await stepThrough([log], 3);
    expect(log.status).toBe('complete');
    const events = log.values('resourceStatus');
    expect(events).toEqual([
      expect.objectContaining({ kind: 'NETWORK', id, networkId: id, status: 100, statusName: 'NEW', terminal: false }),
      expect.objectContaining({ status: 200, statusName: 'PROVISIONING', terminal: false }),
      expect.objectContaining({ status: 300, statusName: 'PROVISIONED', terminal: true, resource: { __typename: 'Network', name: 'subs-provisioning' } }),
    ]);
    for (const event of events) expect(event).toMatchObject({ observedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/) });
  });

  it('follows an AppWAN through its update (UPDATING → PROVISIONED) alongside its workflow', async () => {
    const { businessKey, appWanId, networkId } = await updateAppWan();
    const client = clients.ws();
    const status = clients.follow(client, STATUS, { kind: 'APP_WAN', networkId, id: appWanId });
    const workflow = clients.follow(client, WORKFLOW, { key: businessKey });
    await status.events(1);
    await workflow.events(1);
    for (let i = 0; i < 3; i += 1) {
      clock.advance();
      await workflow.events(i + 2);
    }
    await status.ended();
    await workflow.ended();
    expect(status.values('resourceStatus').map((e) => (e as { statusName: string }).statusName)).toEqual(['UPDATING', 'PROVISIONED']);
    expect(workflow.values('workflow').map((w) => (w as { state: string }).state)).toEqual(['RUNNING', 'RUNNING', 'RUNNING', 'SUCCEEDED']);
  });

  it('ends a deleted endpoint with a DELETED event once the upstream no longer has it', async () => {
    const network = firstNetwork();
    const created = await sandboxRest(stack, 'POST', `/networks/${network.id}/endpoints`, { name: 'subs-doomed', endpointType: 'ZTCL' });
    const id = String(created.body['id']);
    const log = clients.follow(clients.ws(), STATUS, { kind: 'ENDPOINT', networkId: network.id, id });
    await log.events(1);
    expect((await sandboxRest(stack, 'DELETE', `/networks/${network.id}/endpoints/${id}`)).status).toBe(202);
    await log.events(2);
    clock.advance();
    await log.ended();
    expect(log.status).toBe('complete');
    expect(log.values('resourceStatus')).toEqual([
      expect.objectContaining({ status: 100, statusName: 'NEW', terminal: false, resource: { __typename: 'Endpoint', name: 'subs-doomed' } }),
      expect.objectContaining({ status: 800, statusName: 'DELETING', terminal: false }),
      expect.objectContaining({ kind: 'ENDPOINT', id, networkId: network.id, status: 900, statusName: 'DELETED', terminal: true, resource: null }),
    ]);
  });

  it('answers a resource already at a terminal status with one event, then completes', async () => {
    const log = clients.follow(clients.ws(), STATUS, { kind: 'NETWORK', id: firstNetwork().id });
    await log.ended();
    expect(log.values('resourceStatus')).toEqual([expect.objectContaining({ statusName: 'PROVISIONED', terminal: true })]);
  });
});

describe('shared pollers', () => {
  it('polls a target once per interval for two subscribers, and stops when the last one leaves', async () => {
    const id = await createNetwork('subs-shared');
    const route = 'GET /rest/v1/networks/{networkId}';
    const first = clients.follow(clients.ws(), STATUS, { kind: 'NETWORK', id });
    const second = clients.follow(clients.ws(), STATUS, { kind: 'NETWORK', id });
    await first.events(1);
    await second.events(1);
    expect(stack.pollerStats()).toEqual({ pollers: 1, subscribers: 2 });

    // The network stays NEW while the clock stands still: count the polls of a 400 ms window (3 at least).
    const window = await countOver(() => routeCalls(stack, route), 400, 3);
    // One poller: at most one poll per interval of the time that passed (plus the one in flight); two would make twice that.
    expect(window.added).toBeLessThanOrEqual(onePer(INTERVAL_MS, window));

    clock.advance();
    await first.events(2);
    await second.events(2);
    expect(second.results).toEqual(first.results);

    first.unsubscribe();
    await waitUntil(() => stack.pollerStats().subscribers === 1, () => 'one subscriber left');
    expect(stack.pollerStats().pollers).toBe(1);
    second.unsubscribe();
    // Stops once the last subscriber leaves, and polls no more.
    await waitUntil(() => stack.pollerStats().pollers === 0, () => 'the poller to stop');
    const after = routeCalls(stack, route);
    await pause(INTERVAL_MS * 5);
    expect(routeCalls(stack, route)).toBe(after);
  });

  it('keeps callers apart: another token gets its own poller', async () => {
    const id = await createNetwork('subs-two-callers');
    const admin = clients.follow(clients.ws(), STATUS, { kind: 'NETWORK', id });
    const reader = clients.follow(clients.ws(stack.tokens.reader), STATUS, { kind: 'NETWORK', id });
    await admin.events(1);
    await reader.events(1);
    expect(stack.pollerStats()).toEqual({ pollers: 2, subscribers: 2 });
  });
});

describe('transports', () => {
  it('gives the same events over SSE (both modes) as over WebSocket', async () => {
    const id = await createNetwork('subs-transports');
    const ws = clients.follow(clients.ws(), STATUS, { kind: 'NETWORK', id });
    const sse = clients.follow(clients.sse(), STATUS, { kind: 'NETWORK', id });
    const single = clients.follow(clients.sse(stack.tokens.admin, true), STATUS, { kind: 'NETWORK', id });
    await stepThrough([ws, sse, single], 3);
    expect(ws.values('resourceStatus').map((e) => (e as { statusName: string }).statusName)).toEqual(['NEW', 'PROVISIONING', 'PROVISIONED']);
    expect(sse.results).toEqual(ws.results);
    expect(single.results).toEqual(ws.results);
    expect([ws.status, sse.status, single.status]).toEqual(['complete', 'complete', 'complete']);
  });

  it('gives the same workflow events over SSE as over WebSocket', async () => {
    const { businessKey } = await updateAppWan();
    const ws = clients.follow(clients.ws(), WORKFLOW, { key: businessKey });
    const sse = clients.follow(clients.sse(), WORKFLOW, { key: businessKey });
    await stepThrough([ws, sse], 4);
    expect(sse.results).toEqual(ws.results);
    expect(sse.status).toBe('complete');
  });

  it('streams to a plain HTTP client whose Accept lists text/event-stream among others', async () => {
    const res = await fetch(stack.streamUrl, {
      method: 'POST',
      headers: { accept: 'text/event-stream, application/json;q=0.9', 'content-type': 'application/json', authorization: `Bearer ${stack.tokens.admin}` },
      body: JSON.stringify({ query: `subscription { resourceStatus(kind: NETWORK, id: "${firstNetwork().id}") { statusName } }` }),
    });
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await res.text(); // the stream ends after the complete event
    expect(text).toContain('event: next\ndata: {"data":{"resourceStatus":{"statusName":"PROVISIONED"}}}');
    expect(text).toContain('event: complete');
  });

  it('applies the same auth rules: no token ends the subscription with UNAUTHENTICATED on both', async () => {
    const id = await createNetwork('subs-no-token');
    for (const client of [clients.ws(null), clients.sse(null)]) {
      const log = clients.follow(client, STATUS, { kind: 'NETWORK', id });
      await log.ended();
      expect(log.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' } });
    }
  });
});

describe('arguments are checked before any upstream call', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['networkId missing for an endpoint', { kind: 'ENDPOINT', id: '00000000-0000-4000-8000-000000000001' }, 'networkId'],
    ['networkId missing for an AppWAN', { kind: 'APP_WAN', id: '00000000-0000-4000-8000-000000000001' }, 'networkId'],
  ];
  it.each(cases)('%s: BAD_USER_INPUT naming the argument', async (_name, variables, field) => {
    stack.sandbox.control.resetCalls();
    const log = clients.follow(clients.ws(), STATUS, variables);
    await log.ended();
    expect(log.results[0]?.errors?.[0]).toMatchObject({ path: ['resourceStatus'], extensions: { code: 'BAD_USER_INPUT', field } });
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('a malformed UUID: BAD_USER_INPUT, no call', async () => {
    stack.sandbox.control.resetCalls();
    const log = clients.follow(clients.ws(), STATUS, { kind: 'NETWORK', id: 'not-a-uuid' });
    await log.ended();
    expect(log.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
    expect(log.results[0]?.errors?.[0]?.message).toContain('$id');
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('an empty business key: BAD_USER_INPUT naming businessKey, no call', async () => {
    stack.sandbox.control.resetCalls();
    const log = clients.follow(clients.ws(), WORKFLOW, { key: ' ' });
    await log.ended();
    expect(log.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT', field: 'businessKey' } });
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('a resource that is not there at the start: NOT_FOUND', async () => {
    const log = clients.follow(clients.ws(), STATUS, { kind: 'SERVICE', networkId: firstNetwork().id, id: '00000000-0000-4000-8000-000000000001' });
    await log.ended();
    expect(log.results[0]?.errors?.[0]).toMatchObject({ extensions: { code: 'NOT_FOUND' } });
  });
});

describe('/metrics', () => {
  it('counts active subscriptions by transport, pollers and polls by outcome, with no token in it', async () => {
    const id = await createNetwork('subs-metrics');
    const ws = clients.follow(clients.ws(), STATUS, { kind: 'NETWORK', id });
    const sse = clients.follow(clients.sse(), STATUS, { kind: 'NETWORK', id });
    await ws.events(1);
    await sse.events(1);
    const text = await (await fetch(`${stack.origin}/metrics`)).text();
    expect(text).toContain('netgraph_subscriptions_active{transport="ws"} 1');
    expect(text).toContain('netgraph_subscriptions_active{transport="sse"} 1');
    expect(text).toContain('netgraph_pollers_active{kind="resourceStatus"} 1');
    expect(text).toContain('netgraph_poll_subscribers_active{kind="resourceStatus"} 2');
    expect(text).toMatch(/netgraph_polls_total\{kind="resourceStatus",outcome="changed"\} \d+/);
    expect(text).not.toContain(stack.tokens.admin);
  });
});
