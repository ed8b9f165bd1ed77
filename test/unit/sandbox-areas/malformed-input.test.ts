/**
 * A bad request never crashes an area or changes its state: each malformed body answers a 4xx
 * (never a thrown TypeError), and the stores are unchanged afterwards.
 */
import { createAuthArea } from '../../../src/sandbox/auth';
import { TokenService } from '../../../src/sandbox/core/tokens';
import type { Method } from '../../../src/sandbox/core/types';
import { createCoreV2Area } from '../../../src/sandbox/core-v2';
import type { V2KindName } from '../../../src/sandbox/core-v2/kinds';
import { createSearchArea } from '../../../src/sandbox/search';
import { admin, call, testContext } from './harness';

const ctx = testContext();
const auth = createAuthArea(ctx, new TokenService('t'));
ctx.setAuthz(auth.authz);
auth.seed('tiny');
const v2 = createCoreV2Area(ctx);
v2.seed('tiny');
const search = createSearchArea(ctx);
search.seed('tiny');
const networkId = v2.store().all('network')[0]?.id ?? '';

const V2_KIND_NAMES: readonly V2KindName[] = ['network', 'edgeRouter', 'edgeRouterPolicy', 'service', 'appWan', 'endpoint'];
const shapes: unknown[] = [undefined, null, [], 'text', 42, true, {}];

const REST_CASES: [Method, string, unknown[]][] = [
  ['POST', '/auth/v1/domains', [...shapes, { name: 5, code: 'x' }, { name: 'x', code: 5 }, { name: 'x', code: ['a'] }]],
  ['POST', '/auth/v1/resource-types', [...shapes, { resourceType: [] }, { domainId: 5, resourceType: {} }, { domainId: 'x', resourceType: { name: 'a', code: 'a', children: {} } }, { parentId: [], resourceType: { name: 'a', code: 'a' } }]],
  ['POST', '/auth/v1/resource-actions', [...shapes, { resourceTypeId: 'x', actions: 'read' }, { resourceTypeId: 'x', actions: [null] }, { resourceTypeId: {}, actions: [] }]],
  ['POST', '/auth/v1/super-users', [...shapes, { identityId: 5 }, { identityId: 'x', domainId: {} }]],
  ['POST', '/auth/v1/public-grants', [...shapes, { resourceActionId: 'x', path: {} }, { resourceActionId: 'x', path: [null] }, { resourceActionId: 'x', path: [], anonymous: 'yes' }]],
  ['POST', '/auth/v1/masquerade', [...shapes, { identityId: 'x', audience: 5, claims: {} }, { identityId: 'x', audience: 'a', claims: 'c' }]],
  ['POST', '/core/v2/networks', [...shapes, { name: ['x'] }, { name: 'n', locationCode: 5 }]],
  ['POST', '/core/v2/edge-routers', [...shapes, { networkId, name: 'r', attributes: 'x' }, { networkId, name: 'r', linkListener: 'no' }]],
  ['POST', '/core/v2/edge-router-policies', [...shapes, { networkId, name: 'p', endpointAttributes: [null] }]],
  [
    'POST',
    '/core/v2/services',
    [
      ...shapes,
      { networkId, name: 's', modelType: 'TunnelerToEndpoint', model: [] },
      { networkId, name: 's', modelType: 'TunnelerToEndpoint', model: { clientIngress: 'h:1' } },
      { networkId, name: 's', modelType: 'TunnelerToEdgeRouter', model: { clientIngress: { host: 'h', port: 1 }, edgeRouterHosts: [null] } },
      { networkId, name: 's', modelType: 'TunnelerToEdgeRouter', model: { clientIngress: { host: 'h', port: 1.5 }, edgeRouterHosts: [] } },
    ],
  ],
  ['POST', '/core/v2/app-wans', [...shapes, { networkId: 7, name: 'a' }]],
  ['POST', '/core/v2/endpoints', [...shapes, { networkId, name: 'e', enrollmentMethod: 'ott' }, { networkId, name: 'e', enrollmentMethod: { ott: 'yes' } }]],
];

const SEARCH_BODIES: unknown[] = [
  [],
  'text',
  { query: null },
  { query: { term: null } },
  { query: { range: { '@timestamp': 'x' } } },
  { query: { range: { '@timestamp': { gte: { a: 1 } } } } },
  { query: { range: { '@timestamp': { gte: 'now-3q' } } } },
  { query: { range: { 'zfw.dport': { gte: 'abc' } } } },
  { query: { bool: { filter: [null] } } },
  { query: { bool: { filter: {}, musts: [] } } },
  { query: { terms: { 'zfw.saddr': 'x' } } },
  { query: { exists: {} } },
  { query: { match_all: {}, term: { a: 1 } } },
  { size: '10' },
  { size: -1 },
  { from: 9999, size: 10 },
  { sort: [{}] },
  { sort: [{ '@timestamp': 'up' }] },
  { sort: ['no-such-field'] },
  { aggs: [] },
  { aggs: { a: null } },
  { aggs: { a: { terms: {} } } },
  { aggs: { a: { terms: { field: 'zfw.saddr.keyword', order: 'bad' } } } },
  { aggs: { a: { terms: { field: 'zfw.saddr.keyword', order: { missing: 'desc' } } } } },
  { aggs: { a: { terms: { field: 'zfw.saddr.keyword', size: 0 } } } },
  { aggs: { a: { sum: { field: 'zfw.saddr.keyword' } } } },
  { aggs: { a: { sum: { field: 'zfw.usage.circuit.tx' }, aggs: { b: { sum: { field: 'x' } } } } } },
  { aggs: { a: { histogram: { field: 'zfw.dport' } } } },
  { unknown: 1 },
];

describe('malformed requests', () => {
  it('answer 4xx on every REST create and leave the stores unchanged', async () => {
    const before = JSON.stringify([...auth.store.domains.values(), ...auth.store.types.values(), ...auth.store.actions.values(), ...auth.store.superUsers.values(), ...auth.store.publicGrants.values()]);
    const v2Before = V2_KIND_NAMES.map((k) => v2.store().all(k).length);
    let count = 0;
    for (const [method, path, bodies] of REST_CASES) {
      for (const body of bodies) {
        const res = await call([...auth.routes, ...v2.routes], admin, method, path, body);
        expect(`${path} ${JSON.stringify(body)} → ${res.status >= 400 && res.status < 500 ? '4xx' : res.status}`).toBe(`${path} ${JSON.stringify(body)} → 4xx`);
        count += 1;
      }
    }
    expect(count).toBeGreaterThan(100);
    expect(JSON.stringify([...auth.store.domains.values(), ...auth.store.types.values(), ...auth.store.actions.values(), ...auth.store.superUsers.values(), ...auth.store.publicGrants.values()])).toBe(before);
    expect(V2_KIND_NAMES.map((k) => v2.store().all(k).length)).toEqual(v2Before);
  });

  it.each(SEARCH_BODIES.map((b) => [JSON.stringify(b), b]))('search body %s answers 400 with an Elasticsearch error', (_, body) => {
    const res = search.searchService.search('zfw.events*', body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 400, error: { type: expect.any(String), reason: expect.any(String) } });
  });
});
