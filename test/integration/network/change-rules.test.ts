/**
 * The rules every change follows, against the sandbox over real sockets:
 * full-representation PUT, expectedUpdatedAt, sent once whatever happens, outcome unknown said,
 * and fields after a change seeing the new state.
 */
import { dataAt, expectErrorCode, expectNoErrors, startStack, type Stack } from '../../helpers/stack';
import { call } from '../sandbox/sandbox-client';

let stack: Stack;
let networkId: string;
let endpointId: string;
let appWanId: string;

beforeAll(async () => {
  // A short headers timeout so that a slow upstream turns into UPSTREAM_TIMEOUT quickly.
  stack = await startStack({ seed: 'tiny', config: { upstream: { headersTimeoutMs: 400, retryAttempts: 3 } } });
});
afterAll(() => stack.close());

beforeEach(() => {
  stack.sandbox.control.reset();
  stack.sandbox.control.clearFaults();
  stack.sandbox.control.resetCalls();
  const net = stack.sandbox.restFacts().networks[0];
  if (net === undefined || net.endpointIds[2] === undefined || net.appWanIds[0] === undefined) throw new Error('tiny seed changed');
  networkId = net.id;
  endpointId = net.endpointIds[2];
  appWanId = net.appWanIds[0];
});

const changeRequests = () => stack.sandbox.control.requests().filter((r) => r.method !== 'GET');

describe('a one-field update', () => {
  it('sends every attribute of the record, with only that field changed', async () => {
    const before = await call(stack.sandbox, 'GET', `/rest/v1/networks/${networkId}/endpoints/${endpointId}`);
    const original = before.json as Record<string, unknown>;
    const result = await stack.gql(
      `mutation($n: UUID!, $id: UUID!) { updateEndpoint(networkId: $n, id: $id, input: { name: "renamed" }) { endpoint { name } } }`,
      { n: networkId, id: endpointId },
    );
    expect(dataAt(result, ['updateEndpoint', 'endpoint', 'name'])).toBe('renamed');
    const [put] = changeRequests();
    expect(put?.method).toBe('PUT');
    const { _links: _ignored, ...attributes } = original;
    // Every attribute the upstream has, even those the gateway does not model, goes back as it was.
    expect(put?.body).toEqual({ ...attributes, name: 'renamed' });
    expect(Object.keys(attributes).length).toBeGreaterThan(20);
  });

  it('setting a service terminator clears the other one', async () => {
    const net = stack.sandbox.restFacts().networks[0];
    const serviceId = net?.serviceIds[0] ?? '';
    const clusterId = net?.gatewayClusterIds[0] ?? '';
    expectNoErrors(
      await stack.gql(`mutation($n: UUID!, $id: UUID!, $c: UUID!) { updateService(networkId: $n, id: $id, input: { gatewayClusterId: $c }) { id } }`, { n: networkId, id: serviceId, c: clusterId }),
    );
    expect(changeRequests()[0]?.body).toMatchObject({ gatewayClusterId: clusterId, endpointId: null });
  });
});

describe('expectedUpdatedAt', () => {
  const rename = (updatedAt: string) =>
    stack.gql(
      `mutation($n: UUID!, $id: UUID!, $at: DateTime!) { updateEndpoint(networkId: $n, id: $id, input: { name: "guarded", expectedUpdatedAt: $at }) { endpoint { name } } }`,
      { n: networkId, id: endpointId, at: updatedAt },
    );

  it('lets the update through when the record is as the caller saw it', async () => {
    const read = await stack.gql(`query($n: UUID!, $id: UUID!) { endpoint(networkId: $n, id: $id) { updatedAt } }`, { n: networkId, id: endpointId });
    const seen = String(dataAt(read, ['endpoint', 'updatedAt']));
    expect(dataAt(await rename(seen), ['updateEndpoint', 'endpoint', 'name'])).toBe('guarded');
  });

  it('answers CONFLICT without sending the PUT when the record changed meanwhile', async () => {
    const result = await rename('2020-01-01T00:00:00Z');
    const error = expectErrorCode(result, 'CONFLICT');
    expect(error.extensions?.['field']).toBe('input.expectedUpdatedAt');
    expect(error.message).toMatch(/nothing was sent/);
    expect(changeRequests()).toEqual([]);
  });
});

describe('a change is sent once', () => {
  const create = () =>
    stack.gql(`mutation($n: UUID!) { createEndpoint(networkId: $n, input: { name: "once", endpointType: "ZTCL" }) { endpoint { id } } }`, { n: networkId });
  const creates = () => changeRequests().filter((r) => r.route === '/rest/v1/networks/{networkId}/endpoints').length;
  const fault = (rule: Record<string, unknown>) =>
    stack.sandbox.control.setFaults([{ method: 'POST', route: '/rest/v1/networks/{networkId}/endpoints', times: 1, ...rule }]);

  it('a 503 answer is UPSTREAM_ERROR and not retried', async () => {
    fault({ errorRate: 1, status: 503 });
    const error = expectErrorCode(await create(), 'UPSTREAM_ERROR');
    expect(error.extensions?.['upstream']).toMatchObject({ method: 'POST', status: 503 });
    expect(error.extensions?.['outcomeUnknown']).toBeUndefined();
    expect(creates()).toBe(1);
  });

  it('a reset connection is UPSTREAM_UNAVAILABLE with outcomeUnknown and how to find out', async () => {
    fault({ reset: true });
    const error = expectErrorCode(await create(), 'UPSTREAM_UNAVAILABLE');
    expect(error.extensions?.['outcomeUnknown']).toBe(true);
    expect(error.message).toMatch(/may or may not have been applied/);
    expect(error.message).toMatch(/look for the Endpoint named "once"/);
    expect(creates()).toBe(1);
  });

  it('no answer in time is UPSTREAM_TIMEOUT with outcomeUnknown', async () => {
    fault({ latencyMs: 1500 });
    const error = expectErrorCode(await create(), 'UPSTREAM_TIMEOUT');
    expect(error.extensions?.['outcomeUnknown']).toBe(true);
    expect(creates()).toBe(1);
  });
});

describe('after a change', () => {
  it('fields selected in the same operation see the new state', async () => {
    const before = await stack.gql(`query($n: UUID!, $a: UUID!) { appWan(networkId: $n, id: $a) { endpoints { totalCount } } }`, { n: networkId, a: appWanId });
    const count = Number(dataAt(before, ['appWan', 'endpoints', 'totalCount']));
    const result = await stack.gql(
      `mutation($n: UUID!, $a: UUID!, $e: UUID!) {
        add: addAppWanEndpoints(networkId: $n, id: $a, input: { ids: [$e] }) { appWan { statusName endpoints { totalCount } } }
        remove: removeAppWanEndpoints(networkId: $n, id: $a, input: { ids: [$e] }) { appWan { endpoints { totalCount } } }
      }`,
      { n: networkId, a: appWanId, e: endpointId },
    );
    expect(dataAt(result, ['add', 'appWan', 'statusName'])).toBe('UPDATING');
    expect(dataAt(result, ['add', 'appWan', 'endpoints', 'totalCount'])).toBe(count + 1);
    expect(dataAt(result, ['remove', 'appWan', 'endpoints', 'totalCount'])).toBe(count);
  });

  it('the payload follows the business key to its workflow', async () => {
    const result = await stack.gql(
      `mutation($n: UUID!, $a: UUID!, $e: UUID!) { addAppWanEndpoints(networkId: $n, id: $a, input: { ids: [$e] }) { accepted businessKey workflow { businessKey state done } } }`,
      { n: networkId, a: appWanId, e: endpointId },
    );
    const key = dataAt(result, ['addAppWanEndpoints', 'businessKey']);
    expect(key).toEqual(expect.any(String));
    expect(dataAt(result, ['addAppWanEndpoints', 'workflow'])).toEqual({ businessKey: key, state: 'RUNNING', done: false });
  });

  it('the application key of a cloud subscription never comes back', async () => {
    const result = await stack.gql(
      `mutation { createCloudSubscription(input: { name: "k", subscriptionId: "s", tenantId: "t", applicationId: "a", applicationKey: "TOPSECRET-1" }) { cloudSubscription { id name } } }`,
    );
    expectNoErrors(result);
    expect(JSON.stringify(result.body)).not.toContain('TOPSECRET-1');
    expect(stack.logs.join('\n')).not.toContain('TOPSECRET-1');
  });
});
