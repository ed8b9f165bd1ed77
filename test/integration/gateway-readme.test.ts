/** The queries the top-level README tells a new user to paste work as printed. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expectNoErrors, startStack, type Stack } from '../helpers/stack';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seed: 'demo' });
});
afterAll(() => stack.close());

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
// Blocks that take variables are steps of a walk-through, run in order below.
const queries = blocks.filter((q) => !q.includes('$'));

it('the README has example queries', () => {
  expect(queries.length).toBeGreaterThanOrEqual(2);
});

it.each(queries.map((q, i) => [i + 1, q] as const))('README query %i runs without errors against the demo sandbox', async (_n, query) => {
  const data = expectNoErrors(await stack.gql(query));
  expect(Object.keys(data).length).toBeGreaterThan(0);
});

describe('the "Changing things" walk-through', () => {
  const section = readme.slice(readme.indexOf('## Changing things'), readme.indexOf('\n## ', readme.indexOf('## Changing things') + 1));
  const steps = [...section.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');

  it('runs as printed: find a network, create an endpoint, authorize it, read it back', async () => {
    expect(steps).toHaveLength(4);
    const [find = '', create = '', authorize = '', read = ''] = steps;
    const found = expectNoErrors(await stack.gql(find)) as { networks: { nodes: Array<{ id: string; appWans: { nodes: Array<{ id: string; name: string }> } }> } };
    const network = found.networks.nodes[0];
    const appWan = network?.appWans.nodes[0];
    if (network === undefined || appWan === undefined) throw new Error('the demo seed has no network with an AppWAN');

    const created = expectNoErrors(await stack.gql(create, { networkId: network.id })) as { createEndpoint: { accepted: boolean; endpoint: { id: string; name: string } } };
    expect(created.createEndpoint).toMatchObject({ accepted: true, endpoint: { name: 'laptop-ada' } });
    const endpointId = created.createEndpoint.endpoint.id;

    const authorized = expectNoErrors(await stack.gql(authorize, { networkId: network.id, appWanId: appWan.id, endpointId }));
    expect(authorized).toMatchObject({ addAppWanEndpoints: { accepted: true, businessKey: expect.any(String), workflow: { state: 'RUNNING' } } });

    const readBack = expectNoErrors(await stack.gql(read, { networkId: network.id, endpointId }));
    expect(readBack).toMatchObject({ endpoint: { name: 'laptop-ada', appWans: { nodes: [{ name: appWan.name }] } } });
  });
});
