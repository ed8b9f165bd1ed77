/**
 * The MCP door's pieces without a network: the shipped operations (each a valid tool, named and
 * described), JSON Schema from variables and selection sets (checked with the validator the SDK's
 * client uses), progress from subscription events, errors as assistants see them, and
 * MCP_MUTATIONS.
 */
import { join } from 'node:path';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { getOperationAST, parse } from 'graphql';
import { loadConfig } from '../../../src/config';
import { backgroundCaller } from '../../../src/core/caller';
import { buildCatalog, readOperationFolder, snakeCase } from '../../../src/doors/mcp/catalog';
import { dataSchema, variablesSchema } from '../../../src/doors/mcp/json-schema';
import { progressOf } from '../../../src/doors/mcp/progress';
import { errorResult, summarize } from '../../../src/doors/mcp/results';
import type { McpRunner } from '../../../src/doors/mcp/runner';
import { buildTools, type ToolCall, type ToolEntry } from '../../../src/doors/mcp/tools';
import { buildSchema } from '../../../src/server/schema';

const schema = buildSchema();
const folder = join(__dirname, '..', '..', '..', 'operations', 'mcp');
const validator = new AjvJsonSchemaValidator();

function operationOf(text: string): { document: ReturnType<typeof parse>; operation: NonNullable<ReturnType<typeof getOperationAST>> } {
  const document = parse(text);
  const operation = getOperationAST(document);
  if (!operation) throw new Error('no operation');
  return { document, operation };
}

/** A runner that must not be called (tool lists are built without running anything). */
const idle: McpRunner = {
  execute: () => Promise.reject(new Error('not expected')),
  subscribe: () => {
    throw new Error('not expected');
  },
  validate: () => ({ errors: [], cost: null, operationType: 'query' }),
  verify: () => Promise.reject(new Error('not expected')),
};

describe('shipped operations', () => {
  const warnings: string[] = [];
  const catalog = buildCatalog(schema, readOperationFolder(folder), (m) => warnings.push(m));

  it('each parse, validate and become a tool named after its operation, described by its leading comment', () => {
    expect(warnings).toEqual([]);
    expect(catalog.length).toBe(readOperationFolder(folder).length);
    for (const op of catalog) {
      expect({ tool: op.tool, name: /^[a-z][a-z0-9_]{2,63}$/.test(op.tool), described: op.description.length > 40 && !op.description.includes('#') }).toEqual({ tool: op.tool, name: true, described: true });
    }
  });

  it('give every list tool an optional `first`, and records with an id (and a name where the type has one)', () => {
    const lists = catalog.filter((o) => o.tool.startsWith('list_'));
    expect(lists.map((o) => o.tool).sort()).toEqual(['list_alerts', 'list_networks', 'list_v2_networks']);
    for (const op of lists) {
      const input = variablesSchema(schema, op.document, op.operation);
      expect({ tool: op.tool, first: input.properties['first']?.['type'], required: input.required ?? [] }).toEqual({ tool: op.tool, first: 'integer', required: [] });
      // The one root field is a connection whose records carry an id, and a name where their type has one.
      const [root] = Object.values(dataSchema(schema, op.document, op.operation).properties) as Array<{ properties: { nodes: { items: { required: string[] } } } }>;
      const named = op.tool !== 'list_alerts';
      expect({ tool: op.tool, required: root?.properties.nodes.items.required }).toEqual({ tool: op.tool, required: expect.arrayContaining(named ? ['id', 'name'] : ['id']) });
    }
  });
});

describe('snakeCase', () => {
  it.each([
    ['ListNetworks', 'list_networks'],
    ['WhoCanReachV2Service', 'who_can_reach_v2_service'],
    ['provisionAppWAN', 'provision_app_wan'],
    ['top-talkers', 'top_talkers'],
  ])('%s → %s', (name, tool) => expect(snakeCase(name)).toBe(tool));
});

describe('buildCatalog', () => {
  it('leaves out what does not validate, anonymous operations and taken names, saying why', () => {
    const warnings: string[] = [];
    const catalog = buildCatalog(
      schema,
      [
        { text: '{ gatewayInfo { version } }', origin: 'a' },
        { text: 'query Nope { nope }', origin: 'b' },
        { text: '# Who am I.\nquery Mine { myOrganization { id } }\n\nquery mine { gatewayInfo { sandbox } }', origin: 'c' },
      ],
      (m) => warnings.push(m),
    );
    expect(catalog.map((c) => [c.tool, c.description])).toEqual([['mine', 'Who am I.']]);
    expect(warnings).toEqual([expect.stringMatching(/anonymous operation in a/), expect.stringMatching(/b does not validate/), expect.stringMatching(/mine in c would be tool mine, which is taken/)]);
  });

  it("falls back to the root fields' descriptions", () => {
    const [op] = buildCatalog(schema, [{ text: 'query Info { gatewayInfo { version } }', origin: 'x' }], () => undefined);
    expect(op?.description).toBe('What this gateway is and how it is configured.');
  });
});

describe('JSON Schema', () => {
  it('describes variables by the arguments and input fields they feed; non-null without default is required', () => {
    const { document, operation } = operationOf('query($n: UUID!, $ids: [UUID!]!, $first: Int = 5, $sort: [SortInput!]) { network(id: $n) { endpoints(first: $first, sort: $sort) { nodes { id } } } e: networks(first: 1) { nodes { appWans(first: 1) { nodes { id } } } } x: networkGroup(id: $n) { id } }');
    const input = variablesSchema(schema, document, operation);
    expect(input.required).toEqual(['n', 'ids']);
    expect(input.properties['n']).toEqual({ type: 'string', format: 'uuid', description: "The record's id." });
    expect(input.properties['first']).toMatchObject({ type: 'integer', default: 5, description: 'How many items to return: 0 to 1000.' });
    expect(input.properties['sort']).toMatchObject({
      type: 'array',
      items: { type: 'object', required: ['field'], properties: { direction: { type: 'string', enum: ['ASC', 'DESC'], default: 'ASC' } } },
    });
  });

  it('keeps a recursive input type finite', () => {
    const { document, operation } = operationOf('mutation($input: CreateResourceTypeInput!) { createResourceType(input: $input) { id } }');
    const text = JSON.stringify(variablesSchema(schema, document, operation));
    expect(text).toMatch(/the same shape as its parent/);
    expect(text.length).toBeLessThan(20_000);
  });

  it('describes data by the selection: aliases, nullability, lists, enums, fragments on abstract types', () => {
    const { document, operation } = operationOf(`
      query($id: UUID!) {
        net: network(id: $id) { id name status }
        workflows(first: 1) { nodes { state steps { task } } }
      }`);
    const query = dataSchema(schema, document, operation);
    const valid = validator.getValidator(query);
    expect(valid({ net: { id: 'a', name: null, status: 300 }, workflows: { nodes: [{ state: 'RUNNING', steps: [{ task: null }] }] } }).valid).toBe(true);
    expect(valid({ net: null, workflows: null }).valid).toBe(true);
    expect(valid({ net: { id: 'a', name: 'x', status: 'PROVISIONED' }, workflows: null }).valid).toBe(false);
    expect(valid({ net: null, workflows: { nodes: [{ state: 'DONE', steps: [] }] } }).valid).toBe(false);
    expect(valid({ net: null }).valid).toBe(false);

    const subscription = operationOf('subscription S { resourceStatus(kind: NETWORK, id: "00000000-0000-4000-8000-000000000000") { __typename terminal resource { ... on Network { name } ... on Endpoint { endpointType } } } }');
    const events = validator.getValidator(dataSchema(schema, subscription.document, subscription.operation));
    expect(events({ resourceStatus: { __typename: 'ResourceStatusEvent', terminal: true, resource: { name: 'n' } } }).valid).toBe(true);
    expect(events({ resourceStatus: { __typename: 'ResourceStatusEvent', terminal: true, resource: { endpointType: 'GW' } } }).valid).toBe(true);
    expect(events({ resourceStatus: { __typename: 'ResourceStatusEvent', terminal: true, resource: { other: 1 } } }).valid).toBe(false);
  });
});

describe('progress', () => {
  const provisioning = (states: string[], state = 'RUNNING'): Record<string, unknown> => ({ provisioning: { state, steps: states.map((s, i) => ({ index: i + 1, task: `t${i}`, description: `step ${i + 1}`, state: s })) } });

  it('counts finished steps out of all, naming the running one', () => {
    expect(progressOf(provisioning(['DONE', 'RUNNING', 'PENDING']), 4)).toEqual({ progress: 1, total: 3, message: 'RUNNING: 1/3 steps finished; now: step 2' });
    expect(progressOf(provisioning(['DONE', 'DONE', 'FAILED'], 'FAILED'), 9)).toMatchObject({ progress: 3, total: 3 });
    expect(progressOf({ workflow: { state: 'RUNNING', steps: [{ task: 'a', status: 'Completed' }, { task: 'b', status: 'InProgress' }] } }, 1)).toMatchObject({ progress: 1, total: 2, message: expect.stringContaining('now: b') });
  });

  it('counts events for anything without steps', () => {
    expect(progressOf({ resourceStatus: { statusName: 'PROVISIONING' } }, 2)).toEqual({ progress: 2, message: 'PROVISIONING (event 2)' });
  });
});

describe('results', () => {
  it('keep codes and client-facing extensions, never the upstream call, an address or a token', () => {
    const result = errorResult('t', [
      { message: 'rest-v1 answered 403 at http://10.0.0.5:8080/rest/v1/networks with Bearer abcdefghijklmnopqrstu', path: ['a'], extensions: { code: 'FORBIDDEN', upstream: { service: 'rest-v1', method: 'POST', path: '/rest/v1/networks', status: 403 } } },
      { message: 'too expensive', extensions: { code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost: { limit: 'nodes' }, stacktrace: ['x'] } },
    ]);
    expect(result.isError).toBe(true);
    const text = JSON.stringify(result);
    expect(text).not.toMatch(/upstream|10\.0\.0\.5|abcdefghij|stacktrace/);
    expect(result.content[0]).toEqual({ type: 'text', text: 't failed: FORBIDDEN: rest-v1 answered 403 at [address] with Bearer [redacted] (at a); COST_ESTIMATED_TOO_EXPENSIVE: too expensive' });
  });

  it('summarize lists, records and steps in a line each', () => {
    expect(summarize({ networks: { totalCount: 3, nodes: [{ id: '1', name: 'a' }, { id: '2', name: 'b' }] }, provisioning: { id: 'p', state: 'RUNNING', steps: [{}, {}] }, gone: null })).toBe(
      ['networks: 2 of 3: a, b', 'provisioning: id p, state RUNNING, 2 steps', 'gone: none'].join('\n'),
    );
  });
});

describe('MCP_MUTATIONS and trusted documents', () => {
  const operations = buildCatalog(schema, readOperationFolder(folder), () => undefined);
  const names = (options: Partial<Parameters<typeof buildTools>[0]>): string[] =>
    [...buildTools({ schema, runner: idle, operations, mutations: 'listed', trusted: null, warn: () => undefined, ...options }).keys()].sort();

  it('is validated at start-up: `listed` by default in sandbox mode, `none` on a platform', () => {
    expect(loadConfig({}).mcp.mutations).toBe('listed');
    expect(loadConfig({ UPSTREAM_BASE_URL: 'https://platform.example.com' }).mcp.mutations).toBe('none');
    expect(loadConfig({ UPSTREAM_BASE_URL: 'https://platform.example.com', MCP_MUTATIONS: 'listed' }).mcp.mutations).toBe('listed');
    expect(loadConfig({ MCP_MUTATIONS: 'None' }).mcp.mutations).toBe('none');
    expect(() => loadConfig({ MCP_MUTATIONS: 'some' })).toThrow('MCP_MUTATIONS must be one of none, listed, all; got "some"');
  });

  it('none hides the mutation tools; trusted-only hides execute and what the manifest lacks', () => {
    const all = names({});
    expect(all).toEqual(expect.arrayContaining(['execute', 'provision_app_wan', 'authorize_endpoints']));
    expect(names({ mutations: 'none' })).toEqual(all.filter((n) => n !== 'provision_app_wan' && n !== 'authorize_endpoints'));
    const listNetworks = operations.find((o) => o.tool === 'list_networks')?.query;
    expect(names({ trusted: { only: true, has: (d) => d === listNetworks } })).toEqual(['introspect', 'list_networks', 'search_schema', 'validate']);
  });
});

describe('the schema tools', () => {
  const operations = buildCatalog(schema, readOperationFolder(folder), () => undefined);
  /** The platform accepts one token; verifications counted. */
  let verified = 0;
  const platform: McpRunner = {
    ...idle,
    verify(caller) {
      verified += 1;
      return Promise.resolve(caller.authorization === 'Bearer good' ? null : { message: 'the platform does not accept this token', extensions: { code: 'UNAUTHENTICATED' } });
    },
  };
  const tools = (schemaTools: { offered: boolean; needToken: boolean }): Map<string, ToolEntry> => buildTools({ schema, runner: platform, operations, mutations: 'listed', trusted: null, schemaTools, warn: () => undefined });
  const call = (authorization: string | undefined): ToolCall => ({ caller: backgroundCaller(authorization, null), signal: new AbortController().signal, progress: async () => undefined });

  it('are not offered when introspection is off (INTROSPECTION=off)', () => {
    const names = [...tools({ offered: false, needToken: false }).keys()];
    expect(names).not.toContain('introspect');
    expect(names).not.toContain('search_schema');
    expect(names).toContain('validate');
  });

  it.each(['introspect', 'search_schema'])('%s answers UNAUTHENTICATED without a token or with one the platform refuses when the gateway needs one, and answers an accepted one', async (name) => {
    const tool = tools({ offered: true, needToken: true }).get(name);
    if (!tool) throw new Error(`no ${name}`);
    const args = name === 'introspect' ? { name: 'Network' } : { words: 'endpoint' };
    for (const authorization of [undefined, 'Bearer junk']) {
      const refused = await tool.call(args, call(authorization));
      expect(refused.isError).toBe(true);
      expect(JSON.stringify(refused.content)).toContain('UNAUTHENTICATED');
    }
    const withToken = await tool.call(args, call('Bearer good'));
    expect(withToken.isError).toBeFalsy();
  });

  it('checks the arguments before asking the platform: a refused search costs no verification', async () => {
    const tool = tools({ offered: true, needToken: true }).get('search_schema');
    if (!tool) throw new Error('no search_schema');
    verified = 0;
    const refused = await tool.call({ words: 'a '.repeat(100) }, call('Bearer good'));
    expect(JSON.stringify(refused.content)).toContain('BAD_USER_INPUT');
    expect(verified).toBe(0);
  });

  it('asks nothing of the platform in the sandbox (needToken false)', async () => {
    const tool = tools({ offered: true, needToken: false }).get('search_schema');
    if (!tool) throw new Error('no search_schema');
    verified = 0;
    expect((await tool.call({ words: 'endpoint' }, call(undefined))).isError).toBeFalsy();
    expect(verified).toBe(0);
  });
});
