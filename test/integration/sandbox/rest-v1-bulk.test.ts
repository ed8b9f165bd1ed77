import { load } from 'js-yaml';
import { ManualClock, type RestV1Facts, type RunningSandbox } from '../../../src/sandbox';
import { at, call, keys, list, records, str, strings, firstNetwork, withSandbox } from './sandbox-client';

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
const count = async (path: string, plural: string): Promise<number> => list((await call(sandbox, 'GET', `${path}?size=200`)).json, plural).length;
const csv = (path: string, text: string): ReturnType<typeof call> => call(sandbox, 'POST', path, { rawBody: text, contentType: 'text/csv' });

describe('rest/v1 AppWANs', () => {
  it('creates an empty AppWAN (202, status 100), adds members (202 + businessKey, 600), reaches 300 when the process completes', async () => {
    const r = await call(sandbox, 'POST', `${n()}/appWans`, { body: { name: 'new-appwan' } });
    expect(r.status).toBe(202);
    expect(r.json).toEqual(expect.objectContaining({ name: 'new-appwan', status: 100, networkId: net.id }));
    expect(keys(at(r.json, '_links'))).toEqual(['endpointGroups', 'endpoints', 'network', 'self', 'services']);
    const id = str(at(r.json, 'id'));
    const add = await call(sandbox, 'POST', `${n()}/appWans/${id}/endpoints`, { body: { ids: net.endpointIds.slice(2, 4) } });
    expect(add.status).toBe(202);
    const businessKey = str(at(add.json, 'businessKey'));
    expect(at(add.json, 'appWan', 'status')).toBe(600);
    const svc = await call(sandbox, 'POST', `${n()}/appWans/${id}/services`, { body: { ids: net.serviceIds.slice(0, 1) } });
    expect([svc.status, at(svc.json, 'appWan', 'status')]).toEqual([202, 600]);

    const members = list((await call(sandbox, 'GET', `${n()}/appWans/${id}/endpoints`)).json, 'endpoints').map((e) => e['id']);
    expect(members.sort()).toEqual(net.endpointIds.slice(2, 4).sort());
    expect(list((await call(sandbox, 'GET', `${n()}/appWans/${id}/services`)).json, 'services').map((s) => s['id'])).toEqual(net.serviceIds.slice(0, 1));
    const ofEndpoint = list((await call(sandbox, 'GET', `${n()}/endpoints/${net.endpointIds[2] ?? ''}/appWans`)).json, 'appWans').map((a) => a['id']);
    expect(ofEndpoint).toContain(id);
    const reachable = list((await call(sandbox, 'GET', `${n()}/endpoints/${net.endpointIds[2] ?? ''}/services`)).json, 'services').map((s) => s['id']);
    expect(reachable).toContain(net.serviceIds[0]);
    const ofService = list((await call(sandbox, 'GET', `${n()}/services/${net.serviceIds[0] ?? ''}/appWans`)).json, 'appWans').map((a) => a['id']);
    expect(ofService).toContain(id);

    // The process is visible under every process path while it runs, in the shapes the API answers.
    const wf = await call(sandbox, 'GET', `/rest/v1/workflow-status/${businessKey}`);
    expect(wf.status).toBe(200);
    expect(at(wf.json, 0)).toEqual(expect.objectContaining({ businessKey, processDefinitionKey: 'AppWanUpdate', total: 3 }));
    expect(at(wf.json, 0, 'data', 0)).toEqual(
      expect.objectContaining({ task: expect.any(String), status: expect.stringMatching(/^(InProgress|Completed)$/), calledProcessInstanceId: expect.any(String), executionStatus: expect.any(String) }),
    );
    const np = await call(sandbox, 'GET', `/rest/v1/network-processes/${businessKey}`);
    expect(at(np.json, 0)).toEqual(expect.objectContaining({ businessKey, processDefinitionKey: 'AppWanUpdate', processInstanceId: expect.any(String) }));
    expect(Array.isArray(at(np.json, 0, 'workFlowStatus'))).toBe(true);
    const running = (await call(sandbox, 'GET', '/rest/v1/network-processes')).json;
    expect(Array.isArray(running) && running.some((p) => at(p, 'businessKey') === businessKey)).toBe(true);
    const awp = await call(sandbox, 'GET', `${n()}/appWan-processes`);
    expect(Array.isArray(awp.json) && awp.json.map((p) => at(p, 'businessKey'))).toEqual(expect.arrayContaining([businessKey]));
    expect((await call(sandbox, 'GET', `${n()}/appWan-processes/${businessKey}`)).status).toBe(200);

    const stepStatuses = async (): Promise<unknown[]> =>
      records(at((await call(sandbox, 'GET', `/rest/v1/workflow-status/${businessKey}`)).json, 0, 'data')).map((x) => x['status']);
    expect(await stepStatuses()).toEqual(['InProgress']);
    clock.advance();
    expect(await stepStatuses()).toEqual(['Completed', 'InProgress']);
    expect(at((await call(sandbox, 'GET', `${n()}/appWans/${id}`)).json, 'status')).toBe(600);
    clock.advance(2000);
    const done = await call(sandbox, 'GET', `/rest/v1/workflow-status/${businessKey}`);
    const steps = records(at(done.json, 0, 'data'));
    expect(steps.map((s) => s['status'])).toEqual(['Completed', 'Completed', 'Completed']);
    expect(at((await call(sandbox, 'GET', `${n()}/appWans/${id}`)).json, 'status')).toBe(300);
    const stillRunning = (await call(sandbox, 'GET', '/rest/v1/network-processes')).json;
    expect(Array.isArray(stillRunning) && stillRunning.some((p) => at(p, 'businessKey') === businessKey)).toBe(false);

    const removed = await call(sandbox, 'DELETE', `${n()}/appWans/${id}/endpoints`, { body: { ids: net.endpointIds.slice(2, 3) } });
    expect(removed.status).toBe(202);
    expect(list((await call(sandbox, 'GET', `${n()}/appWans/${id}/endpoints`)).json, 'endpoints')).toHaveLength(1);
  });

  it('rejects member ids of another kind or network (400) without changing the AppWAN', async () => {
    const id = net.appWanIds[0] ?? '';
    const before = await count(`${n()}/appWans/${id}/endpoints`, 'endpoints');
    const bad = await call(sandbox, 'POST', `${n()}/appWans/${id}/endpoints`, { body: { ids: [net.endpointIds[5], net.serviceIds[0]] } });
    expect(bad.status).toBe(400);
    expect((await call(sandbox, 'POST', `${n()}/appWans/${id}/endpoints`, { body: { ids: [] } })).status).toBe(400);
    expect((await call(sandbox, 'POST', `${n()}/appWans/${id}/endpoints`, { body: { nope: 1 } })).status).toBe(400);
    expect(await count(`${n()}/appWans/${id}/endpoints`, 'endpoints')).toBe(before);
    expect((await call(sandbox, 'GET', '/rest/v1/workflow-status/no-such-key')).status).toBe(404);
  });

  it('downloads an AppWAN blueprint, redefines (200) and destroys (202) an AppWAN', async () => {
    const id = net.appWanIds[0] ?? '';
    const y = await call(sandbox, 'GET', `${n()}/appWans/${id}/blueprint`);
    expect(y.status).toBe(200);
    expect(y.headers.get('content-type')).toContain('yaml');
    const doc = load(y.text);
    const members = await count(`${n()}/appWans/${id}/endpoints`, 'endpoints');
    expect(strings(at(doc, 'appWan', 'endpoints')).length).toBe(members);
    expect((await call(sandbox, 'PUT', `${n()}/appWans/${id}`, { body: { name: 'renamed-appwan' } })).status).toBe(200);
    const del = await call(sandbox, 'DELETE', `${n()}/appWans/${id}`);
    expect([del.status, at(del.json, 'status')]).toEqual([202, 800]);
    clock.advance();
    expect((await call(sandbox, 'GET', `${n()}/appWans/${id}`)).status).toBe(404);
  });
});

describe('rest/v1 CSV uploads', () => {
  it('creates endpoints from CSV: 202 { businessKey, endpoints }', async () => {
    const before = await count(`${n()}/endpoints`, 'endpoints');
    const r = await csv(`${n()}/endpoints`, 'NAME,ENDPOINTTYPE,GEOREGION,DATACENTER,PROVIDER\ncsv-1,ZTCL,Europe West,,\n"csv-2",GW,,Ireland,AWS\r\n');
    expect(r.status).toBe(202);
    expect(str(at(r.json, 'businessKey')).length).toBeGreaterThan(0);
    const created = list({ _embedded: { endpoints: at(r.json, 'endpoints') } }, 'endpoints');
    expect(created.map((e) => [e['name'], e['endpointType'], e['status']])).toEqual([['csv-1', 'ZTCL', 100], ['csv-2', 'GW', 100]]);
    expect(created[1]?.['dataCenterId']).toBe(facts.dataCenterIds[2]);
    expect(await count(`${n()}/endpoints`, 'endpoints')).toBe(before + 2);
  });

  it.each([
    ['a missing required value', 'NAME,ENDPOINTTYPE\nok-1,ZTCL\n,ZTCL\n', /row 3, column NAME/],
    ['a lowercase endpoint type', 'NAME,ENDPOINTTYPE\nok-1,ZTCL\nbad,zt cl\n', /row 3, column ENDPOINTTYPE/],
    ['an unknown region', 'NAME,ENDPOINTTYPE,GEOREGION\nok-1,ZTCL,Mars\n', /row 2, column GEOREGION/],
    ['a name used twice', 'NAME,ENDPOINTTYPE\ndup,ZTCL\ndup,GW\n', /row 3, column NAME/],
    ['an existing name', 'NAME,ENDPOINTTYPE\ncsv-1,ZTCL\n', /row 2, column NAME/],
    ['a missing column', 'NAME\nonly-name\n', /missing required column ENDPOINTTYPE/],
    ['an unknown heading', 'NAME,ENDPOINTTYPE,COLOR\nx,GW,red\n', /row 1, column 3/],
    ['a short row', 'NAME,ENDPOINTTYPE\nx\n', /row 2/],
  ])('rejects an endpoint CSV with %s (400 naming row/column) and creates nothing', async (_, text, message) => {
    const before = await count(`${n()}/endpoints`, 'endpoints');
    const r = await csv(`${n()}/endpoints`, text);
    expect(r.status).toBe(400);
    expect(str(at(r.json, 'message'))).toMatch(message);
    expect(await count(`${n()}/endpoints`, 'endpoints')).toBe(before);
  });

  it('creates services from CSV and rejects a bad row naming row and column', async () => {
    const gw = (await call(sandbox, 'GET', `${n()}/endpoints/${net.endpointIds[0] ?? ''}`)).json;
    const gwName = str(at(gw, 'name'));
    const head = 'NAME,STATUS,TYPE,PROTOCOLSTRING,IPADDRESSSTRING,INTERCEPTADDRESS,PORTRANGE,ENDPOINT';
    const ok = await csv(`${n()}/services`, `${head}\nsvc-a,,CS,TCP,10.0.0.5,,443,${gwName}\nsvc-b,ignored,GW,ALL,10.1.0.0/24,100.64.0.1,8000-8080,${gwName}\n`);
    expect(ok.status).toBe(202);
    const services = records(at(ok.json, 'services'));
    expect(services.map((s) => [s['name'], s['serviceClass'], s['serviceType'], s['networkFirstPort'], s['networkLastPort']])).toEqual([
      ['svc-a', 'CS', 'TCP', 443, 443],
      ['svc-b', 'GW', 'ALL', 8000, 8080],
    ]);
    expect(services[1]?.['networkNetmask']).toBe('255.255.255.0');
    const before = await count(`${n()}/services`, 'services');
    const cases: Array<[string, RegExp]> = [
      [`${head}\nsvc-c,,CS,TCP,10.0.0.999,,443,${gwName}\n`, /row 2, column IPADDRESSSTRING/],
      [`${head}\nsvc-c,,CS,TCP,10.0.0.9,,443,${gwName}\nsvc-d,,CS,SCTP,10.0.0.9,,443,${gwName}\n`, /row 3, column PROTOCOLSTRING/],
      [`${head}\nsvc-c,,CS,TCP,10.0.0.9,,9-1,${gwName}\n`, /row 2, column PORTRANGE/],
      [`${head}\nsvc-c,,CS,TCP,10.0.0.9,,80,no-such-endpoint\n`, /row 2, column ENDPOINT/],
      [`${head}\nsvc-c,,XX,TCP,10.0.0.9,,80,${gwName}\n`, /row 2, column TYPE/],
    ];
    for (const [text, message] of cases) {
      const r = await csv(`${n()}/services`, text);
      expect([r.status, str(at(r.json, 'message'))]).toEqual([400, expect.stringMatching(message)]);
    }
    expect(await count(`${n()}/services`, 'services')).toBe(before);
  });
});

describe('rest/v1 blueprints', () => {
  it('round-trips a network through its YAML blueprint', async () => {
    const y = await call(sandbox, 'GET', `${n()}/blueprint`);
    expect(y.status).toBe(200);
    const doc = load(y.text);
    expect(at(doc, 'network', 'name')).toBe('production');
    const endpointCount = await count(`${n()}/endpoints`, 'endpoints');
    const serviceCount = await count(`${n()}/services`, 'services');
    const appWanCount = await count(`${n()}/appWans`, 'appWans');
    expect(records(at(doc, 'endpoints')).length).toBe(endpointCount);

    const copy = y.text.replace(/^(\s*)name: production$/m, '$1name: production-copy');
    const org = facts.organizationIds[0] ?? '';
    const r = await call(sandbox, 'POST', `/rest/v1/organizations/${org}/networks`, { rawBody: copy, contentType: 'application/x-yaml' });
    expect(r.status).toBe(202);
    const businessKey = str(at(r.json, 'businessKey'));
    expect(at(r.json, 'network')).toEqual(expect.objectContaining({ name: 'production-copy', status: 100, organizationId: org }));
    const id = str(at(r.json, 'network', 'id'));
    const m = `/rest/v1/networks/${id}`;
    expect(await count(`${m}/endpoints`, 'endpoints')).toBe(endpointCount);
    expect(await count(`${m}/services`, 'services')).toBe(serviceCount);
    expect(await count(`${m}/appWans`, 'appWans')).toBe(appWanCount);
    // Downloading the copy gives the same document apart from the name.
    const again = await call(sandbox, 'GET', `${m}/blueprint`);
    expect(load(again.text)).toEqual(load(copy));
    const wf = await call(sandbox, 'GET', `/rest/v1/workflow-status/${businessKey}`);
    expect(at(wf.json, 0, 'processDefinitionKey')).toBe('CreateNetworkFromBlueprint');
  });

  it.each([
    ['not YAML', 'network: [unclosed', /not valid YAML/],
    ['no network', 'endpoints: []', /network/],
    ['an endpoint without type', 'network: { name: x1 }\nendpoints:\n  - name: e1\n', /endpoints\[0\].*endpointType/],
    ['an unknown member', 'network: { name: x2 }\nappWans:\n  - name: a\n    endpoints: [ghost]\n', /appWans\[0\]\.endpoints/],
    ['a service with an unknown endpoint', 'network: { name: x3 }\nservices:\n  - { name: s, serviceClass: CS, endpoint: ghost }\n', /services\[0\]\.endpoint/],
  ])('rejects a blueprint with %s (400) and creates nothing', async (_, text, message) => {
    const before = await count('/rest/v1/networks', 'networks');
    const r = await call(sandbox, 'POST', `/rest/v1/organizations/${facts.organizationIds[0] ?? ''}/networks`, { rawBody: text, contentType: 'application/x-yaml' });
    expect(r.status).toBe(400);
    expect(str(at(r.json, 'message'))).toMatch(message);
    expect(await count('/rest/v1/networks', 'networks')).toBe(before);
  });
});
