/**
 * provisionAppWan end to end against the sandbox (a fast real clock: many steps, each followed
 * through the shared pollers): the network-management API's usual creation order, the progress a subscriber sees,
 * a failure at a middle step with and without rollback, bad input, and ownership.
 */
import type { FormattedExecutionResult } from 'graphql';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import { dataAt, expectErrorCode, expectNoErrors, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
const clients: Client[] = [];
beforeAll(async () => {
  stack = await startStack({ seed: 'tiny', stepMs: 30, config: { subscriptions: { pollIntervalMs: 10, pollMaxIntervalMs: 40 } } });
});
beforeEach(() => {
  stack.sandbox.control.reset();
  stack.sandbox.control.clearAsyncFailures();
  stack.sandbox.control.resetCalls();
});
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.dispose()));
});
afterAll(() => stack.close());

interface Step {
  index: number;
  task: string;
  state: string;
  resourceId: string | null;
  created: boolean;
  rollback: string;
  error: { code: string; outcomeUnknown: boolean } | null;
}
interface Provisioning {
  id: string;
  state: string;
  networkId: string | null;
  appWanId: string | null;
  steps: Step[];
  error: { code: string } | null;
}

const FIELDS = 'id state networkId appWanId error { code message outcomeUnknown } steps { index task state resourceId resourceName created statusName businessKey rollback error { code message outcomeUnknown } rollbackError { code } }';
const START = `mutation($input: ProvisionAppWanInput!) { provisionAppWan(input: $input) { ${FIELDS} } }`;

const input = (extra: Record<string, unknown> = {}) => ({
  network: { name: 'provisioned' },
  hostedGateway: { name: 'gw-hosted' },
  service: { name: 'intranet', serviceClass: 'CS', networkIp: '10.20.0.5', networkFirstPort: 443, networkLastPort: 443, interceptIp: '100.64.1.5' },
  bridgeGateway: { name: 'gw-bridge' },
  clients: [{ name: 'laptop-1' }, { name: 'laptop-2' }],
  appWanName: 'everyone',
  ...extra,
});

async function start(vars: Record<string, unknown>, token = stack.tokens.admin): Promise<Provisioning> {
  const result = await stack.gql(START, { input: vars }, { token });
  expectNoErrors(result);
  return dataAt(result, ['provisionAppWan']) as Provisioning;
}

/** Every event of `provisioning(id:)` until it completes. */
async function follow(id: string, token = stack.tokens.admin): Promise<Provisioning[]> {
  const client = createClient({ url: stack.wsUrl, webSocketImpl: WebSocket, retryAttempts: 0, connectionParams: { authorization: `Bearer ${token}` } });
  clients.push(client);
  const events: Provisioning[] = [];
  for await (const result of client.iterate({ query: `subscription($id: ID!) { provisioning(id: $id) { ${FIELDS} } }`, variables: { id } }) as AsyncIterable<FormattedExecutionResult<{ provisioning: Provisioning }>>) {
    if (result.errors) throw new Error(JSON.stringify(result.errors));
    if (result.data) events.push(result.data.provisioning);
  }
  return events;
}

const changeRequests = () =>
  stack.sandbox.control
    .requests()
    .filter((r) => r.method !== 'GET')
    .map((r) => `${r.method} ${r.route}`);

describe('provisionAppWan', () => {
  it('creates everything in the usual creation order, waiting for each step, and reports every step', async () => {
    const started = await start(input());
    expect(started.state).toBe('RUNNING');
    expect(started.steps.map((s) => s.task)).toEqual(['network', 'hostedGateway', 'service', 'bridgeGateway', 'client', 'client', 'appWan', 'authorizeEndpoints', 'authorizeServices']);

    const events = await follow(started.id);
    const last = events[events.length - 1];
    expect(last?.state).toBe('SUCCEEDED');
    expect(last?.steps.every((s) => s.state === 'DONE')).toBe(true);
    // Steps advance in order: no step runs before the one before it is done.
    for (const event of events) {
      const states = event.steps.map((s) => s.state);
      const firstNotDone = states.findIndex((s) => s !== 'DONE');
      if (firstNotDone >= 0) expect(states.slice(firstNotDone + 1).every((s) => s === 'PENDING')).toBe(true);
    }
    expect(changeRequests()).toEqual([
      'POST /rest/v1/networks',
      'POST /rest/v1/networks/{networkId}/endpoints',
      'POST /rest/v1/networks/{networkId}/services',
      'POST /rest/v1/networks/{networkId}/endpoints',
      'POST /rest/v1/networks/{networkId}/endpoints',
      'POST /rest/v1/networks/{networkId}/endpoints',
      'POST /rest/v1/networks/{networkId}/appWans',
      'POST /rest/v1/networks/{networkId}/appWans/{appWanId}/endpoints',
      'POST /rest/v1/networks/{networkId}/appWans/{appWanId}/services',
    ]);

    const check = await stack.gql(
      `query($n: UUID!, $a: UUID!) { appWan(networkId: $n, id: $a) { statusName endpoints { nodes { name } } services { nodes { name endpoint { name endpointType } } } } }`,
      { n: last?.networkId, a: last?.appWanId },
    );
    expect(expectNoErrors(check)).toEqual({
      appWan: {
        statusName: 'PROVISIONED',
        endpoints: { nodes: expect.arrayContaining([{ name: 'gw-bridge' }, { name: 'laptop-1' }, { name: 'laptop-2' }]) },
        services: { nodes: [{ name: 'intranet', endpoint: { name: 'gw-hosted', endpointType: 'GW' } }] },
      },
    });
  });

  it('stops at a failing middle step, reports what it created, and deletes it in reverse order when asked', async () => {
    stack.sandbox.control.failAsync({ kind: 'service' });
    const started = await start(input({ rollbackOnFailure: true }));
    const last = (await follow(started.id)).pop();
    expect(last?.state).toBe('FAILED');
    expect(last?.error?.code).toBe('RESOURCE_ERROR');
    const [network, gateway, service, ...rest] = last?.steps ?? [];
    expect(network).toMatchObject({ state: 'DONE', created: true, rollback: 'DELETED' });
    expect(gateway).toMatchObject({ state: 'DONE', created: true, rollback: 'DELETED' });
    expect(service).toMatchObject({ state: 'FAILED', created: true, rollback: 'DELETED', error: { code: 'RESOURCE_ERROR' } });
    expect(rest.every((s) => s.state === 'PENDING' && !s.created && s.rollback === 'NONE')).toBe(true);
    expect(changeRequests()).toEqual([
      'POST /rest/v1/networks',
      'POST /rest/v1/networks/{networkId}/endpoints',
      'POST /rest/v1/networks/{networkId}/services',
      'DELETE /rest/v1/networks/{networkId}/services/{serviceId}',
      'DELETE /rest/v1/networks/{networkId}/endpoints/{endpointId}',
      'DELETE /rest/v1/networks/{networkId}',
    ]);
  });

  it('leaves what it created in place without rollbackOnFailure, and says so', async () => {
    const net = stack.sandbox.restFacts().networks[0];
    stack.sandbox.control.failAsync({ kind: 'endpoint', atStep: 1 });
    const started = await start(input({ network: undefined, networkId: net?.id }));
    const last = (await follow(started.id)).pop();
    expect(last?.state).toBe('FAILED');
    expect(last?.steps[0]).toMatchObject({ state: 'DONE', created: false, resourceId: net?.id });
    expect(last?.steps[1]).toMatchObject({ state: 'FAILED', created: true, rollback: 'NONE' });
    const gatewayId = last?.steps[1]?.resourceId;
    const still = await stack.gql(`query($n: UUID!, $e: UUID!) { endpoint(networkId: $n, id: $e) { statusName } }`, { n: net?.id, e: gatewayId });
    expect(dataAt(still, ['endpoint', 'statusName'])).toBe('ERROR');
  });

  it('refuses bad input whole, before any upstream call', async () => {
    const bad = [
      [input({ networkId: '5b0e3b53-6d9e-4c1b-9a0e-0d5f1c2b3a4d' }), 'input.networkId'],
      [input({ clients: [{ name: 'gw-hosted' }] }), 'input.clients[0].name'],
      [input({ service: { name: 's', serviceClass: 'CS', networkIp: '10.0.0.1', networkFirstPort: 90, networkLastPort: 80 } }), 'input.service.networkFirstPort'],
      [input({ appWanName: '' }), 'input.appWanName.name'],
    ] as const;
    for (const [vars, field] of bad) {
      const result = await stack.gql(START, { input: vars });
      expect(expectErrorCode(result, 'BAD_USER_INPUT').extensions?.['field']).toBe(field);
    }
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it("a reader's provisioning fails at its first change with FORBIDDEN, and only its owner can see it", async () => {
    const started = await start(input(), stack.tokens.reader);
    const last = (await follow(started.id, stack.tokens.reader)).pop();
    expect(last?.steps[0]).toMatchObject({ state: 'FAILED', error: { code: 'FORBIDDEN' }, created: false });
    const other = await stack.gql(`query($id: ID!) { provisioning(id: $id) { id } }`, { id: started.id }, { token: stack.tokens.admin });
    expectErrorCode(other, 'NOT_FOUND');
  });

  it('needs a token: an anonymous provisionAppWan is UNAUTHENTICATED before anything starts', async () => {
    const result = await stack.gql(START, { input: input() }, { token: null });
    expectErrorCode(result, 'UNAUTHENTICATED');
    expect(dataAt(result, ['provisionAppWan'])).toBeNull();
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('gives each caller a share of MAX_PROVISIONINGS: past it RATE_LIMITED with retryAfter', async () => {
    const limited = await startStack({ seed: 'tiny', stepMs: 30, config: { subscriptions: { pollIntervalMs: 10, pollMaxIntervalMs: 40 }, provisioning: { maxProvisionings: 4, maxProvisioningsPerCaller: 1 } } });
    try {
      const first = await limited.gql(START, { input: input({ network: { name: 'share-1' } }) });
      expectNoErrors(first);
      const second = await limited.gql(START, { input: input({ network: { name: 'share-2' } }) });
      const refusal = expectErrorCode(second, 'RATE_LIMITED');
      expect(refusal.extensions).toMatchObject({ limit: 'provisionings', scope: 'caller', max: 1, retryAfter: expect.any(Number) });
      // Another caller still gets its own.
      expectNoErrors(await limited.gql(START, { input: input({ network: { name: 'share-3' } }) }, { token: limited.tokens.reader }));
    } finally {
      await limited.close();
    }
  });
});
