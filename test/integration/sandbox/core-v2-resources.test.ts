/**
 * core/v2 over HTTP: the six creates (202, id, echoed input, status word, execution link), status
 * progression on the clock, the service modelType rule, endpoint jwt, lists and permissions.
 */
import { ManualClock, type RunningSandbox } from '../../../src/sandbox';
import { at, call, list, str, withSandbox } from './sandbox-client';

// Status progress moves only when the test moves the clock, one step at a time.
const clock = new ManualClock();
let sandbox: RunningSandbox;
let networkId: string;
beforeAll(async () => {
  sandbox = await withSandbox({ clock });
  const networks = await call(sandbox, 'GET', '/core/v2/networks');
  networkId = str(at(list(networks.json, 'networkList')[0], 'id'));
});
afterAll(() => sandbox.close());

const path = (href: unknown): string => str(href).slice(sandbox.baseUrl.length);

async function routerId(): Promise<string> {
  const r = await call(sandbox, 'GET', `/core/v2/edge-routers?networkId=${networkId}`);
  return str(at(list(r.json, 'edgeRouterList')[0], 'id'));
}

const egress = { protocol: 'tcp', host: '10.0.0.9', port: 443 };
const endpointModel = { clientIngress: { host: 'app.internal', port: 443 }, edgeRouterAttributes: ['#all'], bindEndpointAttributes: ['#hosting'], serverEgress: egress };

describe('core/v2 creates', () => {
  it.each([
    ['networks', 'networkList', () => ({ name: 'v2-new', locationCode: 'us-east-1', networkConfigMetadataId: 'small', networkGroupId: 'group-1' })],
    ['edge-routers', 'edgeRouterList', () => ({ networkId, name: 'router-new', attributes: ['#public'], dataCenterId: 'dc-1', linkListener: true })],
    ['edge-router-policies', 'edgeRouterPolicyList', () => ({ networkId, name: 'policy-new', endpointAttributes: ['#all'], edgeRouterAttributes: ['#public'] })],
    ['services', 'serviceList', () => ({ networkId, name: 'svc-new', encryptionRequired: true, attributes: ['#web'], modelType: 'TunnelerToEndpoint', model: endpointModel })],
    ['app-wans', 'appWanList', () => ({ networkId, name: 'appwan-new', serviceAttributes: ['#web'], endpointAttributes: ['#employees'] })],
    ['endpoints', 'endpointList', () => ({ networkId, name: 'endpoint-new', attributes: ['#employees'], enrollmentMethod: { ott: true } })],
  ])('POST /core/v2/%s answers 202 with the entity, which then lists and provisions', async (plural, listKey, input) => {
    const body = input();
    const r = await call(sandbox, 'POST', `/core/v2/${plural}`, { body });
    expect(r.status).toBe(202);
    expect(r.json).toMatchObject({ ...body, id: expect.any(String), status: 'NEW' });
    const id = str(at(r.json, 'id'));
    expect(path(at(r.json, '_links', 'self', 'href'))).toBe(`/core/v2/${plural}/${id}`);
    const execution = path(at(r.json, '_links', 'execution', 'href'));
    const started = await call(sandbox, 'GET', execution);
    expect(started.status).toBe(200);
    expect(['STARTED', 'RUNNING']).toContain(at(started.json, 'status'));
    expect(at(started.json, 'resourceId')).toBe(id);

    const listed = await call(sandbox, 'GET', `/core/v2/${plural}?name=${String(body.name)}`);
    expect(list(listed.json, listKey).map((x) => x['id'])).toEqual([id]);
    expect(at(listed.json, 'page')).toEqual({ size: 20, totalElements: 1, totalPages: 1, number: 0 });

    clock.advance();
    clock.advance();
    expect(at((await call(sandbox, 'GET', `/core/v2/${plural}/${id}`)).json, 'status')).toBe('PROVISIONED');
    expect(at((await call(sandbox, 'GET', execution)).json, 'status')).toBe('FINISHED');
    expect(at((await call(sandbox, 'GET', execution)).json, 'finishedAt')).toEqual(expect.any(String));
  });

  it('moves a status through NEW, PROVISIONING and PROVISIONED as observed by polling, a step at a time', async () => {
    const r = await call(sandbox, 'POST', '/core/v2/app-wans', { body: { networkId, name: 'observed', serviceAttributes: [], endpointAttributes: [] } });
    const self = path(at(r.json, '_links', 'self', 'href'));
    const seen: unknown[] = [at(r.json, 'status')];
    for (let step = 0; step < 3; step++) {
      seen.push(at((await call(sandbox, 'GET', self)).json, 'status'));
      clock.advance();
    }
    expect(seen).toEqual(['NEW', 'NEW', 'PROVISIONING', 'PROVISIONED']);
  });
});

describe('core/v2 rules', () => {
  it('applies the service modelType rule', async () => {
    const base = { networkId, name: 'rule', attributes: [] };
    const routers = await routerId();
    const hosted = { clientIngress: { host: 'r.internal', port: 80 }, edgeRouterHosts: [{ edgeRouterId: routers, serverEgress: egress }] };
    expect((await call(sandbox, 'POST', '/core/v2/services', { body: { ...base, name: 'by-router', modelType: 'TunnelerToEdgeRouter', model: hosted } })).status).toBe(202);
    const cases: [unknown, RegExp][] = [
      [{ ...base, modelType: 'TunnelerToEdgeRouter', model: endpointModel }, /^model\.(bindEndpointAttributes|serverEgress): must be absent/],
      [{ ...base, modelType: 'TunnelerToEndpoint', model: hosted }, /^model\.edgeRouterHosts: must be absent/],
      [{ ...base, modelType: 'TunnelerToEndpoint', model: { ...endpointModel, bindEndpointAttributes: [] } }, /^model\.bindEndpointAttributes: must not be empty/],
      [{ ...base, modelType: 'TunnelerToEdgeRouter', model: { clientIngress: hosted.clientIngress } }, /^model\.edgeRouterHosts: must not be null/],
      [{ ...base, modelType: 'Teleport', model: endpointModel }, /^modelType/],
      [{ ...base, model: endpointModel }, /^modelType: must not be null/],
      [{ ...base, modelType: 'TunnelerToEndpoint', model: { ...endpointModel, serverEgress: { ...egress, port: 70000 } } }, /^model\.serverEgress\.port/],
    ];
    for (const [body, message] of cases) {
      const r = await call(sandbox, 'POST', '/core/v2/services', { body });
      expect([r.status, at(r.json, 'message')]).toEqual([400, expect.stringMatching(message)]);
    }
  });

  it('requires names, an existing networkId and string attributes', async () => {
    const noName = await call(sandbox, 'POST', '/core/v2/endpoints', { body: { networkId, attributes: [] } });
    expect([noName.status, at(noName.json, 'message')]).toEqual([400, expect.stringMatching(/^name/)]);
    const noNetwork = await call(sandbox, 'POST', '/core/v2/endpoints', { body: { networkId: 'missing', name: 'x' } });
    expect([noNetwork.status, at(noNetwork.json, 'message')]).toEqual([404, expect.stringMatching(/^networkId/)]);
    const badAttr = await call(sandbox, 'POST', '/core/v2/edge-router-policies', { body: { networkId, name: 'p', endpointAttributes: [42] } });
    expect([badAttr.status, at(badAttr.json, 'message')]).toEqual([400, expect.stringMatching(/^endpointAttributes\[0\]/)]);
    const dup = await call(sandbox, 'POST', '/core/v2/edge-routers', { body: { networkId, name: 'router-1' } });
    expect(dup.status).toBe(409);
  });

  it('gives endpoints a jwt until enrolled (seeded enrolled endpoint: null)', async () => {
    const r = await call(sandbox, 'POST', '/core/v2/endpoints', { body: { networkId, name: 'with-ott', enrollmentMethod: { ott: true } } });
    const fetched = await call(sandbox, 'GET', path(at(r.json, '_links', 'self', 'href')), { token: sandbox.tokens.reader });
    expect(at(fetched.json, 'jwt')).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const seeded = list((await call(sandbox, 'GET', `/core/v2/endpoints?networkId=${networkId}&sort=name,ASC`)).json, 'endpointList');
    expect(seeded.find((e) => e['name'] === 'endpoint-1')?.['jwt']).toBeNull();
    expect(seeded.find((e) => e['name'] === 'endpoint-2')?.['jwt']).toEqual(expect.any(String));
  });

  it('pages lists with the page object and checks read/write permissions', async () => {
    const page = await call(sandbox, 'GET', '/core/v2/endpoints?size=2&page=1');
    expect(list(page.json, 'endpointList')).toHaveLength(2);
    expect(at(page.json, 'page')).toMatchObject({ size: 2, number: 1 });
    expect(at(page.json, '_links', 'next')).toBeDefined();
    expect((await call(sandbox, 'GET', '/core/v2/networks', { token: sandbox.tokens.reader })).status).toBe(200);
    expect((await call(sandbox, 'GET', '/core/v2/networks', { token: sandbox.tokens.nobody })).status).toBe(403);
    expect((await call(sandbox, 'POST', '/core/v2/networks', { token: sandbox.tokens.reader, body: { name: 'r' } })).status).toBe(403);
    expect((await call(sandbox, 'POST', '/core/v2/networks', { token: null, body: { name: 'r' } })).status).toBe(401);
    expect((await call(sandbox, 'GET', '/core/v2/executions/missing')).status).toBe(404);
  });
});
