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
afterEach(() => sandbox.control.clearAsyncFailures());

const n = (): string => `/rest/v1/networks/${net.id}`;
const control = (method: string, body?: unknown): ReturnType<typeof call> =>
  call(sandbox, method, '/__sandbox/async-failures', { token: null, ...(body === undefined ? {} : { body }) });
const get = async (path: string): Promise<unknown> => (await call(sandbox, 'GET', path)).json;
const status = async (path: string): Promise<unknown> => at(await get(path), 'status');
/** Each reported step as `status/executionStatus`, from /workflow-status/{key}. */
const workflow = async (key: string): Promise<string[]> =>
  records(at(await get(`/rest/v1/workflow-status/${key}`), 0, 'data')).map((s) => `${String(s['status'])}/${String(s['executionStatus'])}`);
const running = async (): Promise<unknown[]> => records(await get('/rest/v1/network-processes')).map((p) => p['businessKey']);

describe('sandbox control path: async failure rules', () => {
  it('POST adds a rule or { rules } (defaults filled in), GET lists them, DELETE clears them', async () => {
    const one = await control('POST', { kind: 'endpoint' });
    expect([one.status, one.json]).toEqual([200, { rules: [{ kind: 'endpoint', atStep: 1, times: 1 }] }]);
    const more = await control('POST', { rules: [{ processDefinition: 'AppWanUpdate', atStep: 2, times: 3 }, { kind: 'network', processDefinition: 'CreateNetworkFromBlueprint' }] });
    expect(more.status).toBe(200);
    expect((await control('GET')).json).toEqual({
      rules: [
        { kind: 'endpoint', atStep: 1, times: 1 },
        { processDefinition: 'AppWanUpdate', atStep: 2, times: 3 },
        { kind: 'network', processDefinition: 'CreateNetworkFromBlueprint', atStep: 1, times: 1 },
      ],
    });
    expect(sandbox.control.asyncFailures()).toHaveLength(3);
    expect((await control('DELETE')).status).toBe(204);
    expect((await control('GET')).json).toEqual({ rules: [] });
  });

  it.each([
    [{ kind: 'host' }, /rules\[0\]: kind must be one of network, endpoint, service, appWan/],
    [{ processDefinition: 'Nope' }, /rules\[0\]: processDefinition must be one of .*AppWanUpdate/],
    [{ processDefinition: 7 }, /rules\[0\]: processDefinition/],
    [{ kind: 'network', processDefinition: 'UpdateEndpoint' }, /rules\[0\]: processDefinition UpdateEndpoint changes kind endpoint, not network/],
    [{ atStep: 0 }, /rules\[0\]: atStep must be an integer >= 1/],
    [{ times: 1.5 }, /rules\[0\]: times must be an integer >= 1/],
    [{ kind: 'endpoint', step: 2 }, /rules\[0\]: unknown field step/],
    [{ rules: [{ kind: 'service' }, { atStep: 'two' }] }, /rules\[1\]: atStep/],
    ['fail', /rules\[0\]: expected an object/],
  ])('rejects %j with 400 naming the field, and adds nothing', async (rule, message) => {
    const r = await control('POST', rule);
    expect([r.status, str(at(r.json, 'message'))]).toEqual([400, expect.stringMatching(message)]);
    expect(sandbox.control.asyncFailures()).toEqual([]);
    expect(() => sandbox.control.failAsync(rule as never)).toThrow(message);
  });

  it('reset() clears the rules (unlike fault rules)', async () => {
    sandbox.control.failAsync({ kind: 'service' });
    sandbox.control.setFaults([{ route: '/rest/v1/hosts', latencyMs: 1 }]);
    expect((await call(sandbox, 'POST', '/__sandbox/reset', { token: null, body: {} })).status).toBe(200);
    expect(sandbox.control.asyncFailures()).toEqual([]);
    expect(sandbox.control.faults()).toHaveLength(1);
    sandbox.control.clearFaults();
    net = firstNetwork(sandbox.restFacts());
  });
});

describe('rest/v1 asynchronous changes made to fail', () => {
  it('a single network create fails at atStep: PROVISIONING, then ERROR (500) instead of PROVISIONED; the rule is used up', async () => {
    sandbox.control.failAsync({ kind: 'network', atStep: 2 });
    const r = await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: 'doomed' } });
    expect([r.status, at(r.json, 'status')]).toEqual([202, 100]);
    expect(sandbox.control.asyncFailures()).toEqual([]);
    const path = `/rest/v1/networks/${str(at(r.json, 'id'))}`;
    clock.advance();
    expect(await status(path)).toBe(200);
    clock.advance();
    expect(await get(path)).toEqual(expect.objectContaining({ status: 500, provisionedAt: null }));
    clock.advance(5000);
    expect(await status(path)).toBe(500);
    // The next create is not affected.
    const next = await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: 'fine' } });
    clock.advance(2000);
    expect(await status(`/rest/v1/networks/${str(at(next.json, 'id'))}`)).toBe(300);
  });

  it('a failing create with a process (endpoint CSV upload): UploadEndpoints reports step 1 Failed, and its endpoints read 500', async () => {
    await call(sandbox, 'POST', '/__sandbox/async-failures', { token: null, body: { kind: 'endpoint' } });
    const r = await call(sandbox, 'POST', `${n()}/endpoints`, { rawBody: 'NAME,ENDPOINTTYPE\nfail-1,ZTCL\nfail-2,GW\n', contentType: 'text/csv' });
    expect(r.status).toBe(202);
    const key = str(at(r.json, 'businessKey'));
    const ids = records(at(r.json, 'endpoints')).map((e) => str(e['id']));
    expect(await workflow(key)).toEqual(['InProgress/ACTIVE']);
    expect(await running()).toContain(key);
    clock.advance();
    expect(await workflow(key)).toEqual(['Failed/FAILED']);
    const wf = await get(`/rest/v1/workflow-status/${key}`);
    expect(at(wf, 0)).toEqual(expect.objectContaining({ processDefinitionKey: 'UploadEndpoints', total: 3, size: 1 }));
    expect(at(await get(`/rest/v1/network-processes/${key}`), 0, 'workFlowStatus', 0, 'status')).toBe('Failed');
    expect(await running()).not.toContain(key);
    for (const id of ids) expect(await status(`${n()}/endpoints/${id}`)).toBe(500);
    clock.advance(5000);
    expect(await workflow(key)).toEqual(['Failed/FAILED']);
    for (const id of ids) expect(await status(`${n()}/endpoints/${id}`)).toBe(500);
  });

  it('a failing AppWAN member add (AppWanUpdate at step 2): Completed, then Failed; the AppWAN goes 600 → 500', async () => {
    const aw = str(at((await call(sandbox, 'POST', `${n()}/appWans`, { body: { name: 'failing-members' } })).json, 'id'));
    sandbox.control.failAsync({ processDefinition: 'AppWanUpdate', atStep: 2 });
    const add = await call(sandbox, 'POST', `${n()}/appWans/${aw}/endpoints`, { body: { ids: net.endpointIds.slice(2, 4) } });
    expect([add.status, at(add.json, 'appWan', 'status')]).toEqual([202, 600]);
    const key = str(at(add.json, 'businessKey'));
    const path = `${n()}/appWans/${aw}`;
    expect(await workflow(key)).toEqual(['InProgress/ACTIVE']);
    clock.advance();
    expect(await workflow(key)).toEqual(['Completed/COMPLETED', 'InProgress/ACTIVE']);
    expect(await status(path)).toBe(600);
    clock.advance();
    expect(await workflow(key)).toEqual(['Completed/COMPLETED', 'Failed/FAILED']);
    expect(await status(path)).toBe(500);
    const steps = records(at(await get(`${n()}/appWan-processes/${key}`), 0, 'workFlowStatus')).map((s) => s['status']);
    expect(steps).toEqual(['Completed', 'Failed']);
    clock.advance(5000);
    expect(await workflow(key)).toEqual(['Completed/COMPLETED', 'Failed/FAILED']);
    expect(await status(path)).toBe(500);
    // The members were changed all the same; the next member change succeeds and brings it to 300.
    const again = await call(sandbox, 'POST', `${n()}/appWans/${aw}/services`, { body: { ids: net.serviceIds.slice(0, 1) } });
    clock.advance(3000);
    expect(await workflow(str(at(again.json, 'businessKey')))).toEqual(Array(3).fill('Completed/COMPLETED'));
    expect(await status(path)).toBe(300);
  });

  it('a failing blueprint (CreateNetworkFromBlueprint at step 3): the network and its AppWAN with members turn 500; a single create is not a match', async () => {
    sandbox.control.failAsync({ kind: 'network', processDefinition: 'CreateNetworkFromBlueprint', atStep: 3 });
    const single = await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: 'not-a-blueprint' } });
    expect(sandbox.control.asyncFailures()).toHaveLength(1);
    const yaml = 'network: { name: failing-blueprint }\nendpoints:\n  - { name: e1, endpointType: ZTCL }\nappWans:\n  - { name: a1, endpoints: [e1] }\n';
    const r = await call(sandbox, 'POST', `/rest/v1/organizations/${sandbox.restFacts().organizationIds[0] ?? ''}/networks`, { rawBody: yaml, contentType: 'application/x-yaml' });
    expect(r.status).toBe(202);
    const key = str(at(r.json, 'businessKey'));
    const m = `/rest/v1/networks/${str(at(r.json, 'network', 'id'))}`;
    const appWan = `${m}/appWans/${str(at(await get(`${m}/appWans`), '_embedded', 'appWans', 0, 'id'))}`;
    clock.advance(2000);
    expect([await status(m), await status(appWan)]).toEqual([300, 600]);
    clock.advance();
    expect(await workflow(key)).toEqual(['Completed/COMPLETED', 'Completed/COMPLETED', 'Failed/FAILED']);
    expect([await status(m), await status(appWan)]).toEqual([500, 500]);
    expect(await status(`/rest/v1/networks/${str(at(single.json, 'id'))}`)).toBe(300);
  });

  it('a failing redefine (kind service): UpdateService Failed and the service 500 instead of back to its status', async () => {
    sandbox.control.failAsync({ kind: 'service' });
    const path = `${n()}/services/${net.serviceIds[1] ?? ''}`;
    const put = await call(sandbox, 'PUT', path, { body: { name: 'failing-svc', serviceClass: 'CS', endpointId: net.endpointIds[0] } });
    expect([put.status, at(put.json, 'status')]).toEqual([202, 600]);
    clock.advance();
    expect(await workflow(str(at(put.json, 'businessKey')))).toEqual(['Failed/FAILED']);
    expect(await status(path)).toBe(500);
  });

  it('deletes fail only through their process definition; a failed delete leaves the entity, in ERROR', async () => {
    sandbox.control.failAsync({ kind: 'endpoint' });
    const first = `${n()}/endpoints/${net.endpointIds[4] ?? ''}`;
    const del = await call(sandbox, 'DELETE', first);
    clock.advance();
    expect(await workflow(str(at(del.json, 'businessKey')))).toEqual(['Completed/COMPLETED']);
    expect((await call(sandbox, 'GET', first)).status).toBe(404);
    expect(sandbox.control.asyncFailures()).toHaveLength(1); // still waiting for an endpoint create or redefine
    sandbox.control.clearAsyncFailures();

    sandbox.control.failAsync({ processDefinition: 'DeleteEndpoint', atStep: 4 }); // past the only step: fails that one
    const second = `${n()}/endpoints/${net.endpointIds[5] ?? ''}`;
    const failing = await call(sandbox, 'DELETE', second);
    expect([failing.status, at(failing.json, 'status')]).toEqual([202, 800]);
    clock.advance();
    expect(await workflow(str(at(failing.json, 'businessKey')))).toEqual(['Failed/FAILED']);
    expect(await get(second)).toEqual(expect.objectContaining({ id: net.endpointIds[5], status: 500 }));
    clock.advance(5000);
    expect((await call(sandbox, 'GET', second)).status).toBe(200);
  });

  it('applies to changes started after the rule is set, `times` of them, matching kind only', async () => {
    const before = await call(sandbox, 'POST', `${n()}/services`, { body: { name: 'started-before', serviceClass: 'CS', endpointId: net.endpointIds[0] } });
    sandbox.control.failAsync({ kind: 'service', times: 2 });
    const endpoint = await call(sandbox, 'POST', `${n()}/endpoints`, { body: { name: 'other-kind', endpointType: 'ZTCL' } });
    const failed = [];
    for (const name of ['times-1', 'times-2']) {
      failed.push(await call(sandbox, 'POST', `${n()}/services`, { body: { name, serviceClass: 'CS', endpointId: net.endpointIds[0] } }));
    }
    expect(sandbox.control.asyncFailures()).toEqual([]);
    const after = await call(sandbox, 'POST', `${n()}/services`, { body: { name: 'times-3', serviceClass: 'CS', endpointId: net.endpointIds[0] } });
    clock.advance(2000);
    const statusOf = async (r: Awaited<ReturnType<typeof call>>, segment: string): Promise<unknown> => status(`${n()}/${segment}/${str(at(r.json, 'id'))}`);
    expect(await statusOf(before, 'services')).toBe(300);
    expect(await statusOf(endpoint, 'endpoints')).toBe(300);
    for (const r of failed) expect(await statusOf(r, 'services')).toBe(500);
    expect(await statusOf(after, 'services')).toBe(300);
  });
});
