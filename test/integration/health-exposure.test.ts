/**
 * What the operational routes show, and to whom: `/metrics` on a port of its own (`METRICS_PORT`)
 * and then not on the API's port; `/readyz` names the checks that failed, and shows their error
 * text (internal addresses) only to a request from this machine that no proxy forwarded.
 */
import { readinessBody, isLocalRequest } from '../../src/server/health';
import { startStack, type Stack } from '../helpers/stack';

describe('METRICS_PORT', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ config: { server: { metricsPort: 0 } } });
  });
  afterAll(() => stack.close());

  it('serves /metrics on its own port and not on the API port', async () => {
    const own = await fetch(stack.metricsUrl);
    expect(own.status).toBe(200);
    expect(await own.text()).toContain('netgraph_graphql_operations_total');
    expect(new URL(stack.metricsUrl).port).not.toBe(new URL(stack.origin).port);
    const api = await fetch(`${stack.origin}/metrics`);
    expect(api.status).toBe(404);
    await api.text();
    // The API port still answers the probes, and the metrics port nothing but /metrics.
    expect((await fetch(`${stack.origin}/healthz`)).status).toBe(200);
    const other = await fetch(new URL('/graphql', stack.metricsUrl));
    expect(other.status).toBe(404);
    await other.text();
  });
});

describe('without METRICS_PORT', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(() => stack.close());

  it('serves /metrics on the API port, as before', async () => {
    expect(stack.metricsUrl).toBe(`${stack.origin}/metrics`);
    const res = await fetch(`${stack.origin}/metrics`);
    expect(res.status).toBe(200);
    await res.text();
  });

  it('answers /readyz from this machine with the checks by name', async () => {
    const res = await fetch(`${stack.origin}/readyz`);
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ready', checks: { upstreams: { ready: true } } });
  });
});

describe('the /readyz body', () => {
  const failing = [
    ['upstreams', { ready: true, services: [] }],
    ['custom', { ready: false, error: 'connect ECONNREFUSED 10.1.2.3:6379' }],
  ] as const;
  const lost = { status: 'degraded', detail: 'Redis is not reachable (connect ECONNREFUSED 10.1.2.3:6379): serving from this replica\'s own state' } as const;

  it('names the failed checks without their error text for a remote caller', () => {
    const body = readinessBody(failing, lost, 'upstream', false);
    expect(body).toMatchObject({ status: 'unavailable', failed: ['custom', 'state'], checks: { custom: { ready: false } }, state: { status: 'degraded' } });
    expect(JSON.stringify(body)).not.toContain('10.1.2.3');
    expect(JSON.stringify(body)).not.toContain('ECONNREFUSED');
  });

  it('shows the error text to a request from this machine', () => {
    const body = readinessBody(failing, lost, 'upstream', true);
    expect(body).toMatchObject({ failed: ['custom', 'state'], checks: { custom: { error: 'connect ECONNREFUSED 10.1.2.3:6379' } }, state: lost });
  });

  it.each([
    ['127.0.0.1', {}, true],
    ['::1', {}, true],
    ['::ffff:127.0.0.1', {}, true],
    ['127.0.0.1', { 'x-forwarded-for': '203.0.113.9' }, false],
    ['::1', { forwarded: 'for=203.0.113.9' }, false],
    ['10.0.0.9', {}, false],
    ['203.0.113.9', {}, false],
  ])('a request from %s with headers %j is local: %s', (remoteAddress, headers, local) => {
    expect(isLocalRequest({ headers, socket: { remoteAddress } })).toBe(local);
  });
});
