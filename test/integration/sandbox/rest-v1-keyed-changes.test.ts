import { ManualClock, type RestV1Facts, type RunningSandbox } from '../../../src/sandbox';
import { at, call, firstNetwork, records, str, withSandbox } from './sandbox-client';

let sandbox: RunningSandbox;
let net: RestV1Facts['networks'][number];
const clock = new ManualClock(1000);

beforeAll(async () => {
  sandbox = await withSandbox({ clock });
  net = firstNetwork(sandbox.restFacts());
});
afterAll(() => sandbox.close());

const n = (): string => `/rest/v1/networks/${net.id}`;
const get = async (path: string): Promise<unknown> => (await call(sandbox, 'GET', path)).json;
const steps = async (key: string): Promise<unknown[]> => records(at(await get(`/rest/v1/workflow-status/${key}`), 0, 'data')).map((s) => s['status']);
const running = async (): Promise<unknown[]> => records(await get('/rest/v1/network-processes')).map((p) => p['businessKey']);

describe('rest/v1 keyed changes: PUT and DELETE of endpoints, services and AppWANs carry a businessKey', () => {
  it.each([
    ['endpoint', 'UpdateEndpoint', 'endpoints', () => net.endpointIds[2] ?? '', { name: 'keyed-endpoint', endpointType: 'ZTCL' }],
    ['service', 'UpdateService', 'services', () => net.serviceIds[1] ?? '', { name: 'keyed-service', serviceClass: 'CS' }],
  ])('PUT %s: 202 with the entity and a top-level businessKey; UPDATING until %s completes on the clock', async (_, definition, segment, id, body) => {
    const path = `${n()}/${segment}/${id()}`;
    const before = at(await get(path), 'status');
    // A service names its terminator; the seeded network's first endpoint is a gateway.
    const put = await call(sandbox, 'PUT', path, { body: { ...body, ...(segment === 'services' ? { endpointId: net.endpointIds[0] } : {}) } });
    expect(put.status).toBe(202);
    const key = str(at(put.json, 'businessKey'));
    expect(put.json).toEqual(expect.objectContaining({ id: id(), name: body.name, status: 600, networkId: net.id }));
    expect(at(put.json, '_links', 'self', 'href')).toBe(`${sandbox.baseUrl}${path}`);

    const wf = await get(`/rest/v1/workflow-status/${key}`);
    expect(at(wf, 0)).toEqual(expect.objectContaining({ businessKey: key, processDefinitionKey: definition, total: 1, size: 1 }));
    expect(at(wf, 0, 'data', 0)).toEqual(expect.objectContaining({ status: 'InProgress', executionStatus: 'ACTIVE', task: expect.any(String) }));
    const np = await get(`/rest/v1/network-processes/${key}`);
    expect(at(np, 0)).toEqual(expect.objectContaining({ businessKey: key, processDefinitionKey: definition, processInstanceId: expect.any(String) }));
    expect(await running()).toContain(key);

    clock.advance();
    expect(await steps(key)).toEqual(['Completed']);
    expect(at(await get(`/rest/v1/workflow-status/${key}`), 0, 'data', 0, 'executionStatus')).toBe('COMPLETED');
    expect(at(await get(path), 'status')).toBe(before);
    expect(await running()).not.toContain(key);
  });

  it.each([
    ['endpoint', 'DeleteEndpoint', 'endpoints', () => net.endpointIds[5] ?? ''],
    ['service', 'DeleteService', 'services', () => net.serviceIds[2] ?? ''],
    ['AppWAN', 'DeleteAppWan', 'appWans', () => net.appWanIds[1] ?? ''],
  ])('DELETE %s: 202 with the entity (DELETING) and a businessKey; gone when %s completes; asking again answers the same key', async (_, definition, segment, id) => {
    const path = `${n()}/${segment}/${id()}`;
    const del = await call(sandbox, 'DELETE', path);
    expect(del.status).toBe(202);
    expect(del.json).toEqual(expect.objectContaining({ id: id(), status: 800 }));
    const key = str(at(del.json, 'businessKey'));
    expect(at(await get(`/rest/v1/workflow-status/${key}`), 0, 'processDefinitionKey')).toBe(definition);
    expect(await steps(key)).toEqual(['InProgress']);
    const again = await call(sandbox, 'DELETE', path);
    expect([again.status, at(again.json, 'businessKey')]).toEqual([202, key]);
    if (segment === 'appWans') {
      const listed = records(await get(`${n()}/appWan-processes`)).map((p) => p['businessKey']);
      expect(listed).toContain(key);
      expect(at(await get(`${n()}/appWan-processes/${key}`), 0, 'processDefinitionKey')).toBe('DeleteAppWan');
    }
    clock.advance();
    expect(await steps(key)).toEqual(['Completed']);
    expect((await call(sandbox, 'GET', path)).status).toBe(404);
    // The process outlives its entity.
    expect(at(await get(`/rest/v1/network-processes/${key}`), 0, 'businessKey')).toBe(key);
  });

  it('two redefines in quick succession: the entity goes back to its status once, after the second one', async () => {
    const path = `${n()}/endpoints/${net.endpointIds[3] ?? ''}`;
    const before = at(await get(path), 'status');
    const first = await call(sandbox, 'PUT', path, { body: { name: 'twice-1', endpointType: 'ZTCL' } });
    clock.advance(500);
    const second = await call(sandbox, 'PUT', path, { body: { name: 'twice-2', endpointType: 'ZTCL' } });
    expect(at(second.json, 'businessKey')).not.toBe(at(first.json, 'businessKey'));
    clock.advance(500);
    expect(at(await get(path), 'status')).toBe(600); // the first is done, the second is not
    clock.advance(500);
    expect(await get(path)).toEqual(expect.objectContaining({ name: 'twice-2', status: before }));
  });

  it('creates carry no businessKey, and the AppWAN redefine stays a 200 without one (the table says 200)', async () => {
    const created = [
      await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: 'keyless' } }),
      await call(sandbox, 'POST', `${n()}/endpoints`, { body: { name: 'keyless-ep', endpointType: 'ZTCL' } }),
      await call(sandbox, 'POST', `${n()}/services`, { body: { name: 'keyless-svc', serviceClass: 'CS', endpointId: net.endpointIds[0] } }),
      await call(sandbox, 'POST', `${n()}/appWans`, { body: { name: 'keyless-aw' } }),
    ];
    for (const r of created) {
      expect(r.status).toBe(202);
      expect(r.json).toEqual(expect.objectContaining({ status: 100 }));
      expect(r.json).not.toHaveProperty('businessKey');
    }
    const appWan = str(at(created[3]?.json, 'id'));
    const put = await call(sandbox, 'PUT', `${n()}/appWans/${appWan}`, { body: { name: 'keyless-aw-2' } });
    expect(put.status).toBe(200);
    expect(put.json).not.toHaveProperty('businessKey');
    const networkPut = await call(sandbox, 'PUT', `/rest/v1/networks/${str(at(created[0]?.json, 'id'))}`, { body: { name: 'keyless-2' } });
    expect([networkPut.status, at(networkPut.json, 'businessKey')]).toEqual([200, undefined]);
  });
});
