/**
 * Every network query field and link against the sandbox (seed `tiny`), as the admin.
 */
import { at, errorCodeAt, expectResult, startNetworkStack, type NetworkStack } from './network-stack';
import type { RestV1Facts } from '../../../src/sandbox';
import { waitUntil } from '../../helpers/wait';

let stack: NetworkStack;
let facts: RestV1Facts;
let net: RestV1Facts['networks'][number];

beforeAll(async () => {
  stack = await startNetworkStack({ seed: 'tiny' });
  facts = stack.sandbox.restFacts();
  const first = facts.networks.find((n) => n.gatewayClusterIds.length > 0 && n.endpointGroupIds.length > 0) ?? facts.networks[0];
  if (first === undefined) throw new Error('seed has no network');
  net = first;
});
afterAll(() => stack.close());

/** A change made directly on the sandbox (the read side is what these tests check). */
async function upstream(method: string, path: string, body: unknown): Promise<unknown> {
  const res = await fetch(`${stack.sandbox.baseUrl}/rest/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.sandbox.tokens.admin}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBeLessThan(300);
  return res.json();
}

async function run(query: string, variables: Record<string, unknown> = {}) {
  const result = await stack.gql(query, variables);
  return { query, result };
}

function expectNoErrors({ query, result }: Awaited<ReturnType<typeof run>>): Record<string, unknown> {
  expectResult(query, result, (r) => expect(r.errors).toBeUndefined());
  return result.data ?? {};
}

test('network groups, by id, by billing account, with their networks, endpoints and services', async () => {
  const groupId = facts.organizationIds[0];
  const data = expectNoErrors(
    await run(
      `query ($id: UUID!) {
        networkGroups { totalCount nodes { id name billingAccountId } }
        networkGroup(id: $id) { id name mfaRequired svcEnabled createdAt
          networks(sort: [{ field: "name", direction: DESC }]) { totalCount nodes { id name organizationId } }
          endpoints(first: 2) { totalCount nodes { id networkId } pageInfo { hasNextPage } }
          services(first: 1) { totalCount nodes { id } }
          cloudSubscriptions { totalCount nodes { organizationId } } }
      }`,
      { id: groupId },
    ),
  );
  expect(at(data, 'networkGroups', 'totalCount')).toBe(facts.organizationIds.length);
  const billing = at(data, 'networkGroups', 'nodes', 0, 'billingAccountId');
  expect(typeof billing).toBe('string');
  const names = facts.networks.filter((n) => n.organizationId === groupId).map((n) => n.name).sort().reverse();
  expect(at(data, 'networkGroup', 'networks', 'nodes')).toEqual(names.map((name) => expect.objectContaining({ name, organizationId: groupId })));
  expect(at(data, 'networkGroup', 'createdAt')).toMatch(/Z$/);
  const endpointsInGroup = facts.networks.filter((n) => n.organizationId === groupId).reduce((s, n) => s + n.endpointIds.length, 0);
  expect(at(data, 'networkGroup', 'endpoints', 'totalCount')).toBe(endpointsInGroup);
  expect(at(data, 'networkGroup', 'endpoints', 'pageInfo', 'hasNextPage')).toBe(true);
  const subs = at(data, 'networkGroup', 'cloudSubscriptions', 'nodes') as unknown[];
  expect(subs.every((sub) => at(sub, 'organizationId') === groupId)).toBe(true);
  expect(facts.organizationIds).toHaveLength(1); // tiny: every subscription belongs to this group
  expect(subs.length).toBe(facts.cloudSubscriptionIds.length);
  expect(subs.length).toBeGreaterThan(0);

  const byBilling = expectNoErrors(await run(`query ($b: String!) { networkGroupByBillingAccount(billingAccountId: $b) { id } }`, { b: billing }));
  expect(at(byBilling, 'networkGroupByBillingAccount', 'id')).toBe(at(data, 'networkGroups', 'nodes', 0, 'id'));
});

test('myOrganization answers the caller organization from identity/v1', async () => {
  const data = expectNoErrors(await run(`{ myOrganization { id name attributes } }`));
  expect(typeof at(data, 'myOrganization', 'id')).toBe('string');
  expect(at(data, 'myOrganization', 'attributes')).toEqual(expect.objectContaining({ id: at(data, 'myOrganization', 'id') }));
});

test('networks and one network with every link', async () => {
  const data = expectNoErrors(
    await run(
      `query ($id: UUID!) {
        networks(first: 1) { totalCount nodes { id } pageInfo { hasNextPage endCursor } }
        network(id: $id) {
          id name status statusName productFamily createdAt updatedAt
          networkGroup { id }
          networkConfigMetadata { id name cloudaGatewaySize }
          endpoints(sort: [{ field: "name" }]) { totalCount nodes { name } }
          services { totalCount }
          appWans { totalCount nodes { id } }
          endpointGroups { totalCount nodes { id name attributes network { id } } }
          gatewayClusters { totalCount nodes { id endpoints { totalCount } services { totalCount } } }
          certificateAuthorities { totalCount }
          serviceGroups { totalCount }
          transferNodePools { totalCount }
          networkControllerHosts { totalCount }
          blueprint
          appWanProcesses { totalCount }
        }
      }`,
      { id: net.id },
    ),
  );
  expect(at(data, 'networks', 'totalCount')).toBe(facts.networks.length);
  expect(at(data, 'networks', 'pageInfo', 'hasNextPage')).toBe(facts.networks.length > 1);
  const n = at(data, 'network');
  expect(at(n, 'name')).toBe(net.name);
  expect(at(n, 'statusName')).toBe('PROVISIONED');
  expect(at(n, 'networkGroup', 'id')).toBe(net.organizationId);
  expect(typeof at(n, 'networkConfigMetadata', 'name')).toBe('string');
  expect(at(n, 'endpoints', 'totalCount')).toBe(net.endpointIds.length);
  const names = (at(n, 'endpoints', 'nodes') as unknown[]).map((e) => at(e, 'name'));
  expect(names).toEqual([...names].sort());
  expect(at(n, 'services', 'totalCount')).toBe(net.serviceIds.length);
  expect(at(n, 'appWans', 'totalCount')).toBe(net.appWanIds.length);
  expect(at(n, 'endpointGroups', 'totalCount')).toBe(net.endpointGroupIds.length);
  expect(at(n, 'endpointGroups', 'nodes', 0, 'network', 'id')).toBe(net.id);
  expect(at(n, 'gatewayClusters', 'totalCount')).toBe(net.gatewayClusterIds.length);
  expect(String(at(n, 'blueprint'))).toContain(net.name);
});

test('the next page of networks follows endCursor', async () => {
  const first = expectNoErrors(await run(`{ networks(first: 1) { nodes { id } pageInfo { endCursor } } }`));
  const after = at(first, 'networks', 'pageInfo', 'endCursor');
  const second = expectNoErrors(await run(`query ($a: String) { networks(first: 1, after: $a) { nodes { id } pageInfo { hasPreviousPage } } }`, { a: after }));
  expect(at(second, 'networks', 'nodes', 0, 'id')).not.toBe(at(first, 'networks', 'nodes', 0, 'id'));
  expect(at(second, 'networks', 'pageInfo', 'hasPreviousPage')).toBe(true);
});

test('endpoint with network, region, data center, AppWANs, services, groups and registration token', async () => {
  const endpointId = net.endpointIds[0];
  const data = expectNoErrors(
    await run(
      `query ($n: UUID!, $id: UUID!) { endpoint(networkId: $n, id: $id) {
        id name endpointType status statusName currentState currentStateName registrationAttemptsLeft stateLastUpdated
        network { id } geoRegion { id name } dataCenter { id locationCode provider }
        appWans { totalCount nodes { id } } services { totalCount } endpointGroups { totalCount }
        gatewayCluster { id }
      } }`,
      { n: net.id, id: endpointId },
    ),
  );
  const e = at(data, 'endpoint');
  expect(at(e, 'id')).toBe(endpointId);
  expect(at(e, 'network', 'id')).toBe(net.id);
  expect(typeof at(e, 'geoRegion', 'name')).toBe('string');
  expect(typeof at(e, 'dataCenter', 'locationCode')).toBe('string');
  expect(typeof at(e, 'currentStateName')).toBe('string');

  // A new client endpoint offers its one-time registration token (a JWT, one line).
  const created = await upstream('POST', `/networks/${net.id}/endpoints`, { name: `new-client-${Date.now()}`, endpointType: 'ZTCL' });
  const token = expectNoErrors(
    await run(`query ($n: UUID!, $id: UUID!) { endpoint(networkId: $n, id: $id) { registrationKey registrationToken } }`, { n: net.id, id: at(created, 'id') }),
  );
  expect(String(at(token, 'endpoint', 'registrationToken'))).toMatch(/^[\w-]+\.[\w-]+\.[\w-]*$/);
});

test('service with its terminating endpoint, network and AppWANs; AppWAN with members and blueprint', async () => {
  const data = expectNoErrors(
    await run(
      `query ($n: UUID!, $s: UUID!, $a: UUID!) {
        service(networkId: $n, id: $s) { id name serviceClass serviceClassCode serviceType interceptPorts { include exclude } status statusName
          network { id } endpoint { id } gatewayCluster { id } appWans { totalCount nodes { id } } }
        appWan(networkId: $n, id: $a) { id name status statusName network { id }
          endpoints { totalCount nodes { id } } services { totalCount nodes { id } } endpointGroups { totalCount } blueprint }
      }`,
      { n: net.id, s: net.serviceIds[0], a: net.appWanIds[0] },
    ),
  );
  expect(['CS', 'GW', 'ICMP']).toContain(at(data, 'service', 'serviceClass'));
  expect(at(data, 'service', 'serviceClassCode')).toBe(at(data, 'service', 'serviceClass'));
  expect(at(data, 'service', 'network', 'id')).toBe(net.id);
  const terminator = at(data, 'service', 'endpoint', 'id') ?? at(data, 'service', 'gatewayCluster', 'id');
  expect(typeof terminator).toBe('string');
  expect(at(data, 'appWan', 'network', 'id')).toBe(net.id);
  expect(Number(at(data, 'appWan', 'endpoints', 'totalCount'))).toBeGreaterThan(0);
  expect(typeof at(data, 'appWan', 'blueprint')).toBe('string');

  // The membership read from both sides agrees.
  const appWanId = net.appWanIds[0];
  const members = (at(data, 'appWan', 'services', 'nodes') as unknown[]).map((s) => at(s, 'id'));
  for (const serviceId of members) {
    const s = expectNoErrors(await run(`query ($n: UUID!, $s: UUID!) { service(networkId: $n, id: $s) { appWans { nodes { id } } } }`, { n: net.id, s: serviceId }));
    expect((at(s, 'service', 'appWans', 'nodes') as unknown[]).map((x) => at(x, 'id'))).toContain(appWanId);
  }
});

test('catalogs: data centers (filtered), geo regions, network config templates', async () => {
  const data = expectNoErrors(
    await run(
      `query ($dc: UUID!, $geo: UUID!, $ncm: UUID!) {
        dataCenters { totalCount nodes { id locationCode } }
        filtered: dataCenters(locationCode: "us-east-1") { totalCount nodes { locationCode locationName provider } }
        dataCenter(id: $dc) { id locationCode }
        geoRegions { totalCount } geoRegion(id: $geo) { id name }
        networkConfigMetadatas { totalCount } networkConfigMetadata(id: $ncm) { id name networkControllerVolumeSize }
      }`,
      { dc: facts.dataCenterIds[0], geo: facts.geoRegionIds[0], ncm: facts.networkConfigMetadataIds[0] },
    ),
  );
  expect(at(data, 'dataCenters', 'totalCount')).toBe(facts.dataCenterIds.length);
  expect(at(data, 'filtered', 'nodes')).toEqual([expect.objectContaining({ locationCode: 'us-east-1' })]);
  expect(at(data, 'dataCenter', 'id')).toBe(facts.dataCenterIds[0]);
  expect(at(data, 'geoRegions', 'totalCount')).toBe(facts.geoRegionIds.length);
  expect(at(data, 'geoRegion', 'id')).toBe(facts.geoRegionIds[0]);
  expect(at(data, 'networkConfigMetadatas', 'totalCount')).toBe(facts.networkConfigMetadataIds.length);
});

test('admin-only reads: hosts, cloud subscriptions and their virtual WAN sites', async () => {
  const data = expectNoErrors(
    await run(
      `{ hosts { totalCount nodes { id attributes } } cloudSubscriptions { totalCount nodes { id name subscriptionId
          virtualWanSites { totalCount nodes { id name publicIpAddress bgp { localPeeringAddress { ipAddress asn } neighborPeers { asn } advertisedPrefixes } dataCenter { id } } } } } }`,
    ),
  );
  expect(at(data, 'hosts', 'totalCount')).toBe(facts.hostIds.length);
  expect(at(data, 'cloudSubscriptions', 'totalCount')).toBe(facts.cloudSubscriptionIds.length);
  if (facts.hostIds[0] !== undefined) {
    const host = expectNoErrors(await run(`query ($id: UUID!) { host(id: $id) { id } }`, { id: facts.hostIds[0] }));
    expect(at(host, 'host', 'id')).toBe(facts.hostIds[0]);
  }
  if (facts.cloudSubscriptionIds[0] !== undefined) {
    const sub = expectNoErrors(await run(`query ($id: UUID!) { cloudSubscription(id: $id) { id } }`, { id: facts.cloudSubscriptionIds[0] }));
    expect(at(sub, 'cloudSubscription', 'id')).toBe(facts.cloudSubscriptionIds[0]);
  }
});

test('workflows and network processes, after an AppWAN change that has a business key', async () => {
  const appWanId = net.appWanIds[0];
  const answer = await upstream('POST', `/networks/${net.id}/appWans/${appWanId}/endpoints`, { ids: [net.endpointIds[net.endpointIds.length - 1]] });
  const key = at(answer, 'businessKey');
  expect(typeof key).toBe('string');

  const data = expectNoErrors(
    await run(
      `query ($k: String!, $n: UUID!) {
        workflow(businessKey: $k) { businessKey processDefinitionKey state done steps { task status } }
        workflows { totalCount nodes { businessKey } }
        networkProcesses { totalCount }
        network(id: $n) { appWanProcesses { totalCount nodes { businessKey state } } appWanProcess(businessKey: $k) { businessKey steps { task } } }
      }`,
      { k: key, n: net.id },
    ),
  );
  expect(at(data, 'workflow', 'businessKey')).toBe(key);
  expect(['RUNNING', 'SUCCEEDED']).toContain(at(data, 'workflow', 'state'));
  expect(Number((at(data, 'workflow', 'steps') as unknown[]).length)).toBeGreaterThan(0);
  expect((at(data, 'workflows', 'nodes') as unknown[]).map((w) => at(w, 'businessKey'))).toContain(key);
  expect(at(data, 'network', 'appWanProcess', 'businessKey')).toBe(key);

  // Steps advance on the sandbox clock (20 ms a step here) until the workflow is done.
  const finished = await waitUntil(async () => {
    const again = expectNoErrors(await run(`query ($k: String!) { workflow(businessKey: $k) { state done } }`, { k: key }));
    return at(again, 'workflow', 'state') === 'RUNNING' ? null : again;
  }, 'the workflow done', { intervalMs: 20 });
  expect(at(finished, 'workflow')).toEqual({ state: 'SUCCEEDED', done: true });

  const unknown = await stack.gql(`{ workflow(businessKey: "no-such-key") { businessKey } }`);
  expect(at(unknown.data, 'workflow')).toBeNull();
  if (unknown.errors !== undefined) expect(errorCodeAt(unknown, 'workflow')).toBe('NOT_FOUND');
});
