/**
 * Every GraphQL example of the documentation (README.md and docs/*.md) runs as a reader runs it,
 * against the demo sandbox: queries and mutations over HTTP, subscriptions over the WebSocket (or
 * over SSE when the example is a curl to /graphql/stream), each answering without errors, or with
 * the errors it says it shows. Examples with variables are named operations; their values come
 * from the demo data or from the examples before them, as the text tells the reader (VARIABLES).
 */
import { expectNoErrors, startStack, type GqlResult, type Stack } from '../helpers/stack';
import { Clients, sandboxRest } from '../helpers/subscriptions';
import { waitUntil } from '../helpers/wait';
import { docExamples, type DocExample } from '../helpers/docs-examples';
import { isObject } from '../../src/core/parse';

/** The demo data's `production` network, which the examples name by id. */
const PRODUCTION = '5c186625-714e-48fe-9c9a-064ee893467d';

type Data = Record<string, unknown>;

interface Run {
  stack(): Stack;
  /** The data of the named example (run first, once, when it has not run yet). */
  data(name: string): Promise<Data>;
}

/** Where each example with variables gets them: what its text tells the reader to use. */
const VARIABLES: Record<string, (run: Run) => Promise<Record<string, unknown>>> = {
  // docs/changes-and-provisioning.md, the walk-through: the network and AppWAN the first step found.
  CreateLaptop: async ({ data }) => ({ networkId: text(await data('FindNetwork'), 'networks', 'nodes', 0, 'id') }),
  Authorize: async ({ data }) => {
    const found = await data('FindNetwork');
    return {
      networkId: text(found, 'networks', 'nodes', 0, 'id'),
      appWanId: text(found, 'networks', 'nodes', 0, 'appWans', 'nodes', 0, 'id'),
      endpointId: text(await data('CreateLaptop'), 'createEndpoint', 'endpoint', 'id'),
    };
  },
  Laptop: async ({ data }) => ({
    networkId: text(await data('FindNetwork'), 'networks', 'nodes', 0, 'id'),
    endpointId: text(await data('CreateLaptop'), 'createEndpoint', 'endpoint', 'id'),
  }),
  // The provisioning's id that provisionAppWan answered.
  Follow: async ({ data }) => ({ id: text(await data('ProvisionBranch'), 'provisionAppWan', 'id') }),
  // docs/subscriptions.md: a network created straight in the sandbox, as its curl does.
  Provisioning: async (run) => {
    const created = await sandboxRest(run.stack(), 'POST', '/networks', { name: 'watch-me' });
    expect(created.status).toBe(202);
    return { id: text(created.body, 'id') };
  },
  // The business key of the walk-through's authorization.
  FollowChange: async ({ data }) => ({ businessKey: text(await data('Authorize'), 'addAppWanEndpoints', 'businessKey') }),
  Live: () => Promise.resolve({ networkId: PRODUCTION }),
  // docs/typed-client.md, Relay: the global id of a network, as a list answers it.
  Refetch: async (run) => ({ nodeId: text(expectNoErrors(await run.stack().gql('{ networks(first: 1) { nodes { nodeId } } }')), 'networks', 'nodes', 0, 'nodeId') }),
  // docs/api-areas.md: a management API v2 network and one of its edge routers.
  CreateService: async (run) => {
    const found = expectNoErrors(await run.stack().gql('{ v2Networks(first: 1) { nodes { id edgeRouters(first: 1) { nodes { id } } } } }'));
    return { networkId: text(found, 'v2Networks', 'nodes', 0, 'id'), routerId: text(found, 'v2Networks', 'nodes', 0, 'edgeRouters', 'nodes', 0, 'id') };
  },
};

/** What some examples' text promises beyond "no errors". */
const CHECKS: Record<string, (data: Data, run: Run) => Promise<void> | void> = {
  CreateLaptop: (data) => expect(data).toMatchObject({ createEndpoint: { accepted: true, endpoint: { name: 'laptop-grace' } } }),
  Authorize: (data) => expect(data).toMatchObject({ addAppWanEndpoints: { accepted: true, businessKey: expect.any(String), workflow: { state: 'RUNNING' } } }),
  Laptop: async (data, { data: dataOf }) => {
    const appWan = text(await dataOf('FindNetwork'), 'networks', 'nodes', 0, 'appWans', 'nodes', 0, 'name');
    expect(data).toMatchObject({ endpoint: { name: 'laptop-grace', appWans: { nodes: [{ name: appWan }] } } });
  },
  ProvisionBranch: (data) => expect(data).toMatchObject({ provisionAppWan: { id: expect.any(String), steps: expect.arrayContaining([expect.objectContaining({ state: 'PENDING' })]) } }),
  Live: (data) => expect(data).toMatchObject({ networkChanges: { snapshot: true } }),
  Refetch: (data) => expect(data).toMatchObject({ node: { __typename: 'Network', nodeId: expect.any(String), id: expect.any(String) } }),
};

let stack: Stack;
const clients = new Clients(() => stack);
beforeAll(async () => {
  stack = await startStack({ seed: 'demo' });
});
afterAll(async () => {
  await clients.disposeAll();
  await stack.close();
});

const examples = docExamples();
const byName = new Map<string, DocExample>();
for (const example of examples) {
  const { name } = example.operation;
  if (name === null) continue;
  if (byName.has(name)) throw new Error(`${example.where}: the operation name ${name} is used by ${byName.get(name)?.where ?? ''} too; examples are told apart by name`);
  byName.set(name, example);
}

const results = new Map<DocExample, Promise<Data>>();
const run: Run = {
  stack: () => stack,
  data(name) {
    const example = byName.get(name);
    if (example === undefined) throw new Error(`no example is named ${name}`);
    return runOnce(example);
  },
};

function runOnce(example: DocExample): Promise<Data> {
  let result = results.get(example);
  if (result === undefined) {
    result = execute(example);
    results.set(example, result);
  }
  return result;
}

async function execute(example: DocExample): Promise<Data> {
  const variables = example.variables ?? (await variablesOf(example));
  const data = example.operation.type === 'subscription' ? await firstEvent(example, variables) : answer(example, await stack.gql(example.source, variables));
  const name = example.operation.name;
  const check = name === null ? undefined : CHECKS[name];
  await check?.(data, run);
  return data;
}

async function variablesOf(example: DocExample): Promise<Record<string, unknown> | undefined> {
  const { name, variables } = example.operation;
  if (variables.length === 0) return undefined;
  const provide = name === null ? undefined : VARIABLES[name];
  if (provide === undefined) throw new Error(`${example.where}: ${name ?? 'an anonymous operation'} takes variables (${variables.join(', ')}): name it and say in VARIABLES where the reader gets them`);
  return provide(run);
}

/** The answer's data, after checking its errors against what the example says it shows. */
function answer(example: DocExample, result: GqlResult): Data {
  if (example.expected.length === 0) return expectNoErrors(result);
  const codes = (result.body.errors ?? []).map((e) => e.extensions?.['code']);
  expect({ where: example.where, codes }).toEqual({ where: example.where, codes: example.expected });
  return result.body.data ?? {};
}

/** A subscription's first event (or its end, when it ends first). */
async function firstEvent(example: DocExample, variables: Record<string, unknown> | undefined): Promise<Data> {
  const client = example.door === 'sse' ? clients.sse() : clients.ws();
  const log = clients.follow(client, example.source, variables);
  try {
    await waitUntil(() => log.results.length > 0 || log.status !== 'open', () => `a first event\n${log.describe()}`);
    if (log.status === 'error') throw new Error(`${example.where}: the subscription failed\n${log.describe()}`);
    const [first] = log.results;
    if (first === undefined) throw new Error(`${example.where}: the subscription ended without an event\n${log.describe()}`);
    const codes = (first.errors ?? []).map((e) => e.extensions?.['code']);
    expect({ where: example.where, codes }).toEqual({ where: example.where, codes: example.expected });
    return first.data ?? {};
  } finally {
    log.unsubscribe();
  }
}

function at(value: unknown, path: ReadonlyArray<string | number>): unknown {
  let here = value;
  for (const key of path) {
    if (Array.isArray(here) && typeof key === 'number') here = here[key] as unknown;
    else if (isObject(here) && typeof key === 'string') here = here[key];
    else return undefined;
  }
  return here;
}

function text(value: unknown, ...path: Array<string | number>): string {
  const found = at(value, path);
  if (typeof found !== 'string') throw new Error(`no string at ${path.join('.')} in ${JSON.stringify(value)}`);
  return found;
}

describe('the examples found', () => {
  it('the README shows a first query, a first change and a first subscription, each with its curl where it has one', () => {
    const readme = examples.filter((e) => e.file === 'README.md');
    expect(readme.map((e) => `${e.door} ${e.operation.type}`)).toEqual(
      expect.arrayContaining(['ws query', 'http query', 'ws mutation', 'ws subscription', 'sse subscription']),
    );
  });

  it('every docs file with GraphQL in it is covered, and every example with variables can be given them', () => {
    expect(new Set(examples.map((e) => e.file)).size).toBeGreaterThanOrEqual(6);
    const unprovided = examples.filter((e) => e.operation.variables.length > 0 && (e.operation.name === null || VARIABLES[e.operation.name] === undefined));
    expect(unprovided.map((e) => e.where)).toEqual([]);
    expect(Object.keys(VARIABLES).filter((name) => !byName.has(name))).toEqual([]);
  });
});

it.each(examples.map((e) => [e.where, e.operation.name ?? `anonymous ${e.operation.type}`, e] as const))('%s (%s) runs against the demo sandbox as printed', async (_where, _name, example) => {
  const data = await runOnce(example);
  if (example.expected.length === 0) expect(Object.keys(data).length).toBeGreaterThan(0);
});
