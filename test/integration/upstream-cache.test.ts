/**
 * Reads shared in flight and cached per credential, against the sandbox over real sockets (its
 * caching mode sends ETag and Cache-Control where a test asks for them). The cache's clock is
 * held by the test: freshness is moved, never waited for.
 */
import { ADMIN_IDENTITY_ID } from '../../src/sandbox';
import { dataAt, expectErrorAt, expectNoErrors, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
let clock = Date.now();
beforeAll(async () => {
  stack = await startStack({ seed: 'tiny', gatewayOptions: { cacheClock: () => clock } });
});
afterAll(() => stack.close());
beforeEach(() => {
  stack.sandbox.control.clearCaching();
  stack.sandbox.control.clearFaults();
  stack.sandbox.control.resetCalls();
});

const REGIONS = '{ geoRegions { nodes { id name } } }';
const calls = (route: string): number => stack.sandbox.control.calls().byRoute[route] ?? 0;
const regionCalls = (): number => calls('GET /rest/v1/geoRegions');

describe('in-flight sharing across requests', () => {
  it('one hundred identical concurrent queries make one upstream call, each with the whole answer', async () => {
    // The call is held long enough for every query to find it in flight.
    stack.sandbox.control.setFaults([{ route: '/rest/v1/geoRegions', latencyMs: 1500 }]);
    const results = await Promise.all(Array.from({ length: 100 }, () => stack.gql(REGIONS)));
    const first = JSON.stringify(expectNoErrors(results[0]!));
    for (const result of results) expect(JSON.stringify(expectNoErrors(result))).toBe(first);
    expect(regionCalls()).toBe(1);
  });

  it('never shares across credentials: the platform refusing one does not reach the other', async () => {
    stack.sandbox.control.setFaults([{ route: '/rest/v1/hosts', latencyMs: 500 }]);
    const hosts = '{ hosts { nodes { id name } } }';
    const [admin, reader] = await Promise.all([stack.gql(hosts), stack.gql(hosts, undefined, { token: stack.tokens.reader })]);
    expect((dataAt(admin, ['hosts', 'nodes']) as unknown[]).length).toBeGreaterThan(0);
    expectErrorAt(reader, ['hosts'], 'FORBIDDEN');
    expect(calls('GET /rest/v1/hosts')).toBe(2);
  });
});

describe('the private cache', () => {
  it('answers within max-age without a call, revalidates with If-None-Match after it, and a 304 makes it fresh again', async () => {
    stack.sandbox.control.setCaching([{ route: '/rest/v1/geoRegions', maxAgeS: 30 }]);
    const first = expectNoErrors(await stack.gql(REGIONS));
    expect(expectNoErrors(await stack.gql(REGIONS))).toEqual(first);
    clock += 29_000;
    expect(expectNoErrors(await stack.gql(REGIONS))).toEqual(first);
    expect(regionCalls()).toBe(1);

    clock += 2_000; // past max-age
    expect(expectNoErrors(await stack.gql(REGIONS))).toEqual(first);
    expect(regionCalls()).toBe(2);
    const revalidation = stack.sandbox.control.requests().filter((r) => r.route === '/rest/v1/geoRegions');
    expect(revalidation).toHaveLength(2);
    expect(stack.sandbox.control.caching().notModified).toBe(1);

    // Fresh again after the 304.
    expect(expectNoErrors(await stack.gql(REGIONS))).toEqual(first);
    expect(regionCalls()).toBe(2);

    // A hit is no upstream call: not in extensions.cost, not in the log line's upstreamCalls.
    const costed = await stack.gql(REGIONS, undefined, { headers: { 'netgraph-cost': '1' } });
    expect(dataAt(costed, [])).toEqual(first);
    expect(costed.body).toMatchObject({ extensions: { cost: { actual: { upstreamCalls: 0 } } } });
    const line = stack.logs.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l['msg'] === 'graphql').at(-1);
    expect(line).toMatchObject({ upstreamCalls: 0, upstreamReads: { hit: 1, shared: 0, revalidated: 0 } });
  });

  it('keeps each credential apart: one credential\'s entry never answers another', async () => {
    stack.sandbox.control.setCaching([{ route: '/rest/v1/hosts', maxAgeS: 300 }]);
    const hosts = '{ hosts { nodes { id } } }';
    expectNoErrors(await stack.gql(hosts));
    expectNoErrors(await stack.gql(hosts));
    expect(calls('GET /rest/v1/hosts')).toBe(1);
    expectErrorAt(await stack.gql(hosts, undefined, { token: stack.tokens.reader }), ['hosts'], 'FORBIDDEN');
    expectErrorAt(await stack.gql(hosts, undefined, { token: stack.tokens.reader }), ['hosts'], 'FORBIDDEN');
    expect(calls('GET /rest/v1/hosts')).toBe(3);
  });

  it('never keeps no-store, nor a response without caching headers', async () => {
    clock += 3_600_000; // what earlier tests kept is stale
    stack.sandbox.control.setCaching([{ route: '/rest/v1/geoRegions', noStore: true }]);
    for (let i = 0; i < 3; i += 1) expectNoErrors(await stack.gql(REGIONS));
    expect(regionCalls()).toBe(3);
    stack.sandbox.control.clearCaching();
    for (let i = 0; i < 3; i += 1) expectNoErrors(await stack.gql(REGIONS));
    expect(regionCalls()).toBe(6);
  });

  it('a caller reads its own rename back at once, and so does every other credential', async () => {
    stack.sandbox.control.setCaching([{ route: '/rest/v1/networks/{networkId}', maxAgeS: 300 }]);
    const network = stack.sandbox.restFacts().networks[0]!;
    const read = 'query($id: UUID!) { network(id: $id) { name } }';
    const other = stack.sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID }, 3600);
    const before = dataAt(expectAnswer(await stack.gql(read, { id: network.id })), ['network', 'name']);
    dataAt(expectAnswer(await stack.gql(read, { id: network.id }, { token: other })), ['network', 'name']);
    expect(calls('GET /rest/v1/networks/{networkId}')).toBe(2);
    const name = `${String(before)}-renamed`;
    expectNoErrors(await stack.gql('mutation($id: UUID!, $name: String!) { updateNetwork(id: $id, input: { name: $name }) { accepted } }', { id: network.id, name }));
    expect(dataAt(await stack.gql(read, { id: network.id }), ['network', 'name'])).toBe(name);
    expect(dataAt(await stack.gql(read, { id: network.id }, { token: other }), ['network', 'name'])).toBe(name);
  });
});

function expectAnswer(result: Awaited<ReturnType<Stack['gql']>>): Awaited<ReturnType<Stack['gql']>> {
  expectNoErrors(result);
  return result;
}

describe('a random mix of reads and writes by two credentials', () => {
  it('never reads stale after a write, and never answers one credential with another\'s', async () => {
    stack.sandbox.control.setCaching([{ route: '/rest/v1/**', maxAgeS: 300 }]);
    const networks = stack.sandbox.restFacts().networks.map((n) => n.id);
    const writers = [stack.tokens.admin, stack.sandbox.tokenService.sign({ sub: ADMIN_IDENTITY_ID }, 7200)];
    const names = new Map<string, string>();
    for (const id of networks) names.set(id, String(dataAt(await stack.gql('query($id: UUID!) { network(id: $id) { name } }', { id }), ['network', 'name'])));
    // A seeded generator: the same mix on every run.
    let seed = 36;
    const random = (): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    let stale = 0;
    let crossed = 0;
    let writes = 0;
    for (let i = 0; i < 200; i += 1) {
      const token = writers[Math.floor(random() * 2)]!;
      const id = networks[Math.floor(random() * networks.length)]!;
      const roll = random();
      if (roll < 0.05) {
        const name = `mix-${i}`;
        expectNoErrors(await stack.gql('mutation($id: UUID!, $name: String!) { updateNetwork(id: $id, input: { name: $name }) { accepted } }', { id, name }, { token }));
        names.set(id, name);
        writes += 1;
      } else if (roll < 0.15) {
        // The reader is refused hosts; an administrator is not: neither ever gets the other's answer.
        const reader = await stack.gql('{ hosts { nodes { id } } }', undefined, { token: stack.tokens.reader });
        const admin = await stack.gql('{ hosts { nodes { id } } }', undefined, { token });
        if (reader.body.errors?.[0]?.extensions?.['code'] !== 'FORBIDDEN' || reader.body.data?.['hosts'] !== null) crossed += 1;
        if (admin.body.errors !== undefined) crossed += 1;
      } else {
        const name = dataAt(await stack.gql('query($id: UUID!) { network(id: $id) { name } }', { id }, { token }), ['network', 'name']);
        if (name !== names.get(id)) stale += 1;
      }
    }
    expect(writes).toBeGreaterThan(0);
    expect({ stale, crossed }).toEqual({ stale: 0, crossed: 0 });
    // And the cache did answer: far fewer network reads reached the platform than were made.
    expect(calls('GET /rest/v1/networks/{networkId}')).toBeLessThan(100);
  });
});
