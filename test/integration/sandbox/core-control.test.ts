import type { RunningSandbox } from '../../../src/sandbox';
import { MAX_RECORDED_REQUESTS } from '../../../src/sandbox/core/call-log';
import { at, call, firstNetwork, list, records, str, withSandbox } from './sandbox-client';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await withSandbox();
});
afterAll(() => sandbox.close());
beforeEach(async () => {
  sandbox.control.clearFaults();
  sandbox.control.setLatency(0);
  sandbox.control.resetCalls();
});

const control = (method: string, name: string, body?: unknown): ReturnType<typeof call> =>
  call(sandbox, method, `/__sandbox/${name}`, { token: null, ...(body === undefined ? {} : { body }) });

describe('sandbox control path: call log', () => {
  it('counts every contract call exactly, by method and route template, and not control calls', async () => {
    const net = sandbox.restFacts().networks[0];
    await call(sandbox, 'GET', '/rest/v1/networks');
    await call(sandbox, 'GET', `/rest/v1/networks/${net?.id ?? ''}/endpoints`);
    await call(sandbox, 'GET', `/rest/v1/networks/${net?.id ?? ''}/endpoints/`);
    await call(sandbox, 'GET', '/rest/v1/networks', { token: null }); // a 401 is still a call
    await control('GET', 'calls');
    const r = await control('GET', 'calls');
    expect(r.json).toEqual({
      total: 4,
      byRoute: { 'GET /rest/v1/networks': 2, 'GET /rest/v1/networks/{networkId}/endpoints': 2 },
    });
    expect(sandbox.control.calls().total).toBe(4);
    expect((await control('DELETE', 'calls')).status).toBe(204);
    expect(sandbox.control.calls()).toEqual({ total: 0, byRoute: {} });
  });
});

describe('sandbox control path: recorded requests', () => {
  const requests = async (): Promise<Array<Record<string, unknown>>> => records(at((await control('GET', 'requests')).json, 'requests'));

  it('records each contract call with route, path, query, content type and body (JSON parsed, CSV as text), never the token', async () => {
    const net = firstNetwork(sandbox.restFacts());
    const n = `/rest/v1/networks/${net.id}`;
    await call(sandbox, 'GET', `${n}/endpoints/?page=1&size=5&sort=name,ASC&sort=id,DESC`);
    await call(sandbox, 'POST', `${n}/endpoints`, { body: { name: 'recorded-json', endpointType: 'ZTCL', tags: [1, 'a'] } });
    const csvText = 'NAME,ENDPOINTTYPE\nrecorded-csv,ZTCL\n';
    await call(sandbox, 'POST', `${n}/endpoints`, { rawBody: csvText, contentType: 'text/csv; charset=utf-8' });
    await call(sandbox, 'POST', `${n}/endpoints`, { rawBody: '{"name": ', contentType: 'application/json' }); // malformed: 400, kept as text
    await call(sandbox, 'GET', '/rest/v1/networks', { token: null }); // a 401 is still a call
    await control('GET', 'calls'); // control calls are not recorded
    const r = await control('GET', 'requests');
    expect(r.status).toBe(200);
    const log = records(at(r.json, 'requests'));
    expect(log).toEqual([
      {
        seq: 1, method: 'GET', route: '/rest/v1/networks/{networkId}/endpoints', path: `${n}/endpoints/`,
        query: { page: '1', size: '5', sort: ['name,ASC', 'id,DESC'] }, contentType: null, body: null,
      },
      {
        seq: 2, method: 'POST', route: '/rest/v1/networks/{networkId}/endpoints', path: `${n}/endpoints`, query: {},
        contentType: 'application/json', body: { name: 'recorded-json', endpointType: 'ZTCL', tags: [1, 'a'] },
      },
      { seq: 3, method: 'POST', route: '/rest/v1/networks/{networkId}/endpoints', path: `${n}/endpoints`, query: {}, contentType: 'text/csv; charset=utf-8', body: csvText },
      { seq: 4, method: 'POST', route: '/rest/v1/networks/{networkId}/endpoints', path: `${n}/endpoints`, query: {}, contentType: 'application/json', body: '{"name": ' },
      { seq: 5, method: 'GET', route: '/rest/v1/networks', path: '/rest/v1/networks', query: {}, contentType: null, body: null },
    ]);
    expect(sandbox.control.calls().total).toBe(5);
    expect(sandbox.control.requests()).toEqual(log);
    expect(r.text).not.toContain(sandbox.tokens.admin);
    expect(r.text.toLowerCase()).not.toContain('authorization');
    // Callers get copies: changing one does not change the record.
    const [first] = sandbox.control.requests();
    if (first !== undefined) first.query = {};
    expect(sandbox.control.requests()[0]?.query).toEqual({ page: '1', size: '5', sort: ['name,ASC', 'id,DESC'] });
  });

  it('records calls answered by an injected fault, with their bodies', async () => {
    sandbox.control.setFaults([{ method: 'POST', route: '/rest/v1/networks', errorRate: 1, status: 503, times: 1 }]);
    expect((await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: 'faulted' } })).status).toBe(503);
    expect(await requests()).toEqual([expect.objectContaining({ seq: 1, method: 'POST', route: '/rest/v1/networks', body: { name: 'faulted' } })]);
  });

  it(`keeps only the last ${MAX_RECORDED_REQUESTS} calls, while the counts go on`, async () => {
    const extra = 25;
    const paths = Array.from({ length: MAX_RECORDED_REQUESTS + extra }, (_, i) => `/rest/v1/geoRegions?i=${i}`);
    for (let i = 0; i < paths.length; i += 100) {
      await Promise.all(paths.slice(i, i + 100).map((path) => call(sandbox, 'GET', path, { token: null })));
    }
    const log = await requests();
    expect(log).toHaveLength(MAX_RECORDED_REQUESTS);
    expect(log.map((x) => x['seq'])).toEqual(Array.from({ length: MAX_RECORDED_REQUESTS }, (_, i) => extra + 1 + i));
    expect(sandbox.control.calls().total).toBe(MAX_RECORDED_REQUESTS + extra);
  });

  it('is cleared with the counts: DELETE /__sandbox/calls, resetCalls() and reset()', async () => {
    const once = async (): Promise<void> => {
      await call(sandbox, 'GET', '/rest/v1/geoRegions');
      expect(await requests()).toHaveLength(1);
    };
    await once();
    expect((await control('DELETE', 'calls')).status).toBe(204);
    expect(await requests()).toEqual([]);
    await once();
    sandbox.control.resetCalls();
    expect(sandbox.control.requests()).toEqual([]);
    await once();
    sandbox.control.reset();
    expect(sandbox.control.requests()).toEqual([]);
    await call(sandbox, 'GET', '/rest/v1/geoRegions');
    expect((await requests()).map((x) => x['seq'])).toEqual([1]);
  });
});

describe('sandbox control path: faults', () => {
  it('errorRate 1 turns matching calls into 500s; other routes are untouched', async () => {
    const set = await control('POST', 'faults', { route: '/rest/v1/networks', errorRate: 1 });
    expect(set.status).toBe(200);
    const failed = await call(sandbox, 'GET', '/rest/v1/networks');
    expect(failed.status).toBe(500);
    expect(at(failed.json, 'message')).toBe('injected fault');
    expect((await call(sandbox, 'GET', '/rest/v1/geoRegions')).status).toBe(200);
    expect((await control('DELETE', 'faults')).status).toBe(204);
    expect((await call(sandbox, 'GET', '/rest/v1/networks')).status).toBe(200);
  });

  it('`times` applies a rule to the next N matching calls only, with the chosen status and method', async () => {
    sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/networks/{networkId}', errorRate: 1, status: 503, times: 2 }]);
    const id = sandbox.restFacts().networkIds[0] ?? '';
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) statuses.push((await call(sandbox, 'GET', `/rest/v1/networks/${id}`)).status);
    expect(statuses).toEqual([503, 503, 200]);
    expect(sandbox.control.faults()).toEqual([]);
  });

  it('can add Retry-After to injected errors (429 rate limiting)', async () => {
    sandbox.control.setFaults([{ route: '/rest/v1/geoRegions', errorRate: 1, status: 429, retryAfterS: 2, times: 1 }]);
    const r = await call(sandbox, 'GET', '/rest/v1/geoRegions');
    expect([r.status, r.headers.get('retry-after')]).toEqual([429, '2']);
    expect((await call(sandbox, 'GET', '/rest/v1/geoRegions')).status).toBe(200);
  });

  it('matches globs and regular expressions over paths', async () => {
    sandbox.control.setFaults([{ route: '/rest/v1/networks/*/services', errorRate: 1, status: 502 }, { route: '^/rest/v1/geo', errorRate: 1, status: 504 }]);
    const id = sandbox.restFacts().networkIds[0] ?? '';
    expect((await call(sandbox, 'GET', `/rest/v1/networks/${id}/services`)).status).toBe(502);
    expect((await call(sandbox, 'GET', `/rest/v1/networks/${id}/endpoints`)).status).toBe(200);
    expect((await call(sandbox, 'GET', '/rest/v1/geoRegions')).status).toBe(504);
  });

  it('reset destroys the connection (the client sees a socket error)', async () => {
    sandbox.control.setFaults([{ route: '/rest/v1/dataCenters', reset: true, times: 1 }]);
    await expect(call(sandbox, 'GET', '/rest/v1/dataCenters')).rejects.toThrow();
    expect((await call(sandbox, 'GET', '/rest/v1/dataCenters')).status).toBe(200);
  });

  it('adds latency per rule and globally', async () => {
    sandbox.control.setFaults([{ route: '/rest/v1/geoRegions', latencyMs: 150 }]);
    let t = Date.now();
    await call(sandbox, 'GET', '/rest/v1/geoRegions');
    expect(Date.now() - t).toBeGreaterThanOrEqual(140);
    sandbox.control.clearFaults();
    expect((await control('POST', 'latency', { latencyMs: 120 })).status).toBe(200);
    t = Date.now();
    await call(sandbox, 'GET', '/rest/v1/dataCenters');
    expect(Date.now() - t).toBeGreaterThanOrEqual(110);
    expect(at((await control('GET', 'latency')).json, 'latencyMs')).toBe(120);
  });

  it('slowBodyMs sends the headers at once and the body over time', async () => {
    sandbox.control.setFaults([{ route: '/rest/v1/dataCenters', slowBodyMs: 200 }]);
    const t = Date.now();
    const r = await call(sandbox, 'GET', '/rest/v1/dataCenters');
    expect(r.status).toBe(200);
    expect(list(r.json, 'dataCenters').length).toBeGreaterThan(0);
    expect(Date.now() - t).toBeGreaterThanOrEqual(180);
  });

  it('rejects malformed rules with 400 and keeps the old ones', async () => {
    sandbox.control.setFaults([{ route: '/rest/v1/hosts', errorRate: 1 }]);
    for (const bad of [{ errorRate: 2 }, { latencyMs: 'x' }, { route: '^(' }, { status: 200 }, 'nope']) {
      expect((await control('POST', 'faults', bad)).status).toBe(400);
    }
    expect(sandbox.control.faults()).toHaveLength(1);
  });
});

describe('sandbox control path: reset and describe', () => {
  it('reset restores the seed (same ids) and clears the call log', async () => {
    const before = sandbox.restFacts();
    const created = await call(sandbox, 'POST', '/rest/v1/networks', { body: { name: 'temporary' } });
    const id = str(at(created.json, 'id'));
    const r = await control('POST', 'reset', {});
    expect(r.json).toEqual({ seed: 'tiny' });
    expect((await call(sandbox, 'GET', `/rest/v1/networks/${id}`)).status).toBe(404);
    expect(sandbox.restFacts().networkIds).toEqual(before.networkIds);
    expect(sandbox.control.calls()).toEqual({ total: 1, byRoute: { 'GET /rest/v1/networks/{networkId}': 1 } });
    expect((await control('POST', 'reset', { seed: 'huge' })).status).toBe(400);
    const described = await control('GET', 'describe');
    expect(at(described.json, 'seed')).toBe('tiny');
    expect(at(described.json, 'areas', 'rest-v1', 'networkIds')).toEqual(before.networkIds);
  });

  it('sets a resource\'s status now (a gateway failing on its own), refusing bad bodies and unknown ids', async () => {
    const net = firstNetwork(sandbox.restFacts());
    const endpointId = net.endpointIds[0] ?? '';
    const path = `/rest/v1/networks/${net.id}/endpoints/${endpointId}`;
    const r = await control('POST', 'status', { kind: 'endpoint', id: endpointId, status: 500 });
    expect(r).toMatchObject({ status: 200, json: { kind: 'endpoint', id: endpointId, status: 500 } });
    expect(at((await call(sandbox, 'GET', path)).json, 'status')).toBe(500);
    sandbox.control.setStatus({ kind: 'endpoint', id: endpointId, status: 300 });
    expect(at((await call(sandbox, 'GET', path)).json, 'status')).toBe(300);
    for (const bad of [{ kind: 'host', id: endpointId, status: 500 }, { kind: 'endpoint', id: '', status: 500 }, { kind: 'endpoint', id: endpointId, status: 'ERROR' }, 'nope']) {
      expect((await control('POST', 'status', bad)).status).toBe(400);
    }
    expect((await control('POST', 'status', { kind: 'service', id: endpointId, status: 500 })).status).toBe(404);
    // Control calls are not contract calls.
    expect(sandbox.control.calls().byRoute['POST /__sandbox/status']).toBeUndefined();
  });

  it('unknown control paths answer 404 and are not logged', async () => {
    expect((await control('GET', 'nope')).status).toBe(404);
    expect(sandbox.control.calls().total).toBe(0);
  });
});
