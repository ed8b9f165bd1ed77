import { ManualClock, type RestV1Facts, type RunningSandbox } from '../../../src/sandbox';
import { at, call, keys, list, str, firstNetwork, withSandbox } from './sandbox-client';

let sandbox: RunningSandbox;
let facts: RestV1Facts;
let net: RestV1Facts['networks'][number];
const clock = new ManualClock(1000);

beforeAll(async () => {
  sandbox = await withSandbox({ clock });
  facts = sandbox.restFacts();
  net = firstNetwork(facts);
});
afterAll(() => sandbox.close());

const n = (): string => `/rest/v1/networks/${net.id}`;

describe('rest/v1 read-only and supporting collections', () => {
  it.each([
    ['/rest/v1/dataCenters', 'dataCenters', ['id', 'locationCode', 'locationName', 'provider']],
    ['/rest/v1/geoRegions', 'geoRegions', ['id', 'name']],
    ['/rest/v1/hosts', 'hosts', ['id', 'name', 'role', 'ipAddress']],
    ['/rest/v1/networkConfigMetadata', 'networkConfigMetadatas', ['id', 'name', 'cloudaNetworkControllerSize', 'networkControllerVolumeSize']],
    ['/rest/v1/organizations', 'organizations', ['id', 'name', 'organizationShortName', 'mfaRequired', 'svcEnabled', 'billingAccountId']],
    ['/rest/v1/network-groups/', 'organizations', ['id', 'name']],
    ['/rest/v1/azureSubscriptions', 'azureSubscriptions', ['id', 'name', 'subscriptionId', 'tenantId', 'applicationId']],
  ])('GET %s lists %s with their fields, and each item resolves by its self link', async (path, plural, fields) => {
    const r = await call(sandbox, 'GET', path);
    expect(r.status).toBe(200);
    const items = list(r.json, plural);
    expect(items.length).toBeGreaterThan(0);
    expect(at(r.json, 'page', 'totalElements')).toBe(items.length);
    for (const field of [...fields, 'createdAt', 'updatedAt', '_links']) expect(items[0]).toHaveProperty(field);
    const self = str(at(items[0], '_links', 'self', 'href'));
    const one = await call(sandbox, 'GET', self.slice(sandbox.baseUrl.length));
    expect(one.status).toBe(200);
    expect(at(one.json, 'id')).toBe(items[0]?.['id']);
  });

  it('sorts unpaginated lists too, answering them whole', async () => {
    const r = await call(sandbox, 'GET', '/rest/v1/dataCenters?sort=locationName,DESC&size=2&page=3');
    const names = list(r.json, 'dataCenters').map((d) => str(d['locationName']));
    expect(names.length).toBe(facts.dataCenterIds.length);
    expect(names).toEqual([...names].sort((a, b) => b.localeCompare(a)));
    expect((await call(sandbox, 'GET', '/rest/v1/geoRegions?sort=color,ASC')).status).toBe(400);
  });

  it('filters data centers by locationCode', async () => {
    const r = await call(sandbox, 'GET', '/rest/v1/dataCenters?locationCode=eu-west-1');
    const items = list(r.json, 'dataCenters');
    expect(items).toHaveLength(1);
    expect(items[0]).toEqual(expect.objectContaining({ locationCode: 'eu-west-1', locationName: 'Ireland', provider: 'AWS' }));
    expect(list((await call(sandbox, 'GET', '/rest/v1/dataCenters?locationCode=nowhere')).json, 'dataCenters')).toEqual([]);
  });

  it('keeps hosts, controller hosts and cloud subscriptions from the reader (403) but not other data', async () => {
    const reader = { token: sandbox.tokens.reader };
    expect((await call(sandbox, 'GET', '/rest/v1/hosts', reader)).status).toBe(403);
    expect((await call(sandbox, 'GET', `${n()}/networkControllerHosts`, reader)).status).toBe(403);
    expect((await call(sandbox, 'GET', '/rest/v1/azureSubscriptions', reader)).status).toBe(403);
    expect((await call(sandbox, 'GET', '/rest/v1/dataCenters', reader)).status).toBe(200);
    expect((await call(sandbox, 'GET', `${n()}/endpoints`, reader)).status).toBe(200);
    expect((await call(sandbox, 'GET', `${n()}/networkControllerHosts`)).status).toBe(200);
  });

  it('answers the network group of a billing account, and the caller organization on identity/v1', async () => {
    const org = await call(sandbox, 'GET', `/rest/v1/organizations/${facts.organizationIds[0] ?? ''}`);
    const billing = str(at(org.json, 'billingAccountId'));
    const byBilling = await call(sandbox, 'GET', `/rest/v1/organizations/billing-accounts/${billing}`);
    expect(at(byBilling.json, 'id')).toBe(facts.organizationIds[0]);
    expect(keys(at(org.json, '_links'))).toEqual(['cloudbSubscription', 'networks', 'self']);
    const mine = await call(sandbox, 'GET', '/identity/v1/organization', { token: sandbox.tokens.nobody });
    expect(mine.status).toBe(200);
    expect(at(mine.json, 'id')).toBe(facts.organizationIds[0]);
    expect((await call(sandbox, 'GET', '/identity/v1/organization', { token: null })).status).toBe(401);
    const put = await call(sandbox, 'PUT', `/rest/v1/organizations/${facts.organizationIds[0] ?? ''}`, { body: { name: 'Acme Renamed', mfaRequired: true } });
    expect(put.status).toBe(202);
    expect(put.json).toEqual(expect.objectContaining({ name: 'Acme Renamed', mfaRequired: true, billingAccountId: billing }));
  });

  it('stores a cloud subscription: applicationKey accepted, never returned; missing field 400', async () => {
    const body = { name: 'sub', subscriptionId: 's', tenantId: 't', applicationId: 'a', applicationKey: 'TOP-SECRET' };
    const r = await call(sandbox, 'POST', '/rest/v1/azureSubscriptions', { body });
    expect(r.status).toBe(200);
    expect(r.text).not.toContain('TOP-SECRET');
    const id = str(at(r.json, 'id'));
    const one = await call(sandbox, 'GET', `/rest/v1/azureSubscriptions/${id}`);
    expect(one.json).toEqual(expect.objectContaining({ name: 'sub', tenantId: 't' }));
    expect(one.json).not.toHaveProperty('applicationKey');
    expect((await call(sandbox, 'GET', '/rest/v1/azureSubscriptions')).text).not.toContain('TOP-SECRET');
    expect((await call(sandbox, 'POST', '/rest/v1/azureSubscriptions', { body: { ...body, applicationKey: undefined } })).status).toBe(400);
    expect((await call(sandbox, 'PUT', `/rest/v1/azureSubscriptions/${id}`, { body: { ...body, name: 'sub2' } })).status).toBe(202);
    const site = await call(sandbox, 'POST', `/rest/v1/azureSubscriptions/${id}/virtualWanSites`, {
      body: { name: 'branch', endpointId: net.endpointIds[0], publicIpAddress: '52.0.0.1', bgp: { advertiseLocal: true, advertisedPrefixes: ['10.1.0.0/16'] } },
    });
    expect(site.status).toBe(200);
    expect(at(site.json, 'cloudbSubscriptionId')).toBe(id);
    expect(list((await call(sandbox, 'GET', `/rest/v1/azureSubscriptions/${id}/virtualWanSites`)).json, 'virtualWanSites')).toHaveLength(1);
    const bad = await call(sandbox, 'POST', `/rest/v1/azureSubscriptions/${id}/virtualWanSites`, { body: { name: 'b', endpointId: net.endpointIds[0], publicIpAddress: 'x' } });
    expect(bad.status).toBe(400);
    expect((await call(sandbox, 'DELETE', `/rest/v1/azureSubscriptions/${id}/virtualWanSites/${str(at(site.json, 'id'))}`)).status).toBe(202);
    expect((await call(sandbox, 'DELETE', `/rest/v1/azureSubscriptions/${id}`)).status).toBe(202);
    expect((await call(sandbox, 'GET', `/rest/v1/azureSubscriptions/${id}`)).status).toBe(404);
  });

  it('network configuration templates: create 202, fetch, redefine 202, delete 202; the network names its own', async () => {
    const r = await call(sandbox, 'POST', '/rest/v1/networkConfigMetadata', { body: { name: 'tiny', gatewayVolumeSize: 5 } });
    expect(r.status).toBe(202);
    const id = str(at(r.json, 'id'));
    expect(r.json).toEqual(expect.objectContaining({ name: 'tiny', gatewayVolumeSize: 5, organizationId: facts.organizationIds[0] }));
    expect((await call(sandbox, 'PUT', `/rest/v1/networkConfigMetadata/${id}`, { body: { name: 'tiny2', gatewayVolumeSize: 6 } })).status).toBe(202);
    expect(at((await call(sandbox, 'GET', `/rest/v1/networkConfigMetadata/${id}`)).json, 'name')).toBe('tiny2');
    expect((await call(sandbox, 'DELETE', `/rest/v1/networkConfigMetadata/${id}`)).status).toBe(202);
    expect((await call(sandbox, 'GET', `/rest/v1/networkConfigMetadata/${id}`)).status).toBe(404);
    const own = await call(sandbox, 'GET', `${n()}/networkConfigMetadata`);
    expect(at(own.json, 'id')).toBe(facts.networkConfigMetadataIds[0]);
  });
});

describe('rest/v1 endpoints and services', () => {
  it('creates an endpoint: 202, the creation values, then progress; duplicate name 400', async () => {
    const r = await call(sandbox, 'POST', `${n()}/endpoints`, { body: { name: 'new-client', endpointType: 'ZTCL', geoRegionId: facts.geoRegionIds[0] } });
    expect(r.status).toBe(202);
    expect(r.json).toEqual(
      expect.objectContaining({ name: 'new-client', endpointType: 'ZTCL', networkId: net.id, registrationAttemptsLeft: 5, status: 100, currentState: 100, clientMfaEnable: 'NO' }),
    );
    const links = keys(at(r.json, '_links'));
    expect(links).toEqual(['appWans', 'endpointGroups', 'geoRegion', 'network', 'self', 'services']);
    expect((await call(sandbox, 'POST', `${n()}/endpoints`, { body: { name: 'new-client', endpointType: 'ZTCL' } })).status).toBe(400);
    expect((await call(sandbox, 'POST', `${n()}/endpoints`, { body: { name: 'x1', endpointType: 'zt cl' } })).status).toBe(400);
    expect((await call(sandbox, 'POST', `${n()}/endpoints`, { body: { name: 'x2' } })).status).toBe(400);
    expect((await call(sandbox, 'POST', `${n()}/endpoints`, { body: { name: 'x3', endpointType: 'GW', geoRegionId: 'nope' } })).status).toBe(400);
    const status = async (): Promise<unknown> => at((await call(sandbox, 'GET', `${n()}/endpoints/${str(at(r.json, 'id'))}`)).json, 'status');
    clock.advance();
    expect(await status()).toBe(200);
    clock.advance();
    expect(await status()).toBe(300);
    clock.advance();
    expect(await status()).toBe(300); // a client endpoint waits for enrollment
  });

  it('a hosted gateway (GW) registers itself: status 400 and currentState 300 after three steps', async () => {
    const r = await call(sandbox, 'POST', `${n()}/endpoints`, { body: { name: 'hosted-gw', endpointType: 'GW' } });
    clock.advance(3000);
    const g = await call(sandbox, 'GET', `${n()}/endpoints/${str(at(r.json, 'id'))}`);
    expect(g.json).toEqual(expect.objectContaining({ status: 400, currentState: 300 }));
  });

  it('downloads the registration key as one line without a trailing newline', async () => {
    const r = await call(sandbox, 'POST', `${n()}/endpoints`, { body: { name: 'enroll-me', endpointType: 'ZTCL' } });
    const id = str(at(r.json, 'id'));
    const key = await call(sandbox, 'GET', `${n()}/endpoints/${id}/downloadRegistrationKey`);
    expect(key.status).toBe(200);
    expect(key.text).toBe(at(r.json, 'registrationKey'));
    expect(key.text).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(key.text.endsWith('\n')).toBe(false);
  });

  it('updates an endpoint (202, UPDATING then back) and deletes it (202, DELETING then gone)', async () => {
    const id = net.endpointIds[3] ?? '';
    const before = await call(sandbox, 'GET', `${n()}/endpoints/${id}`);
    const put = await call(sandbox, 'PUT', `${n()}/endpoints/${id}`, { body: { name: 'renamed', endpointType: str(at(before.json, 'endpointType')) } });
    expect(put.status).toBe(202);
    expect(at(put.json, 'status')).toBe(600);
    expect(at(put.json, 'name')).toBe('renamed');
    clock.advance();
    expect(at((await call(sandbox, 'GET', `${n()}/endpoints/${id}`)).json, 'status')).toBe(at(before.json, 'status'));
    const del = await call(sandbox, 'DELETE', `${n()}/endpoints/${id}`);
    expect([del.status, at(del.json, 'status')]).toEqual([202, 800]);
    clock.advance();
    expect((await call(sandbox, 'GET', `${n()}/endpoints/${id}`)).status).toBe(404);
  });

  it('creates a service with the usual defaults; exactly one terminator is required', async () => {
    const body = {
      name: 'web', serviceClass: 'CS', serviceInterceptType: 'IP', serviceType: 'TCP', interceptDnsHostname: 'web.internal', interceptDnsPort: 53,
      interceptFirstPort: 80, interceptLastPort: 80, networkIp: '10.9.0.5', networkFirstPort: 80, networkLastPort: 80, interceptIp: '10.9.0.5',
      endpointId: net.endpointIds[0],
    };
    const r = await call(sandbox, 'POST', `${n()}/services`, { body });
    expect(r.status).toBe(202);
    expect(r.json).toEqual(
      expect.objectContaining({
        status: 100, lowLatency: 'NO', multicast: 'OFF', dnsOptions: 'NONE', cryptoLevel: 'STRONG', collectionLocation: 'BOTH', pbrType: 'WAN',
        netflowIndex: 0, profileIndex: 0, interceptPorts: { include: [], exclude: [] }, endpointId: net.endpointIds[0], networkId: net.id,
      }),
    );
    expect((await call(sandbox, 'POST', `${n()}/services`, { body: { ...body, name: 'both', gatewayClusterId: net.gatewayClusterIds[0] } })).status).toBe(400);
    expect((await call(sandbox, 'POST', `${n()}/services`, { body: { ...body, name: 'none', endpointId: undefined } })).status).toBe(400);
    expect((await call(sandbox, 'POST', `${n()}/services`, { body: { ...body, name: 'cls', serviceClass: 'XX' } })).status).toBe(400);
    expect((await call(sandbox, 'POST', `${n()}/services`, { body: { ...body, name: 'port', networkFirstPort: 90, networkLastPort: 80 } })).status).toBe(400);
    const viaCluster = await call(sandbox, 'POST', `${n()}/services`, { body: { ...body, name: 'ha', endpointId: undefined, gatewayClusterId: net.gatewayClusterIds[0] } });
    expect(viaCluster.status).toBe(202);
    const clusterServices = list((await call(sandbox, 'GET', `${n()}/gatewayClusters/${net.gatewayClusterIds[0] ?? ''}/services`)).json, 'services');
    expect(clusterServices.map((s) => s['id'])).toContain(at(viaCluster.json, 'id'));
    const serviceId = str(at(r.json, 'id'));
    expect((await call(sandbox, 'PUT', `${n()}/services/${serviceId}`, { body: { ...body, networkLastPort: 81 } })).status).toBe(202);
    expect((await call(sandbox, 'DELETE', `${n()}/services/${serviceId}`)).status).toBe(202);
  });

  it('a redefine that fails validation (400) leaves the record exactly as it was', async () => {
    const path = `${n()}/services/${net.serviceIds[1] ?? ''}`;
    const before = (await call(sandbox, 'GET', path)).json;
    const bad: Array<Record<string, unknown>> = [
      { name: 'x', serviceClass: 'CS', endpointId: net.endpointIds[0], gatewayClusterId: net.gatewayClusterIds[0] },
      { name: 'x', serviceClass: 'CS', endpointId: 'no-such-endpoint' },
      { name: 'x', serviceClass: 'CS', networkFirstPort: 70000 },
      { serviceClass: 'CS' },
      { name: 'x', serviceClass: 'CS', lowLatency: 'MAYBE' },
    ];
    for (const body of bad) {
      const r = await call(sandbox, 'PUT', path, { body: { ...body } });
      expect([JSON.stringify(body), r.status]).toEqual([JSON.stringify(body), 400]);
    }
    expect((await call(sandbox, 'GET', path)).json).toEqual(before);
    const other = str(at((await call(sandbox, 'GET', `${n()}/endpoints/${net.endpointIds[4] ?? ''}`)).json, 'name'));
    const clash = await call(sandbox, 'PUT', `${n()}/endpoints/${net.endpointIds[5] ?? ''}`, { body: { name: other, endpointType: 'ZTCL' } });
    expect(clash.status).toBe(400);
  });

  it('answers 404 for resources of another network', async () => {
    const other = facts.networks[1];
    expect((await call(sandbox, 'GET', `/rest/v1/networks/${other?.id ?? ''}/endpoints/${net.endpointIds[0] ?? ''}`)).status).toBe(404);
    expect((await call(sandbox, 'GET', `/rest/v1/networks/nope/endpoints`)).status).toBe(404);
  });
});

describe('rest/v1 network-scoped collections', () => {
  it('certificate authorities: create 201, list, fetch, redefine 201, verify 200, delete 200', async () => {
    const r = await call(sandbox, 'POST', `${n()}/cas`, { body: { name: 'ext-ca', certPem: '-----BEGIN CERTIFICATE-----\nAA==\n-----END CERTIFICATE-----' } });
    expect(r.status).toBe(201);
    const id = str(at(r.json, 'id'));
    expect(at(r.json, 'isVerified')).toBe(false);
    expect(list((await call(sandbox, 'GET', `${n()}/cas/`)).json, 'cas').map((c) => c['id'])).toContain(id);
    expect((await call(sandbox, 'PUT', `${n()}/cas/${id}`, { body: { name: 'ext-ca', certPem: 'PEM2' } })).status).toBe(201);
    const verified = await call(sandbox, 'POST', `${n()}/cas/${id}/verify`);
    expect([verified.status, at(verified.json, 'isVerified'), at(verified.json, 'issuerCertificate')]).toEqual([200, true, 'PEM2']);
    expect((await call(sandbox, 'DELETE', `${n()}/cas/${id}`)).status).toBe(200);
    expect((await call(sandbox, 'POST', `${n()}/cas`, { body: { name: 'no-pem' } })).status).toBe(400);
  });

  it('endpoint groups: create 201, add/remove endpoints 202, list members, delete 202 keeps endpoints', async () => {
    const r = await call(sandbox, 'POST', `${n()}/endpointGroups`, { body: { name: 'new-group' } });
    expect(r.status).toBe(201);
    const id = str(at(r.json, 'id'));
    const ids = net.endpointIds.slice(4, 6);
    expect((await call(sandbox, 'POST', `${n()}/endpointGroups/${id}/endpoints`, { body: { ids } })).status).toBe(202);
    const members = list((await call(sandbox, 'GET', `${n()}/endpointGroups/${id}/endpoints`)).json, 'endpoints');
    expect(members.map((m) => m['id']).sort()).toEqual([...ids].sort());
    const ofEndpoint = list((await call(sandbox, 'GET', `${n()}/endpoints/${ids[0] ?? ''}/endpointGroups`)).json, 'endpointGroups');
    expect(ofEndpoint.map((g) => g['id'])).toContain(id);
    expect((await call(sandbox, 'POST', `${n()}/endpointGroups/${id}/endpoints`, { body: { ids: ['nope'] } })).status).toBe(400);
    expect((await call(sandbox, 'DELETE', `${n()}/endpointGroups/${id}/endpoints`, { body: { ids: ids.slice(0, 1) } })).status).toBe(202);
    expect(list((await call(sandbox, 'GET', `${n()}/endpointGroups/${id}/endpoints`)).json, 'endpoints')).toHaveLength(1);
    expect((await call(sandbox, 'PUT', `${n()}/endpointGroups/${id}`, { body: { name: 'renamed-group' } })).status).toBe(200);
    expect((await call(sandbox, 'DELETE', `${n()}/endpointGroups/${id}`)).status).toBe(202);
    expect((await call(sandbox, 'GET', `${n()}/endpoints/${ids[0] ?? ''}`)).status).toBe(200);
  });

  it('gateway clusters: list (200), create (202), members, redefine and delete (202)', async () => {
    const clusters = list((await call(sandbox, 'GET', `${n()}/gatewayClusters`)).json, 'gatewayClusters');
    expect(clusters.map((c) => c['id'])).toEqual(net.gatewayClusterIds);
    const members = list((await call(sandbox, 'GET', `${n()}/gatewayClusters/${net.gatewayClusterIds[0] ?? ''}/endpoints`)).json, 'endpoints');
    expect(members.map((m) => m['id'])).toEqual(net.endpointIds.slice(0, 2));
    const r = await call(sandbox, 'POST', `${n()}/gatewayClusters`, { body: { name: 'ha-2' } });
    expect(r.status).toBe(202);
    const id = str(at(r.json, 'id'));
    expect((await call(sandbox, 'PUT', `${n()}/gatewayClusters/${id}`, { body: { name: 'ha-3' } })).status).toBe(202);
    expect((await call(sandbox, 'DELETE', `${n()}/gatewayClusters/${id}`)).status).toBe(202);
  });

  it.each([
    ['transferNodePools', 'transferNodePools'],
    ['serviceGroups', 'serviceGroups'],
  ])('%s: list and fetch one', async (segment, plural) => {
    const items = list((await call(sandbox, 'GET', `${n()}/${segment}`)).json, plural);
    expect(items.length).toBeGreaterThan(0);
    const id = str(items[0]?.['id']);
    expect(at((await call(sandbox, 'GET', `${n()}/${segment}/${id}`)).json, 'networkId')).toBe(net.id);
  });

  it('network-group wide endpoints and services cover every network of the group', async () => {
    const org = facts.organizationIds[0] ?? '';
    const eps = list((await call(sandbox, 'GET', `/rest/v1/networkgroups/${org}/endpoints`)).json, 'endpoints');
    const nets = new Set(eps.map((e) => e['networkId']));
    expect(nets).toEqual(new Set(facts.networkIds));
    const svcs = list((await call(sandbox, 'GET', `/rest/v1/networkgroups/${org}/services`)).json, 'services');
    expect(svcs.length).toBeGreaterThanOrEqual(facts.networks.reduce((sum, x) => sum + x.serviceIds.length, 0) - 1);
    expect((await call(sandbox, 'GET', `/rest/v1/networkgroups/nope/endpoints`)).status).toBe(404);
  });
});
