/**
 * Relay end to end: relay-compiler compiles the repository's Relay project (relay/: its config,
 * a `@refetchable` fragment on every Node type and a `@connection` pagination fragment) against
 * the schema snapshot, into a fresh folder; relay-runtime, over a real gateway and sandbox, then
 * refetches one object of each Node type by its global id and pages a connection to its end,
 * through Relay's own store and connection handler.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { buildSchema, isInterfaceType } from 'graphql';
import {
  createOperationDescriptor,
  Environment,
  fetchQuery,
  getSingularSelector,
  Network,
  RecordSource,
  Store,
  type ConcreteRequest,
  type GraphQLResponse,
  type ReaderFragment,
} from 'relay-runtime';
import { startStack, type Stack } from '../../helpers/stack';
import { idField, nodeSamples, type NodeSample } from '../node/node-sample';

const root = join(__dirname, '..', '..', '..');
const relayDir = join(root, 'relay');
// relay-compiler's package exports the path of its binary for this platform.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const relayCompiler = require('relay-compiler') as string;

let artifacts: string;
let stack: Stack;
let samples: NodeSample[];

beforeAll(async () => {
  // Inside the repository (so artifacts resolve relay-runtime), one folder per run.
  mkdirSync(join(root, '.tmp'), { recursive: true });
  artifacts = mkdtempSync(join(root, '.tmp', 'relay-'));
  // The repository's configuration as it is, but for where the artifacts go (the compiler takes no
  // option beside a configuration file): the committed relay/ stays as a client would keep it.
  const config = JSON.parse(readFileSync(join(relayDir, 'relay.config.json'), 'utf8')) as Record<string, unknown>;
  const configFile = join(artifacts, 'relay.config.json');
  writeFileSync(configFile, JSON.stringify({ ...config, src: join(relayDir, 'src'), schema: join(root, 'schema.graphql'), artifactDirectory: artifacts }));
  await promisify(execFile)(relayCompiler, ['--output', 'quiet-with-errors', configFile], { cwd: artifacts });
  stack = await startStack({ seed: 'tiny' });
  samples = await nodeSamples(stack);
}, 60_000);
afterAll(async () => {
  await stack?.close();
  if (artifacts !== undefined) rmSync(artifacts, { recursive: true, force: true });
});

function artifact<T>(name: string): T {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const loaded = require(join(artifacts, `${name}.graphql`)) as { default: T };
  return loaded.default;
}

/** A Relay environment over the gateway: records keyed by their global id, as docs/typed-client.md configures it. */
function relayEnvironment(): Environment {
  return new Environment({
    network: Network.create(async (params, variables) => {
      const res = await fetch(stack.gatewayUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.tokens.admin}` },
        body: JSON.stringify({ query: params.text, variables }),
      });
      return (await res.json()) as GraphQLResponse;
    }),
    store: new Store(new RecordSource()),
    getDataID: (fieldValue) => fieldValue['nodeId'],
  });
}

/** Runs a query through Relay and reads `fragment` back from Relay's store, from the object at `field`. */
async function queryAndRead(environment: Environment, query: ConcreteRequest, fragment: ReaderFragment, variables: Record<string, unknown>): Promise<Record<string, unknown>> {
  await fetchQuery(environment, query, variables).toPromise();
  const operation = createOperationDescriptor(query, variables);
  const rootData = environment.lookup(operation.fragment).data as Record<string, unknown>;
  const data = environment.lookup(getSingularSelector(fragment, rootData['node'])).data;
  if (data === null || typeof data !== 'object') throw new Error(`${fragment.name}: nothing in the store`);
  return data as Record<string, unknown>;
}

test('relay-compiler compiled a refetch query for every type that implements Node', () => {
  const schema = buildSchema(readFileSync(join(root, 'schema.graphql'), 'utf8'));
  const node = schema.getType('Node');
  if (!isInterfaceType(node)) throw new Error('the schema has no Node interface');
  const nodeTypes = schema.getPossibleTypes(node).map((t) => t.name).sort();
  const compiled = readdirSync(artifacts).flatMap((f) => /^NodeRefetch(\w+)Query\.graphql\.ts$/.exec(f)?.[1] ?? []).sort();
  expect(compiled).toEqual(nodeTypes);
  expect(samples.map((s) => s.typename).sort()).toEqual(nodeTypes);
});

test('relay-runtime refetches one object of each Node type by its global id', async () => {
  const environment = relayEnvironment();
  for (const { typename, nodeId, id } of samples) {
    const read = await queryAndRead(environment, artifact(`NodeRefetch${typename}Query`), artifact(`NodeRefetch_${typename}`), { nodeId });
    // The REST identity: `id`, or `grantId` for grants (which have no `id`).
    const key = idField(typename);
    expect({ typename, read }).toEqual({ typename, read: expect.objectContaining({ nodeId, [key]: id }) });
    // Relay's store keeps the object under its global id.
    expect(environment.getStore().getSource().get(nodeId)).toEqual(expect.objectContaining({ __typename: typename, [key]: id }));
  }
});

test('relay-runtime pages a connection to its end: every endpoint of the network once, in order', async () => {
  const network = samples.find((s) => s.typename === 'Network');
  if (network === undefined) throw new Error('no network');
  const all = await stack.gql('query ($id: UUID!) { network(id: $id) { endpoints(first: 1000) { nodes { nodeId } } } }', { id: network.id });
  const expected = (all.body.data?.['network'] as { endpoints: { nodes: { nodeId: string }[] } }).endpoints.nodes.map((n) => n.nodeId);
  expect(expected.length).toBeGreaterThan(2); // more than one page of 2

  const environment = relayEnvironment();
  const query = artifact<ConcreteRequest>('NetworkEndpointsPaginationQuery');
  const fragment = artifact<ReaderFragment>('NetworkEndpoints_network');
  interface Page {
    endpoints: { totalCount: number; edges: { node: { nodeId: string } }[]; pageInfo: { endCursor: string | null; hasNextPage: boolean } };
  }
  let cursor: string | null = null;
  let pages = 0;
  let read: Page;
  do {
    read = (await queryAndRead(environment, query, fragment, { nodeId: network.nodeId, count: 2, cursor })) as unknown as Page;
    cursor = read.endpoints.pageInfo.endCursor;
    pages += 1;
  } while (read.endpoints.pageInfo.hasNextPage && pages <= expected.length);
  // Relay's connection handler merged the pages into one list.
  expect(read.endpoints.edges.map((e) => e.node.nodeId)).toEqual(expected);
  expect(read.endpoints.totalCount).toBe(expected.length);
  expect(pages).toBe(Math.ceil(expected.length / 2));
});
