/**
 * The operations the top-level README tells a new user to paste work as printed: queries run over
 * HTTP, subscriptions over the WebSocket (each event without errors, then completion), and those
 * that need variables (values the reader gets from a change of their own) are valid against the
 * schema.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, validate } from 'graphql';
import { buildSchema } from '../../src/server/schema';
import { expectNoErrors, startStack, type Stack } from '../helpers/stack';
import { Clients } from '../helpers/subscriptions';

let stack: Stack;
const clients = new Clients(() => stack);
beforeAll(async () => {
  stack = await startStack({ seed: 'demo' });
});
afterAll(async () => {
  await clients.disposeAll();
  await stack.close();
});

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const blocks = [...readme.matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const withVariables = blocks.filter((b) => /\$\w/.test(b));
const asPrinted = blocks.filter((b) => !withVariables.includes(b));
const queries = asPrinted.filter((b) => !/^\s*subscription\b/.test(b));
const subscriptions = asPrinted.filter((b) => /^\s*subscription\b/.test(b));
const numbered = (list: string[]) => list.map((q, i) => [i + 1, q] as const);

it('the README has example queries and subscriptions', () => {
  expect(queries.length).toBeGreaterThanOrEqual(2);
  expect(subscriptions.length).toBeGreaterThanOrEqual(1);
});

it.each(numbered(queries))('README query %i runs without errors against the demo sandbox', async (_n, query) => {
  const data = expectNoErrors(await stack.gql(query));
  expect(Object.keys(data).length).toBeGreaterThan(0);
});

it.each(numbered(subscriptions))('README subscription %i streams events without errors and completes against the demo sandbox', async (_n, query) => {
  const log = clients.follow(clients.ws(), query);
  await log.ended();
  expect(log.status).toBe('complete');
  expect(log.results.length).toBeGreaterThan(0);
  for (const result of log.results) expect(result.errors).toBeUndefined();
});

it.each(numbered(withVariables))('README operation %i with variables is valid against the schema', (_n, source) => {
  expect(validate(buildSchema(), parse(source)).map((e) => e.message)).toEqual([]);
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
