/**
 * The compiled executor (NETGRAPH_EXECUTOR=jit) answers exactly what graphql-js answers: one
 * sandbox, one gateway per executor, every request sent to both and the responses compared whole
 * (status, data, errors with messages, paths, locations and extensions), in order.
 */
import { readFacts, type UpstreamFacts } from '../../bench/facts';
import { BENCH_QUERIES } from '../../bench/queries';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import type { RunningGateway } from '../../src/server';
import { postGraphQL, startTestGateway, type GqlOptions, type GqlResult } from '../helpers/stack';

let sandbox: RunningSandbox;
let jit: RunningGateway;
let reference: RunningGateway;
let facts: UpstreamFacts;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, seed: 'tiny', stepMs: 20 });
  const start = (executor: 'jit' | 'graphql-js'): Promise<RunningGateway> =>
    startTestGateway({ upstream: { baseUrl: null, retryAttempts: 1 }, server: { executor } }, { sandbox });
  [jit, reference] = await Promise.all([start('jit'), start('graphql-js')]);
  facts = await readFacts(sandbox.baseUrl, sandbox.tokens.admin, { url: sandbox.searchUrl, ...sandbox.searchCredentials });
}, 60_000);

afterAll(async () => {
  await Promise.all([jit?.close(), reference?.close()]);
  await sandbox?.close();
});

/** Sends the request to both gateways (one after the other: faults and loaders see the same state) and compares. */
async function same(query: string, variables?: Record<string, unknown>, options: GqlOptions = {}): Promise<GqlResult> {
  const opts = { token: sandbox.tokens.admin, ...options };
  const expected = await postGraphQL(reference.url, query, variables, opts);
  const actual = await postGraphQL(jit.url, query, variables, opts);
  expect({ status: actual.status, body: actual.body, query }).toEqual({ status: expected.status, body: expected.body, query });
  // A typo in this file's documents would compare two equal validation errors and test nothing.
  expect(actual.body.errors?.filter((e) => e.extensions?.['code'] === 'GRAPHQL_VALIDATION_FAILED') ?? []).toEqual([]);
  return actual;
}

function firstNetwork(): UpstreamFacts['networks'][number] {
  const network = facts.networks[0];
  if (!network) throw new Error('the tiny seed has no network');
  return network;
}

it('answers every bench query identically, compiled', async () => {
  const before = jit.executorStats()?.compiled ?? 0;
  let ran = 0;
  for (const q of BENCH_QUERIES) {
    if (q.unavailable(facts) !== null) continue;
    const res = await same(q.document, q.variables(facts));
    expect(res.body.errors).toBeUndefined();
    ran += 1;
  }
  expect(ran).toBeGreaterThan(3);
  expect((jit.executorStats()?.compiled ?? 0) - before).toBe(ran);
  expect(reference.executorStats().compiled).toBe(0);
});

it('prepares a document once and runs it from the cache', async () => {
  const query = '{ networks(first: 2) { totalCount nodes { id name } } }';
  await same(query);
  const documents = jit.pipelineStats().documents;
  await same(query);
  await same(query);
  expect(jit.pipelineStats().documents).toBe(documents);
});

it('gives identical upstream errors, NOT_FOUND nulls and partial data', async () => {
  const network = firstNetwork();
  await same('{ network(id: "00000000-0000-4000-8000-000000000000") { id name } networks(first: 1) { nodes { id } } }');
  await same(`{ a: network(id: "${network.id}") { id } b: endpoint(networkId: "${network.id}", id: "00000000-0000-4000-8000-000000000000") { id } }`);
  await same('{ networks(first: 2) { nodes { id } } }', undefined, { token: null });
  await same('{ networkGroups { nodes { id } } }', undefined, { token: 'not-a-token' });
  sandbox.control.setFaults([{ method: 'GET', route: '**/endpoints**', errorRate: 1, status: 500 }]);
  try {
    const partial = await same(`{ network(id: "${network.id}") { id name endpoints(first: 5) { totalCount nodes { id } } services(first: 5) { nodes { id } } } }`);
    expect(partial.body.errors?.[0]?.extensions?.['code']).toBe('UPSTREAM_ERROR');
    expect(partial.body.data?.['network']).not.toBeNull();
    await same('query Graph { networks(first: 3) { nodes { id endpoints(first: 3) { nodes { id appWans { nodes { id } } } } } } }');
  } finally {
    sandbox.control.clearFaults();
  }
  sandbox.control.setFaults([{ method: 'GET', route: '**', errorRate: 1, status: 403 }]);
  try {
    await same('{ networks(first: 2) { totalCount nodes { id } } networkGroups { totalCount } }');
  } finally {
    sandbox.control.clearFaults();
  }
});

it('gives identical input errors: literals, variables, unknown operations', async () => {
  const network = firstNetwork();
  await same('{ network(id: "not-a-uuid") { id } }');
  const bad = await same('query Q($id: UUID!) { network(id: $id) { id } }', { id: 'nope' });
  expect(bad.body.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
  await same('query Q($id: UUID!) { network(id: $id) { id } }', {});
  await same('query Q($first: Int) { networks(first: $first) { nodes { id } } }', { first: 'many' });
  await same('query Q($first: Int) { networks(first: $first) { nodes { id } } }', { first: 5000 });
  await same('query A { networks(first: 1) { nodes { id } } } query B { networkGroups { totalCount } }', undefined, { operationName: 'B' });
  await same('query A { networks(first: 1) { nodes { id } } } query B { networkGroups { totalCount } }', undefined, { operationName: 'C' });
  await same('query A { networks(first: 1) { nodes { id } } } query B { networkGroups { totalCount } }');
  await same(`mutation { updateNetwork(id: "${network.id}", input: { name: "" }) { accepted } }`);
});

it('runs mutations, fragments, abstract types, directives and introspection identically', async () => {
  const network = firstNetwork();
  const name = `jit-${process.pid}`;
  // A create is sent once per gateway, each with its own name; then a second create of each name fails alike.
  const create = (url: string, which: string): Promise<GqlResult> =>
    postGraphQL(url, `mutation { createAppWan(networkId: "${network.id}", input: { name: "${name}-${which}" }) { accepted appWan { name } } }`, undefined, {
      token: sandbox.tokens.admin,
    });
  const named = (res: GqlResult): string => JSON.stringify(res.body).replaceAll(/-(ref|jit)\b/g, '-X');
  for (let round = 0; round < 2; round += 1) {
    const [expected, actual] = [await create(reference.url, 'ref'), await create(jit.url, 'jit')];
    expect(named(actual)).toEqual(named(expected));
    expect(actual.body.errors?.length ?? 0).toBe(round);
  }
  await same(`
    fragment N on Network { id name }
    query Q($withEndpoints: Boolean!) {
      networks(first: 3) { nodes { ...N endpoints(first: 2) @include(if: $withEndpoints) { nodes { __typename id } } } }
      grants(first: 5) { nodes { __typename grantType ... on CustomRoleGrant { grantId } } }
    }`, { withEndpoints: true });
  await same('{ __schema { queryType { name } types { name kind } } __type(name: "Grant") { possibleTypes { name } } }');
  await same('{ __typename networks(first: 1) @skip(if: true) { totalCount } }');
});
