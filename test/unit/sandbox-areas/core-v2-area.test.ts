import { createAuthArea } from '../../../src/sandbox/auth';
import { TokenService } from '../../../src/sandbox/core/tokens';
import { createCoreV2Area } from '../../../src/sandbox/core-v2';
import { admin, arr, call, nobody, obj, reader, testClock, testContext } from './harness';

function setup() {
  const clock = testClock(1000);
  const ctx = testContext(clock);
  const auth = createAuthArea(ctx, new TokenService('t'));
  ctx.setAuthz(auth.authz);
  auth.seed('demo');
  const area = createCoreV2Area(ctx);
  area.seed('demo');
  const networkId = area.store().all('network')[0]?.id ?? '';
  return { clock, routes: area.routes, networkId, area };
}

const SERVICE = (networkId: string) => ({
  networkId,
  name: 'billing',
  encryptionRequired: true,
  attributes: ['#billing'],
  modelType: 'TunnelerToEndpoint',
  model: {
    clientIngress: { host: 'billing.internal', port: 443 },
    edgeRouterAttributes: ['#all'],
    bindEndpointAttributes: ['#hosting'],
    serverEgress: { protocol: 'tcp', host: '10.0.0.5', port: 8443 },
  },
});

describe('core/v2 area', () => {
  it('creates a network (202) whose status and execution advance with the clock', async () => {
    const { routes, clock } = setup();
    const res = await call(routes, admin, 'POST', '/core/v2/networks', { name: 'fresh', locationCode: 'us-east-1', networkGroupId: 'g-1' });
    expect(res.status).toBe(202);
    const body = obj(res.json);
    expect(body).toMatchObject({ name: 'fresh', locationCode: 'us-east-1', networkGroupId: 'g-1', status: 'NEW' });
    const links = obj(body['_links']);
    expect(obj(links['self'])['href']).toBe(`http://sandbox.test/core/v2/networks/${String(body['id'])}`);
    const execPath = String(obj(links['execution'])['href']).replace('http://sandbox.test', '');
    const statuses: unknown[] = [];
    const execStatuses: unknown[] = [];
    for (let step = 0; step < 3; step++) {
      statuses.push(obj((await call(routes, reader, 'GET', `/core/v2/networks/${String(body['id'])}`)).json)['status']);
      execStatuses.push(obj((await call(routes, reader, 'GET', execPath)).json)['status']);
      clock.advance(1000);
    }
    expect(statuses).toEqual(['NEW', 'PROVISIONING', 'PROVISIONED']);
    expect(execStatuses).toEqual(['STARTED', 'RUNNING', 'FINISHED']);
  });

  it('enforces the service modelType rule', async () => {
    const { routes, networkId } = setup();
    expect((await call(routes, admin, 'POST', '/core/v2/services', SERVICE(networkId))).status).toBe(202);
    const wrongCombo = await call(routes, admin, 'POST', '/core/v2/services', { ...SERVICE(networkId), name: 'x', modelType: 'TunnelerToEdgeRouter' });
    expect(wrongCombo.status).toBe(400);
    expect(wrongCombo.message).toMatch(/^model\.(bindEndpointAttributes|serverEgress): must be absent/);
    const unknown = await call(routes, admin, 'POST', '/core/v2/services', { ...SERVICE(networkId), name: 'y', modelType: 'Magic' });
    expect(unknown.message).toMatch(/^modelType:/);
    const noEgress = SERVICE(networkId);
    const model = { ...noEgress.model, serverEgress: undefined };
    const missing = await call(routes, admin, 'POST', '/core/v2/services', { ...noEgress, name: 'z', model });
    expect(missing.message).toBe('model.serverEgress: must not be null');
    const noHosts = await call(routes, admin, 'POST', '/core/v2/services', {
      networkId,
      name: 'r',
      modelType: 'TunnelerToEdgeRouter',
      model: { clientIngress: { host: 'r.internal', port: 80 }, edgeRouterHosts: [{ edgeRouterId: 'nope', serverEgress: { protocol: 'tcp', host: 'h', port: 80 } }] },
    });
    expect(noHosts.status).toBe(404);
  });

  it('validates names, networkId and attribute strings; reader may read but not create', async () => {
    const { routes, networkId } = setup();
    expect((await call(routes, admin, 'POST', '/core/v2/app-wans', { networkId, serviceAttributes: [] })).message).toMatch(/^name:/);
    expect((await call(routes, admin, 'POST', '/core/v2/app-wans', { networkId: 'missing', name: 'a' })).status).toBe(404);
    expect((await call(routes, admin, 'POST', '/core/v2/edge-routers', { networkId, name: 'r', attributes: ['#ok', 5] })).message).toMatch(/^attributes\[1\]:/);
    expect((await call(routes, reader, 'POST', '/core/v2/edge-routers', { networkId, name: 'r' })).status).toBe(403);
    expect((await call(routes, nobody, 'GET', '/core/v2/edge-routers')).status).toBe(403);
    expect((await call(routes, reader, 'GET', '/core/v2/edge-routers')).status).toBe(200);
  });

  it('gives a created endpoint a one-time jwt and lists it under _embedded.endpointList', async () => {
    const { routes, networkId } = setup();
    const res = obj((await call(routes, admin, 'POST', '/core/v2/endpoints', { networkId, name: 'laptop-1', attributes: ['#employees'], enrollmentMethod: { ott: true } })).json);
    const fetched = obj((await call(routes, reader, 'GET', `/core/v2/endpoints/${String(res['id'])}`)).json);
    expect(fetched['jwt']).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    const list = obj((await call(routes, reader, 'GET', `/core/v2/endpoints?networkId=${networkId}&size=3&page=0`)).json);
    expect(arr(obj(list['_embedded'])['endpointList'])).toHaveLength(3);
    expect(obj(list['page'])).toMatchObject({ size: 3, number: 0, totalElements: 9, totalPages: 3 });
    const byName = obj((await call(routes, reader, 'GET', `/core/v2/endpoints?name=laptop-1`)).json);
    expect(arr(obj(byName['_embedded'])['endpointList']).map((e) => e['id'])).toEqual([res['id']]);
  });
});
