/**
 * The one sender of changes (src/upstream/writes.ts) on each interface that takes them, against
 * the sandbox over real sockets: reads after an auth/v1 change in the same operation see the new
 * state, with the calls that costs; a create whose answer never comes is sent once, says
 * `outcomeUnknown` and how to check; a refused change is not forgotten for nothing.
 */
import { graphql, type ExecutionResult } from 'graphql';
import { NOBODY_IDENTITY_ID } from '../../src/sandbox';
import { NETWORK_DOMAIN_ID } from '../../src/sandbox/auth/seed-data';
import { buildSchema } from '../../src/server/schema';
import { Cancellation } from '../../src/core/cancellation';
import { createHttpLayer, type HttpLayer } from '../../src/upstream/http';
import type { GatewayContext } from '../../src/context';
import { inProcessContext } from '../helpers/context';
import { at } from './auth/auth-stack';
import { dataAt, expectErrorCode, expectNoErrors, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
let layer: HttpLayer;
const schema = buildSchema();

beforeAll(async () => {
  // A short headers timeout: a create the sandbox holds longer has an unknown outcome.
  stack = await startStack({ seed: 'tiny', config: { upstream: { headersTimeoutMs: 400 } } });
  layer = createHttpLayer({
    upstreamBaseUrl: stack.sandbox.baseUrl,
    searchUrl: null,
    searchCredentials: null,
    timeouts: { connectMs: 2000, headersMs: 5000, bodyMs: 5000 },
    retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20, maxRetryAfterMs: 1000 },
    maxConcurrentPerRequest: 64,
  });
});
afterAll(async () => {
  await layer.close();
  await stack.close();
});
beforeEach(() => {
  stack.sandbox.control.reset();
  stack.sandbox.control.clearFaults();
  stack.sandbox.control.resetCalls();
});

const calls = () => stack.sandbox.control.calls().byRoute;

describe('auth/v1: fields read after a change in the same mutation see the new state', () => {
  it("a second resource type shows in its domain's list after the first", async () => {
    const before = await stack.gql('query($d: String!) { domain(idOrCode: $d) { resourceTypes { totalCount } } }', { d: NETWORK_DOMAIN_ID });
    const count = Number(dataAt(before, ['domain', 'resourceTypes', 'totalCount']));
    stack.sandbox.control.resetCalls();
    const result = await stack.gql(
      `mutation($d: UUID!) {
        a: createResourceType(input: { domainId: $d, resourceType: { name: "Rack", code: "rack" } }) { resourceType { domain { resourceTypes { totalCount } } } }
        b: createResourceType(input: { domainId: $d, resourceType: { name: "Shelf", code: "shelf" } }) { resourceType { domain { resourceTypes { totalCount } } } }
      }`,
      { d: NETWORK_DOMAIN_ID },
    );
    expectNoErrors(result);
    expect(dataAt(result, ['a', 'resourceType', 'domain', 'resourceTypes', 'totalCount'])).toBe(count + 1);
    expect(dataAt(result, ['b', 'resourceType', 'domain', 'resourceTypes', 'totalCount'])).toBe(count + 2);
    // The domain record is not touched by a type's create: read once. The type list: once per create.
    expect(calls()).toEqual({ 'POST /auth/v1/resource-types': 2, 'GET /auth/v1/domains/{idOrCode}': 1, 'GET /auth/v1/resource-types': 2 });
  });

  it("a second action shows in its type's actions after the first", async () => {
    const types = await stack.gql('{ resourceTypes(code: "endpoint") { nodes { id actions { totalCount } } } }');
    const typeId = String(dataAt(types, ['resourceTypes', 'nodes', 0, 'id']));
    const count = Number(dataAt(types, ['resourceTypes', 'nodes', 0, 'actions', 'totalCount']));
    const select = '{ resourceActions { nodes { resourceType { actions { totalCount } } } } }';
    const result = await stack.gql(
      `mutation($t: UUID!) {
        a: createResourceActions(input: { resourceTypeId: $t, actions: [{ name: "Mount", code: "mount" }] }) ${select}
        b: createResourceActions(input: { resourceTypeId: $t, actions: [{ name: "Unmount", code: "unmount" }] }) ${select}
      }`,
      { t: typeId },
    );
    expectNoErrors(result);
    expect(dataAt(result, ['a', 'resourceActions', 'nodes', 0, 'resourceType', 'actions', 'totalCount'])).toBe(count + 1);
    expect(dataAt(result, ['b', 'resourceActions', 'nodes', 0, 'resourceType', 'actions', 'totalCount'])).toBe(count + 2);
  });
});

describe("auth/v1: one request's loaders after a change (what an operation holds from its first field to its last)", () => {
  let ctx: GatewayContext;
  beforeEach(() => {
    const cancellation = new Cancellation();
    ctx = inProcessContext(layer.forCaller({ authorization: `Bearer ${stack.sandbox.tokens.admin}`, signal: cancellation }), { cancellation });
  });
  const run = async (source: string, variableValues: Record<string, unknown> = {}): Promise<ExecutionResult> => {
    const result = await graphql({ schema, source, variableValues, contextValue: ctx });
    expect(result.errors).toBeUndefined();
    return result;
  };
  const get = (result: ExecutionResult, ...keys: Array<string | number>): unknown => at(result.data, ...keys);

  it('createSuperUser, then superUsers: the new one is listed', async () => {
    const list = '{ superUsers(isDeleted: false) { totalCount nodes { identityId domainId } } }';
    const count = Number(get(await run(list), 'superUsers', 'totalCount'));
    await run('mutation($i: UUID!, $d: UUID) { createSuperUser(input: { identityId: $i, domainId: $d }) { superUser { id } } }', { i: NOBODY_IDENTITY_ID, d: NETWORK_DOMAIN_ID });
    const after = await run(list);
    expect(get(after, 'superUsers', 'totalCount')).toBe(count + 1);
    expect(get(after, 'superUsers', 'nodes')).toContainEqual({ identityId: NOBODY_IDENTITY_ID, domainId: NETWORK_DOMAIN_ID });
    expect(calls()).toEqual({ 'GET /auth/v1/super-users': 2, 'POST /auth/v1/super-users': 1 });
  });

  it('deleteSuperUser, then superUser(id:): it reads as deleted', async () => {
    const created = await run('mutation($i: UUID!) { createSuperUser(input: { identityId: $i }) { superUser { id } } }', { i: NOBODY_IDENTITY_ID });
    const id = String(get(created, 'createSuperUser', 'superUser', 'id'));
    const read = 'query($id: UUID!) { superUser(id: $id) { deleted deletedBy } }';
    expect(get(await run(read, { id }), 'superUser', 'deleted')).toBe(false);
    await run('mutation($id: UUID!) { deleteSuperUser(id: $id) { deleted } }', { id });
    expect(get(await run(read, { id }), 'superUser', 'deleted')).toBe(true);
    expect(calls()).toEqual({ 'POST /auth/v1/super-users': 1, 'GET /auth/v1/super-users/{id}': 2, 'DELETE /auth/v1/super-users/{id}': 1 });
  });

  it('a refused change forgets nothing: the list read before answers again without a call', async () => {
    const list = '{ superUsers { totalCount } }';
    await run(list);
    const refused = await graphql({ schema, source: 'mutation { deleteSuperUser(id: "00000000-0000-4000-8000-00000000dead") { id } }', contextValue: ctx });
    expect(refused.errors?.[0]?.originalError).toMatchObject({ code: 'NOT_FOUND', outcomeUnknown: false });
    await run(list);
    expect(calls()).toEqual({ 'GET /auth/v1/super-users': 1, 'DELETE /auth/v1/super-users/{id}': 1 });
  });
});

describe("rest/v1: one request's loaders forget what the change's kind touches", () => {
  const READ = 'query($n: UUID!) { network(id: $n) { endpoints { totalCount } certificateAuthorities { totalCount } } }';
  const PEM = '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----';

  it('a certificate authority forgets the CA list only; an endpoint, the whole graph', async () => {
    const cancellation = new Cancellation();
    const ctx = inProcessContext(layer.forCaller({ authorization: `Bearer ${stack.sandbox.tokens.admin}`, signal: cancellation }), { cancellation });
    const run = async (source: string): Promise<ExecutionResult> => {
      const result = await graphql({ schema, source, variableValues: { n: networkId }, contextValue: ctx });
      expect(result.errors).toBeUndefined();
      return result;
    };
    const networkId = stack.sandbox.restFacts().networks[0]?.id ?? '';
    const first = await run(READ);
    const [endpoints, cas] = [Number(at(first.data, 'network', 'endpoints', 'totalCount')), Number(at(first.data, 'network', 'certificateAuthorities', 'totalCount'))];

    await run(`mutation($n: UUID!) { createCertificateAuthority(networkId: $n, input: { name: "corp-ca", attributes: { certPem: ${JSON.stringify(PEM)} } }) { id } }`);
    const afterCa = await run(READ);
    expect(at(afterCa.data, 'network', 'certificateAuthorities', 'totalCount')).toBe(cas + 1);
    expect(at(afterCa.data, 'network', 'endpoints', 'totalCount')).toBe(endpoints);

    await run('mutation($n: UUID!) { createEndpoint(networkId: $n, input: { name: "laptop-w", endpointType: "ZTCL" }) { id } }');
    const afterEndpoint = await run(READ);
    expect(at(afterEndpoint.data, 'network', 'endpoints', 'totalCount')).toBe(endpoints + 1);

    // The network record and endpoint list once before the CA (kept after it), again after the endpoint (the graph forgotten).
    expect(calls()).toEqual({
      'GET /rest/v1/networks/{networkId}': 2,
      'GET /rest/v1/networks/{networkId}/endpoints': 2,
      'GET /rest/v1/networks/{networkId}/cas': 3,
      'POST /rest/v1/networks/{networkId}/cas': 1,
      'POST /rest/v1/networks/{networkId}/endpoints': 1,
    });
  });
});

describe('a create with no answer in time, on each interface: sent once, outcomeUnknown, how to check', () => {
  const cases = [
    {
      api: 'auth/v1',
      route: '/auth/v1/domains',
      mutation: 'mutation { createDomain(input: { name: "Lab", code: "lab" }) { domain { id } } }',
      hint: /read the domain by its code "lab": it may exist now/,
    },
    {
      api: 'rest/v1',
      route: '/rest/v1/networks',
      mutation: 'mutation { createNetwork(input: { name: "late" }) { network { id } } }',
      hint: /look for the Network named "late": it may exist now/,
    },
    {
      api: 'core/v2',
      route: '/core/v2/networks',
      mutation: 'mutation { createV2Network(input: { name: "late-v2", locationCode: "us-east-1" }) { v2Network { id } } }',
      hint: /list the V2Network records named "late-v2": it may exist now/,
    },
  ];

  it.each(cases)('$api', async ({ route, mutation, hint }) => {
    stack.sandbox.control.setFaults([{ method: 'POST', route, latencyMs: 1500, times: 1 }]);
    const error = expectErrorCode(await stack.gql(mutation), 'UPSTREAM_TIMEOUT');
    expect(error.extensions?.['outcomeUnknown']).toBe(true);
    expect(error.message).toMatch(/may or may not have been applied/);
    expect(error.message).toMatch(hint);
    expect(calls()).toEqual({ [`POST ${route}`]: 1 });
  });
});
