/**
 * Failures a user sees on the network graph: permissions, missing records, bad arguments (no
 * upstream call), upstream faults (retries, exhausted retries, a dead upstream) and bodies that
 * are not the contract's shape.
 */
import { startFakeUpstream, json } from '../../helpers/fake-upstream';
import { at, errorCodeAt, expectResult, startNetworkStack, type NetworkStack } from './network-stack';

const MISSING = '00000000-0000-4000-8000-000000000000';

describe('with the sandbox', () => {
  let stack: NetworkStack;
  let networkId: string;
  beforeAll(async () => {
    stack = await startNetworkStack({ seed: 'tiny', attempts: 3 });
    networkId = stack.sandbox.restFacts().networkIds[0] ?? '';
  });
  afterEach(() => stack.sandbox.control.clearFaults());
  afterAll(() => stack.close());

  test('a reader gets FORBIDDEN on admin-only fields and the rest of the data', async () => {
    const query = `query ($n: UUID!) {
      networks { totalCount }
      hosts { totalCount }
      cloudSubscriptions { totalCount }
      network(id: $n) { name networkControllerHosts { totalCount } }
    }`;
    const r = await stack.gql(query, { n: networkId }, 'reader');
    expectResult(query, r, (res) => {
      expect(at(res.data, 'networks', 'totalCount')).toBe(stack.sandbox.restFacts().networkIds.length);
      expect(typeof at(res.data, 'network', 'name')).toBe('string');
      expect(errorCodeAt(res, 'hosts')).toBe('FORBIDDEN');
      expect(errorCodeAt(res, 'cloudSubscriptions')).toBe('FORBIDDEN');
      expect(errorCodeAt(res, 'network.networkControllerHosts')).toBe('FORBIDDEN');
      expect(at(res.data, 'network', 'networkControllerHosts')).toBeNull();
    });
  });

  test('a missing record is NOT_FOUND with null, next to data that exists', async () => {
    const query = `query ($n: UUID!, $x: UUID!) { network(id: $x) { id } endpoint(networkId: $n, id: $x) { id } other: network(id: $n) { id } }`;
    const r = await stack.gql(query, { n: networkId, x: MISSING });
    expectResult(query, r, (res) => {
      expect(at(res.data, 'network')).toBeNull();
      expect(at(res.data, 'endpoint')).toBeNull();
      expect(at(res.data, 'other', 'id')).toBe(networkId);
      expect(errorCodeAt(res, 'network')).toBe('NOT_FOUND');
      expect(errorCodeAt(res, 'endpoint')).toBe('NOT_FOUND');
      expect(res.errors?.find((e) => e.path?.[0] === 'network')?.extensions?.['upstream']).toEqual(
        expect.objectContaining({ service: 'rest-v1', method: 'GET', status: 404 }),
      );
    });
  });

  test.each([
    ['a non-UUID id', `{ network(id: "not-a-uuid") { id } }`],
    ['first above 1000', `{ networks(first: 5000) { totalCount } }`],
    ['a negative first', `{ networks(first: -1) { totalCount } }`],
    ['a cursor this gateway did not issue', `{ networks(after: "bm9wZQ==") { totalCount } }`],
    ['an unknown sort field', `{ networks(sort: [{ field: "password" }]) { totalCount } }`],
  ])('%s is BAD_USER_INPUT with no upstream call', async (_name, query) => {
    stack.resetCalls();
    const r = await stack.gql(query);
    expectResult(query, r, (res) => {
      expect(res.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
      expect(stack.calls().total).toBe(0);
    });
  });

  test('a bad link argument fails that field only, with no call for it', async () => {
    stack.resetCalls();
    const query = `query ($n: UUID!) { network(id: $n) { name endpoints(first: 5000) { totalCount } } }`;
    const r = await stack.gql(query, { n: networkId });
    expectResult(query, r, (res) => {
      expect(errorCodeAt(res, 'network.endpoints')).toBe('BAD_USER_INPUT');
      expect(stack.calls().byRoute['GET /rest/v1/networks/{networkId}/endpoints']).toBeUndefined();
    });
  });

  test('GETs that fail twice are retried and succeed', async () => {
    stack.sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/networks/{networkId}', errorRate: 1, status: 503, times: 2 }]);
    stack.resetCalls();
    const query = `query ($n: UUID!) { network(id: $n) { id } }`;
    const r = await stack.gql(query, { n: networkId });
    expectResult(query, r, (res) => {
      expect(res.errors).toBeUndefined();
      expect(at(res.data, 'network', 'id')).toBe(networkId);
      expect(stack.calls().byRoute['GET /rest/v1/networks/{networkId}']).toBe(3);
    });
  });

  test('exhausted retries give UPSTREAM_ERROR on that field only', async () => {
    stack.sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/geoRegions', errorRate: 1, status: 500 }]);
    const query = `{ geoRegions { totalCount } dataCenters { totalCount } }`;
    stack.resetCalls();
    const r = await stack.gql(query);
    expectResult(query, r, (res) => {
      expect(errorCodeAt(res, 'geoRegions')).toBe('UPSTREAM_ERROR');
      expect(at(res.data, 'dataCenters', 'totalCount')).toBe(stack.sandbox.restFacts().dataCenterIds.length);
      expect(stack.calls().byRoute['GET /rest/v1/geoRegions']).toBe(3); // every attempt of the policy
    });
  });
});

describe('without a working upstream', () => {
  test('a dead upstream gives UPSTREAM_UNAVAILABLE', async () => {
    // Port 1: privileged, and never handed out for a `listen(0)`, so no test's server can be there
    // (a port freed a moment ago could be taken by a concurrent test): the connection is refused.
    const stack = await startNetworkStack({ upstreamBaseUrl: 'http://127.0.0.1:1' });
    try {
      const query = `{ networks { totalCount } }`;
      const r = await stack.gql(query);
      expectResult(query, r, (res) => expect(errorCodeAt(res, 'networks')).toBe('UPSTREAM_UNAVAILABLE'));
    } finally {
      await stack.close();
    }
  });

  test('a body that is not the contract shape gives UPSTREAM_BAD_RESPONSE', async () => {
    const fake = await startFakeUpstream((req, res) => {
      if (req.url.startsWith('/rest/v1/networks?')) return json(res, 200, { _embedded: { networks: [{ name: 'no id' }] } });
      if (req.url.startsWith('/rest/v1/networks/')) return json(res, 200, ['not', 'a', 'network']);
      if (req.url.startsWith('/rest/v1/geoRegions')) return json(res, 200, { _embedded: 'nope' });
      return json(res, 200, { _embedded: { dataCenters: [] } });
    });
    const stack = await startNetworkStack({ upstreamBaseUrl: fake.url });
    try {
      const query = `query ($n: UUID!) { networks { totalCount } network(id: $n) { id } geoRegions { totalCount } dataCenters { totalCount } }`;
      const r = await stack.gql(query, { n: MISSING });
      expectResult(query, r, (res) => {
        expect(errorCodeAt(res, 'networks')).toBe('UPSTREAM_BAD_RESPONSE');
        expect(errorCodeAt(res, 'network')).toBe('UPSTREAM_BAD_RESPONSE');
        expect(errorCodeAt(res, 'geoRegions')).toBe('UPSTREAM_BAD_RESPONSE');
        expect(at(res.data, 'dataCenters', 'totalCount')).toBe(0);
      });
    } finally {
      await stack.close();
      await fake.close();
    }
  });
});
