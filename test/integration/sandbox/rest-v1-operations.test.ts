import type { RestV1Facts, RunningSandbox } from '../../../src/sandbox';
import { at, call, list, records, str, withSandbox } from './sandbox-client';

let sandbox: RunningSandbox;
let facts: RestV1Facts;
let paths: string[];

beforeAll(async () => {
  sandbox = await withSandbox();
  facts = sandbox.restFacts();
  const net = facts.networks[0];
  if (net === undefined) throw new Error('no seeded network');
  const n = `/rest/v1/networks/${net.id}`;
  const firstId = async (path: string, plural: string): Promise<string> => str(list((await call(sandbox, 'GET', path)).json, plural)[0]?.['id']);
  const caId = await firstId(`${n}/cas/`, 'cas');
  const poolId = await firstId(`${n}/transferNodePools`, 'transferNodePools');
  const serviceGroupId = await firstId(`${n}/serviceGroups`, 'serviceGroups');
  const subscriptionId = facts.cloudSubscriptionIds[0] ?? '';
  const e = net.endpointIds[2] ?? '';
  const s = net.serviceIds[0] ?? '';
  const a = net.appWanIds[0] ?? '';
  const g = net.endpointGroupIds[0] ?? '';
  const c = net.gatewayClusterIds[0] ?? '';
  const org = facts.organizationIds[0] ?? '';
  // Every GET the network-management API offers (and identity/v1), with seeded ids.
  paths = [
    '/rest/v1/azureSubscriptions', `/rest/v1/azureSubscriptions/${subscriptionId}`, `/rest/v1/azureSubscriptions/${subscriptionId}/virtualWanSites`,
    '/rest/v1/dataCenters', `/rest/v1/dataCenters/${facts.dataCenterIds[0] ?? ''}`, '/rest/v1/geoRegions', `/rest/v1/geoRegions/${facts.geoRegionIds[0] ?? ''}`,
    '/rest/v1/hosts', `/rest/v1/hosts/${facts.hostIds[0] ?? ''}`, '/rest/v1/network-processes', '/rest/v1/networkConfigMetadata',
    `/rest/v1/networkConfigMetadata/${facts.networkConfigMetadataIds[0] ?? ''}`, `/rest/v1/networkgroups/${org}/endpoints`, `/rest/v1/networkgroups/${org}/services`,
    '/rest/v1/network-groups/', '/rest/v1/networks', n, `${n}/appWan-processes`, `${n}/appWans`, `${n}/appWans/${a}`, `${n}/appWans/${a}/blueprint`,
    `${n}/blueprint`, `${n}/cas/`, `${n}/cas/${caId}`, `${n}/endpointGroups`, `${n}/endpointGroups/${g}`, `${n}/endpoints`, `${n}/endpoints/${e}`,
    `${n}/endpoints/${e}/appWans`, `${n}/endpoints/${e}/endpointGroups`, `${n}/endpoints/${e}/services`, `${n}/gatewayClusters`, `${n}/gatewayClusters/${c}`,
    `${n}/gatewayClusters/${c}/endpoints`, `${n}/gatewayClusters/${c}/services`, `${n}/networkConfigMetadata`, `${n}/networkControllerHosts`,
    `${n}/serviceGroups`, `${n}/serviceGroups/${serviceGroupId}`, `${n}/services`, `${n}/services/${s}`, `${n}/services/${s}/appWans`,
    `${n}/transferNodePools`, `${n}/transferNodePools/${poolId}`, `${n}/appWans/${a}/endpoints`, `${n}/appWans/${a}/endpointGroups`, `${n}/appWans/${a}/services`,
    `/rest/v1/organizations/${org}`, '/rest/v1/organizations', '/rest/v1/workflow-status', `${n}/virtualWanSites`, '/identity/v1/organization',
  ];
  paths.push(`/rest/v1/workflow-status/${net.appWanProcessKey ?? ''}`, `/rest/v1/network-processes/${net.appWanProcessKey ?? ''}`,
    `${n}/appWan-processes/${net.appWanProcessKey ?? ''}`);
  const billing = str(at((await call(sandbox, 'GET', `/rest/v1/organizations/${org}`)).json, 'billingAccountId'));
  paths.push(`/rest/v1/organizations/billing-accounts/${billing}`);
  const registrationPending = (await call(sandbox, 'GET', `${n}/endpoints?size=200`)).json;
  const unregistered = list(registrationPending, 'endpoints').find((x) => typeof x['registrationKey'] === 'string');
  if (unregistered !== undefined) paths.push(`${n}/endpoints/${str(unregistered['id'])}/downloadRegistrationKey`);
});
afterAll(() => sandbox.close());

describe('rest/v1 every read operation', () => {
  it('answers 200 to the admin for every GET of the operation table', async () => {
    for (const path of paths) {
      const r = await call(sandbox, 'GET', path);
      expect([path, r.status]).toEqual([path, 200]);
    }
  });

  it('answers 401 without a token and 403 to an identity without grants (identity/v1 excepted)', async () => {
    for (const path of paths) {
      expect([path, (await call(sandbox, 'GET', path, { token: null })).status]).toEqual([path, 401]);
      const expected = path === '/identity/v1/organization' ? 200 : 403;
      expect([path, (await call(sandbox, 'GET', path, { token: sandbox.tokens.nobody })).status]).toEqual([path, expected]);
    }
  });

  it('every _links href in every answer resolves', async () => {
    const hrefs = new Set<string>();
    const collect = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(collect);
      else if (typeof value === 'object' && value !== null) {
        for (const [key, v] of Object.entries(value)) {
          if (key === 'href' && typeof v === 'string') hrefs.add(v);
          else collect(v);
        }
      }
    };
    for (const path of paths) collect((await call(sandbox, 'GET', path)).json);
    // One href per shape (ids and query values blanked) keeps the file fast.
    const byShape = new Map<string, string>();
    for (const href of hrefs) {
      const shape = href.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '{id}').replace(/=[^&]*/g, '=');
      if (!byShape.has(shape)) byShape.set(shape, href);
    }
    expect(byShape.size).toBeGreaterThan(40);
    for (const href of byShape.values()) {
      expect(href.startsWith(sandbox.baseUrl)).toBe(true);
      const r = await call(sandbox, 'GET', href.slice(sandbox.baseUrl.length));
      expect([href, r.status]).toEqual([href, 200]);
    }
  });
});

describe('rest/v1 seeded process history', () => {
  it('each network has a completed AppWAN process, listed by workflow-status but not as running', async () => {
    const key = facts.networks[0]?.appWanProcessKey ?? '';
    const wf = await call(sandbox, 'GET', `/rest/v1/workflow-status/${key}`);
    expect(records(at(wf.json, 0, 'data')).map((s) => s['status'])).toEqual(['Completed', 'Completed', 'Completed']);
    const all = records((await call(sandbox, 'GET', '/rest/v1/workflow-status')).json).map((p) => p['businessKey']);
    expect(all).toEqual(expect.arrayContaining(facts.networks.map((x) => x.appWanProcessKey)));
    const running = records((await call(sandbox, 'GET', '/rest/v1/network-processes')).json).map((p) => p['businessKey']);
    expect(running).not.toContain(key);
  });
});

describe('rest/v1 AppWAN endpoint groups', () => {
  it('authorizing a group makes its endpoints members of the AppWAN (via the group), deauthorizing removes them', async () => {
    const net = facts.networks[1];
    if (net === undefined) throw new Error('no second network');
    const n = `/rest/v1/networks/${net.id}`;
    const appWan = str(at((await call(sandbox, 'POST', `${n}/appWans`, { body: { name: 'via-group' } })).json, 'id'));
    const group = str(at((await call(sandbox, 'POST', `${n}/endpointGroups`, { body: { name: 'g-via' } })).json, 'id'));
    const endpoint = net.endpointIds[5] ?? '';
    await call(sandbox, 'POST', `${n}/endpointGroups/${group}/endpoints`, { body: { ids: [endpoint] } });
    const add = await call(sandbox, 'POST', `${n}/appWans/${appWan}/endpointGroups`, { body: { ids: [group] } });
    expect([add.status, typeof at(add.json, 'businessKey')]).toEqual([202, 'string']);
    expect(list((await call(sandbox, 'GET', `${n}/appWans/${appWan}/endpointGroups`)).json, 'endpointGroups').map((x) => x['id'])).toEqual([group]);
    const ofEndpoint = async (): Promise<unknown[]> => list((await call(sandbox, 'GET', `${n}/endpoints/${endpoint}/appWans`)).json, 'appWans').map((x) => x['id']);
    expect(await ofEndpoint()).toContain(appWan);
    expect((await call(sandbox, 'DELETE', `${n}/appWans/${appWan}/endpointGroups`, { body: { ids: [group] } })).status).toBe(202);
    expect(await ofEndpoint()).not.toContain(appWan);
  });
});

describe('rest/v1 every change operation', () => {
  it('answers 403 to the reader and to nobody, and 401 without a token, before changing anything', async () => {
    const net = facts.networks[0];
    if (net === undefined) throw new Error('no seeded network');
    const n = `/rest/v1/networks/${net.id}`;
    const sub = `/rest/v1/azureSubscriptions/${facts.cloudSubscriptionIds[0] ?? ''}`;
    const a = `${n}/appWans/${net.appWanIds[0] ?? ''}`;
    const g = `${n}/endpointGroups/${net.endpointGroupIds[0] ?? ''}`;
    const ops: Array<[string, string]> = [
      ['POST', '/rest/v1/azureSubscriptions'], ['PUT', sub], ['DELETE', sub], ['POST', `${sub}/virtualWanSites`], ['DELETE', `${sub}/virtualWanSites/x`],
      ['POST', '/rest/v1/networkConfigMetadata'], ['PUT', `/rest/v1/networkConfigMetadata/${facts.networkConfigMetadataIds[0] ?? ''}`],
      ['DELETE', `/rest/v1/networkConfigMetadata/${facts.networkConfigMetadataIds[0] ?? ''}`], ['POST', '/rest/v1/networks'], ['PUT', n], ['DELETE', n],
      ['POST', `${n}/appWans`], ['PUT', a], ['DELETE', a], ['POST', `${n}/cas`], ['PUT', `${n}/cas/x`], ['DELETE', `${n}/cas/x`], ['POST', `${n}/cas/x/verify`],
      ['POST', `${n}/endpointGroups`], ['PUT', g], ['DELETE', g], ['POST', `${g}/endpoints`], ['DELETE', `${g}/endpoints`],
      ['POST', `${n}/endpoints`], ['PUT', `${n}/endpoints/${net.endpointIds[0] ?? ''}`], ['DELETE', `${n}/endpoints/${net.endpointIds[0] ?? ''}`],
      ['POST', `${n}/gatewayClusters`], ['PUT', `${n}/gatewayClusters/x`], ['DELETE', `${n}/gatewayClusters/x`],
      ['POST', `${n}/services`], ['PUT', `${n}/services/${net.serviceIds[0] ?? ''}`], ['DELETE', `${n}/services/${net.serviceIds[0] ?? ''}`],
      ['POST', `${a}/endpoints`], ['POST', `${a}/endpointGroups`], ['POST', `${a}/services`], ['DELETE', `${a}/endpoints`], ['DELETE', `${a}/endpointGroups`], ['DELETE', `${a}/services`],
      ['PUT', `/rest/v1/organizations/${facts.organizationIds[0] ?? ''}`], ['POST', `/rest/v1/organizations/${facts.organizationIds[0] ?? ''}/networks`],
    ];
    const before = (await call(sandbox, 'GET', `${n}/endpoints?size=200`)).text;
    for (const [method, path] of ops) {
      for (const token of [sandbox.tokens.reader, sandbox.tokens.nobody]) {
        const r = await call(sandbox, method, path, { token, body: { name: 'x', ids: ['x'] } });
        expect([method, path, r.status]).toEqual([method, path, 403]);
      }
      expect([method, path, (await call(sandbox, method, path, { token: null, body: {} })).status]).toEqual([method, path, 401]);
    }
    expect((await call(sandbox, 'GET', `${n}/endpoints?size=200`)).text).toBe(before);
  });
});
