/**
 * `/mcp` with the MCP SDK's own client over real HTTP, against a gateway on the sandbox: the tools
 * and their schemas, read tools answering what the same GraphQL query answers over /graphql,
 * errors as tool errors with codes (a reader's change refused by the platform, no token, an
 * over-priced `execute` refused before any upstream call), and a provisioning and a workflow
 * followed to the end with progress notifications.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult, Progress, Tool } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, structured, toolErrors } from '../../helpers/mcp';
import { CYCLE_QUERY } from '../../helpers/abusive-queries';
import { dataAt, expectNoErrors, startStack, type Stack } from '../../helpers/stack';
import { waitUntil } from '../../helpers/wait';

const OPERATIONS = join(__dirname, '..', '..', '..', 'operations', 'mcp');
const operation = (file: string): string => readFileSync(join(OPERATIONS, file), 'utf8');

let stack: Stack;
const clients: Client[] = [];
beforeAll(async () => {
  stack = await startStack({ seed: 'tiny', stepMs: 30, config: { subscriptions: { pollIntervalMs: 10, pollMaxIntervalMs: 40 } } });
});
afterAll(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
  await stack.close();
});

async function client(token: string | null = stack.tokens.admin): Promise<Client> {
  const connected = await connectMcp(stack.origin, token);
  clients.push(connected);
  return connected;
}

async function call(mcp: Client, name: string, args: Record<string, unknown> = {}, onprogress?: (progress: Progress) => void): Promise<CallToolResult> {
  const result = await mcp.callTool({ name, arguments: args }, undefined, onprogress ? { onprogress, resetTimeoutOnProgress: true } : {});
  if (!('content' in result)) throw new Error(`not a tool result: ${JSON.stringify(result)}`);
  return result as CallToolResult;
}

/** A network of the sandbox with an AppWAN, an endpoint not in it, and a core/v2 endpoint and service that reach. */
async function fixtures(): Promise<{ networkId: string; appWanId: string; endpointId: string; outsiderId: string; v2Endpoint: string; v2Service: string }> {
  const r = await stack.gql('{ networks(first: 10) { nodes { id appWans(first: 10) { nodes { id endpoints(first: 100) { nodes { id } } } } endpoints(first: 100) { nodes { id } } } } v2Endpoints(first: 50) { nodes { name reachableServices(first: 1) { nodes { service { name } } } } } }');
  expectNoErrors(r);
  type Net = { id: string; appWans: { nodes: Array<{ id: string; endpoints: { nodes: Array<{ id: string }> } }> }; endpoints: { nodes: Array<{ id: string }> } };
  const networks = dataAt(r, ['networks', 'nodes']) as Net[];
  for (const network of networks) {
    for (const appWan of network.appWans.nodes) {
      const members = new Set(appWan.endpoints.nodes.map((e) => e.id));
      const inside = network.endpoints.nodes.find((e) => members.has(e.id));
      const outsider = network.endpoints.nodes.find((e) => !members.has(e.id));
      const v2 = (dataAt(r, ['v2Endpoints', 'nodes']) as Array<{ name: string; reachableServices: { nodes: Array<{ service: { name: string } }> } }>).find((e) => e.reachableServices.nodes.length > 0);
      if (inside && outsider && v2) {
        return { networkId: network.id, appWanId: appWan.id, endpointId: inside.id, outsiderId: outsider.id, v2Endpoint: v2.name, v2Service: v2.reachableServices.nodes[0]?.service.name ?? '' };
      }
    }
  }
  throw new Error(`the tiny sandbox has no AppWAN with an endpoint inside and one outside: ${JSON.stringify(r.body)}`);
}

describe('tools', () => {
  let tools: Tool[];
  beforeAll(async () => {
    tools = (await (await client()).listTools()).tools;
  });
  const tool = (name: string): Tool => {
    const found = tools.find((t) => t.name === name);
    if (!found) throw new Error(`no tool ${name} among ${tools.map((t) => t.name).join(', ')}`);
    return found;
  };

  it('lists the shipped operations and the generic tools, with input and output schemas', () => {
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'authorize_endpoints',
        'endpoint_detail',
        'execute',
        'follow_provisioning',
        'follow_workflow',
        'introspect',
        'list_alerts',
        'list_networks',
        'list_v2_networks',
        'network_graph',
        'provision_app_wan',
        'search_schema',
        'top_talkers',
        'validate',
        'what_can_endpoint_reach',
        'who_can_reach_service',
        'workflow_state',
      ].sort(),
    );
    for (const t of tools) {
      expect({ name: t.name, type: t.inputSchema.type, description: (t.description ?? '').length > 20 }).toEqual({ name: t.name, type: 'object', description: true });
      if (!['introspect', 'execute'].includes(t.name)) expect({ name: t.name, output: t.outputSchema?.type }).toEqual({ name: t.name, output: 'object' });
    }
  });

  it('is stateless: no session to open with GET or close with DELETE', async () => {
    for (const method of ['GET', 'DELETE']) expect({ method, status: (await fetch(new URL('/mcp', stack.origin), { method, headers: { accept: 'text/event-stream' } })).status }).toEqual({ method, status: 405 });
  });

  it('takes its inputs from the variables: required when non-null without default, described by the schema', () => {
    const graph = tool('network_graph');
    expect(graph.inputSchema.required).toEqual(['networkId']);
    expect(graph.inputSchema.properties?.['networkId']).toMatchObject({ type: 'string', format: 'uuid', description: 'The record\'s id.' });
    expect(graph.inputSchema.properties?.['first']).toMatchObject({ type: 'integer', default: 200 });
    const authorize = tool('authorize_endpoints');
    expect(authorize.inputSchema.properties?.['endpointIds']).toMatchObject({ type: 'array', items: { type: 'string', format: 'uuid' }, description: 'Ids of the members (at least one, no repeats).' });
    const provision = tool('provision_app_wan');
    const input = provision.inputSchema.properties?.['input'] as { properties: Record<string, { properties?: Record<string, unknown> }>; required: string[] };
    expect(input.required).toEqual(expect.arrayContaining(['hostedGateway', 'service', 'bridgeGateway', 'clients', 'appWanName']));
    expect(input.properties['service']?.properties?.['serviceClass']).toMatchObject({ type: 'string', enum: ['CS', 'GW', 'ICMP'] });
  });

  it('marks reads read-only, changes not, and deletes as destructive where they apply', () => {
    for (const name of ['list_networks', 'network_graph', 'endpoint_detail', 'who_can_reach_service', 'top_talkers', 'list_alerts', 'workflow_state', 'follow_provisioning', 'introspect', 'search_schema', 'validate', 'execute']) {
      expect({ name, readOnly: tool(name).annotations?.readOnlyHint }).toEqual({ name, readOnly: true });
    }
    for (const name of ['provision_app_wan', 'authorize_endpoints']) {
      expect({ name, ...tool(name).annotations }).toMatchObject({ name, readOnlyHint: false, destructiveHint: false, idempotentHint: false });
    }
  });

  it('gives list tools an optional `first` and records with id and name', () => {
    for (const name of ['list_networks', 'list_v2_networks', 'list_alerts']) {
      const t = tool(name);
      expect({ name, first: t.inputSchema.properties?.['first'], required: t.inputSchema.required ?? [] }).toEqual({ name, first: expect.objectContaining({ type: 'integer' }), required: [] });
    }
    const nodes = ((tool('list_networks').outputSchema?.properties?.['networks'] as { properties: Record<string, { items: { required: string[] } }> }).properties['nodes']?.items.required);
    expect(nodes).toEqual(expect.arrayContaining(['id', 'name']));
  });
});

describe('read tools', () => {
  it('answer what the same GraphQL query answers over /graphql, as structured content and a summary', async () => {
    const f = await fixtures();
    const to = new Date();
    const window = { from: new Date(to.getTime() - 24 * 3600_000).toISOString(), to: to.toISOString() };
    const cases: Array<[string, string, Record<string, unknown>]> = [
      ['list_networks', 'list-networks.graphql', { first: 5 }],
      ['network_graph', 'network-graph.graphql', { networkId: f.networkId }],
      ['endpoint_detail', 'endpoint-detail.graphql', { networkId: f.networkId, endpointId: f.endpointId }],
      ['who_can_reach_service', 'who-can-reach-service.graphql', { service: f.v2Service }],
      ['what_can_endpoint_reach', 'what-can-endpoint-reach.graphql', { endpoint: f.v2Endpoint }],
      ['top_talkers', 'top-talkers.graphql', window],
      ['list_alerts', 'list-alerts.graphql', { ...window, first: 5 }],
    ];
    const mcp = await client();
    for (const [name, file, args] of cases) {
      const result = await call(mcp, name, args);
      const expected = expectNoErrors(await stack.gql(operation(file), args));
      expect({ name, data: structured(result) }).toEqual({ name, data: expected });
      const [summary, json] = result.content;
      expect(summary).toMatchObject({ type: 'text', text: expect.stringMatching(new RegExp(`^${name}: `)) });
      expect(json?.type === 'text' ? JSON.parse(json.text) : null).toEqual(expected);
    }
    // Each tool call is one operation with a log line of its own.
    expect(stack.logs.filter((line) => line.includes('"transport":"mcp"')).length).toBeGreaterThanOrEqual(cases.length);
  });

  it('refuses arguments the tool does not take, and values the variables do not accept, before any upstream call', async () => {
    const mcp = await client();
    stack.sandbox.control.resetCalls();
    expect(toolErrors(await call(mcp, 'list_networks', { frist: 2 }))).toEqual([expect.objectContaining({ code: 'BAD_USER_INPUT', message: expect.stringContaining('it takes first, after') })]);
    expect(toolErrors(await call(mcp, 'list_networks', { first: 'two' })).map((e) => e.code)).toEqual(['BAD_USER_INPUT']);
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('answers UNAUTHENTICATED as a tool error without a token', async () => {
    const result = await call(await client(null), 'list_networks', {});
    expect(toolErrors(result).map((e) => e.code)).toContain('UNAUTHENTICATED');
  });

  it('never shows where the gateway called: no upstream extension, no address', async () => {
    const result = await call(await client(), 'network_graph', { networkId: '00000000-0000-4000-8000-000000000000' });
    const errors = toolErrors(result);
    expect(errors.map((e) => e.code)).toEqual(['NOT_FOUND']);
    expect(JSON.stringify(result)).not.toMatch(/"upstream"|http:\/\/|rest\/v1/);
  });
});

describe('changes', () => {
  it("refuses a reader's change with FORBIDDEN from the platform, and nothing changes", async () => {
    const f = await fixtures();
    const members = async (): Promise<unknown> => dataAt(await stack.gql('query($n: UUID!, $a: UUID!) { appWan(networkId: $n, id: $a) { endpoints(first: 1000) { totalCount nodes { id } } } }', { n: f.networkId, a: f.appWanId }), ['appWan', 'endpoints']);
    const before = await members();
    stack.sandbox.control.resetCalls();
    const result = await call(await client(stack.tokens.reader), 'authorize_endpoints', { networkId: f.networkId, appWanId: f.appWanId, endpointIds: [f.outsiderId] });
    expect(toolErrors(result).map((e) => e.code)).toEqual(['FORBIDDEN']);
    // The platform was asked once and refused: no business key, no workflow, no member added.
    expect(stack.sandbox.control.requests().filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.route}`)).toEqual(['POST /rest/v1/networks/{networkId}/appWans/{appWanId}/endpoints']);
    expect(await members()).toEqual(before);
  });

  it('refuses an over-priced execute before any upstream call', async () => {
    stack.sandbox.control.resetCalls();
    const result = await call(await client(), 'execute', { query: CYCLE_QUERY });
    const [error] = toolErrors(result);
    expect(error).toMatchObject({ code: 'COST_ESTIMATED_TOO_EXPENSIVE', extensions: { cost: { limit: 'nodes' } } });
    expect(stack.sandbox.control.calls().total).toBe(0);
    // validate says the same, with the estimate, and sends nothing either.
    const checked = structured(await call(await client(), 'validate', { query: CYCLE_QUERY }));
    expect(checked).toMatchObject({ valid: false, operationType: 'query', errors: [{ code: 'COST_ESTIMATED_TOO_EXPENSIVE' }] });
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('refuses mutations through execute by default (MCP_MUTATIONS=listed), before sending anything', async () => {
    stack.sandbox.control.resetCalls();
    const result = await call(await client(), 'execute', { query: 'mutation { createNetwork(input: { name: "via-execute" }) { id } }' });
    expect(toolErrors(result).map((e) => e.code)).toEqual(['FORBIDDEN']);
    expect(stack.sandbox.control.calls().total).toBe(0);
  });

  it('provisions an AppWAN, answering its id at once, and follows it to SUCCEEDED with increasing progress', async () => {
    const mcp = await client();
    const started = await call(mcp, 'provision_app_wan', {
      input: {
        network: { name: 'mcp-office' },
        hostedGateway: { name: 'gw-hosted' },
        service: { name: 'intranet', serviceClass: 'CS', networkIp: '10.20.0.5', networkFirstPort: 443, networkLastPort: 443, interceptIp: '100.64.1.5' },
        bridgeGateway: { name: 'gw-bridge' },
        clients: [{ name: 'laptop-1' }, { name: 'laptop-2' }],
        appWanName: 'everyone',
      },
    });
    const provisioning = structured(started)['provisionAppWan'] as { id: string; state: string; steps: Array<{ state: string }> };
    expect(provisioning.state).toBe('RUNNING');
    expect(started.content[0]).toMatchObject({ text: expect.stringContaining(`follow it with follow_provisioning {"id":"${provisioning.id}"}`) });

    const progress: Progress[] = [];
    const followed = await call(mcp, 'follow_provisioning', { id: provisioning.id }, (p) => progress.push(p));
    const final = structured(followed)['provisioning'] as { state: string; networkId: string; steps: Array<{ state: string; resourceId: string | null }> };
    expect(final.state).toBe('SUCCEEDED');
    expect(final.steps.every((s) => s.state === 'DONE')).toBe(true);
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i += 1) expect((progress[i]?.progress ?? 0) > (progress[i - 1]?.progress ?? 0)).toBe(true);
    expect(progress.at(-1)).toMatchObject({ progress: final.steps.length, total: final.steps.length });
    // What it says it created is there.
    expect(final.steps.map((s) => typeof s.resourceId)).toEqual(final.steps.map(() => 'string'));
    const network = await stack.gql('query($id: UUID!) { network(id: $id) { name appWans { nodes { name endpoints { totalCount } } } } }', { id: final.networkId });
    expect(dataAt(network, ['network'])).toEqual({ name: 'mcp-office', appWans: { nodes: [{ name: 'everyone', endpoints: { totalCount: 3 } }] } });
  });

  it('authorizes an endpoint into an AppWAN and follows its workflow to SUCCEEDED', async () => {
    const f = await fixtures();
    const mcp = await client();
    const result = await call(mcp, 'authorize_endpoints', { networkId: f.networkId, appWanId: f.appWanId, endpointIds: [f.outsiderId] });
    const payload = structured(result)['addAppWanEndpoints'] as { accepted: boolean; businessKey: string };
    expect(payload).toMatchObject({ accepted: true, businessKey: expect.any(String) });
    const progress: Progress[] = [];
    const followed = structured(await call(mcp, 'follow_workflow', { businessKey: payload.businessKey }, (p) => progress.push(p)));
    expect(followed['workflow']).toMatchObject({ businessKey: payload.businessKey, state: 'SUCCEEDED', done: true });
    expect(progress.length).toBeGreaterThan(0);
    const members = await stack.gql('query($n: UUID!, $a: UUID!) { appWan(networkId: $n, id: $a) { endpoints(first: 1000) { nodes { id } } } }', { n: f.networkId, a: f.appWanId });
    expect(dataAt(members, ['appWan', 'endpoints', 'nodes'])).toEqual(expect.arrayContaining([{ id: f.outsiderId }]));
  });
});

describe('a client that goes away', () => {
  it('stops what its follow tool was following', async () => {
    const mcp = await connectMcp(stack.origin, stack.tokens.admin);
    // A business key the platform does not know: followed (polled) until its grace period ends.
    const following = call(mcp, 'follow_workflow', { businessKey: 'not-yet-known' }).catch((error: unknown) => error);
    await waitUntil(() => stack.pollerStats().pollers > 0, 'a poller running');
    await mcp.close();
    await following;
    await waitUntil(() => stack.pollerStats().pollers === 0, 'no poller left');
    expect(stack.pollerStats()).toEqual({ pollers: 0, subscribers: 0 });
  });
});


describe('schema tools', () => {
  it('introspects a type as minified SDL, and a field as compact JSON', async () => {
    const mcp = await client(null);
    const sdl = await call(mcp, 'introspect', { name: 'Network', descriptions: false });
    expect(sdl.content[0]).toMatchObject({ type: 'text', text: expect.stringMatching(/^type Network implements Node\{id:ID!nodeId:ID!name:String .*endpoints\(first:Int=100 after:String sort:\[SortInput!\]\):EndpointConnection/) });
    const field = structured(await call(mcp, 'introspect', { name: 'Query.network', format: 'json' }));
    expect(field).toMatchObject({ name: 'network', type: 'Network', args: [{ name: 'id', type: 'UUID!' }] });
    expect(toolErrors(await call(mcp, 'introspect', { name: 'Netwrk' }))[0]?.code).toBe('NOT_FOUND');
  });

  it('finds types and fields by words, entry points first', async () => {
    const found = structured(await call(await client(null), 'search_schema', { words: 'reach service', first: 5 })) as { matches: Array<{ coordinate: string }> };
    expect(found.matches.map((m) => m.coordinate)).toEqual(expect.arrayContaining(['V2Service.reachableBy']));
  });

  it('validates a document with its estimated cost, without a token and without an upstream call', async () => {
    stack.sandbox.control.resetCalls();
    const checked = structured(await call(await client(null), 'validate', { query: operation('list-networks.graphql'), variables: { first: 10 } }));
    expect(checked).toMatchObject({ valid: true, operationType: 'query', errors: [], cost: { estimated: { nodes: 10, upstreamCalls: 1 } } });
    const invalid = structured(await call(await client(null), 'validate', { query: '{ networks { nodes { nope } } }' }));
    expect(invalid).toMatchObject({ valid: false, errors: [{ code: 'GRAPHQL_VALIDATION_FAILED' }] });
    expect(stack.sandbox.control.calls().total).toBe(0);
  });
});
