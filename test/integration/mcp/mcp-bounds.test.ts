/**
 * `/mcp` does bounded work for every request, with the MCP SDK's own client over real HTTP: a
 * 1 MiB `search_schema` is refused before anything is scored while /healthz answers; a search
 * with the most words allowed answers; outside the sandbox the schema tools answer only callers
 * the platform accepts (a made-up bearer is UNAUTHENTICATED, as a query's is); and the door's
 * own refusals (foreign host, method, unknown tool, bad arguments) are logged and counted.
 */
import { randomBytes } from 'node:crypto';
import { request } from 'node:http';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { MCP_BOUNDS } from '../../../src/doors/mcp/bounds';
import { SchemaIndex } from '../../../src/doors/mcp/schema-tools';
import { startSandbox, type RunningSandbox } from '../../../src/sandbox';
import type { RunningGateway } from '../../../src/server';
import { buildSchema } from '../../../src/server/schema';
import { connectMcp, structured, toolErrors } from '../../helpers/mcp';
import { startStack, startTestGateway, type Stack } from '../../helpers/stack';

async function call(mcp: Client, name: string, args: Record<string, unknown>): Promise<CallToolResult> {
  const result = await mcp.callTool({ name, arguments: args });
  if (!('content' in result)) throw new Error(`not a tool result: ${JSON.stringify(result)}`);
  return result as CallToolResult;
}

describe('in the sandbox', () => {
  let stack: Stack;
  let mcp: Client;
  beforeAll(async () => {
    stack = await startStack({ seed: 'tiny' });
    mcp = await connectMcp(stack.origin, stack.tokens.admin);
  });
  afterAll(async () => {
    await mcp.close();
    await stack.close();
  });

  it('refuses a 1 MiB search_schema (500,000 words) before scoring anything, and /healthz answers meanwhile', async () => {
    const scored = jest.spyOn(SchemaIndex.prototype, 'search');
    try {
      const words = 'a '.repeat(500_000);
      const [search, health] = await Promise.all([call(mcp, 'search_schema', { words }), fetch(`${stack.origin}/healthz`)]);
      expect(health.status).toBe(200);
      expect(toolErrors(search)).toEqual([expect.objectContaining({ code: 'BAD_USER_INPUT', message: expect.stringContaining(`at most ${MCP_BOUNDS.searchChars}`) })]);
      expect(scored).not.toHaveBeenCalled();
      // One word past the bound, within the characters: refused too, still before any scoring.
      const over = await call(mcp, 'search_schema', { words: 'network '.repeat(MCP_BOUNDS.searchWords + 1) });
      expect(toolErrors(over)).toEqual([expect.objectContaining({ code: 'BAD_USER_INPUT', message: expect.stringContaining(`at most ${MCP_BOUNDS.searchWords}`) })]);
      expect(scored).not.toHaveBeenCalled();
    } finally {
      scored.mockRestore();
    }
  });

  it('answers a search with the most words allowed, scoring each word once', async () => {
    // Words of one field's description, all of them needed to find it.
    const entry = new SchemaIndex(buildSchema()).entries.find((e) => e.coordinate === 'Query.networks');
    const words = [...new Set(entry?.text.split(/[^a-z0-9_]+/).filter((w) => w.length > 2))].slice(0, MCP_BOUNDS.searchWords);
    expect(words).toHaveLength(MCP_BOUNDS.searchWords);
    const scored = jest.spyOn(SchemaIndex.prototype, 'search');
    try {
      const found = structured(await call(mcp, 'search_schema', { words: words.join(' '), first: 100 })) as { totalCount: number; matches: Array<{ coordinate: string }> };
      expect(found.matches.map((m) => m.coordinate)).toContain('Query.networks');
      expect(scored).toHaveBeenCalledTimes(1);
      expect(scored.mock.calls[0]?.[0]).toEqual(words);
    } finally {
      scored.mockRestore();
    }
  });

  it('logs and counts the door refusals: foreign host (403), method (405), unknown tool, bad arguments', async () => {
    const operations = async (): Promise<number> => {
      const text = await (await fetch(stack.metricsUrl)).text();
      return [...text.matchAll(/^netgraph_graphql_operations_total\{([^}]*)\} (\d+)/gm)].filter(([, labels]) => labels?.includes('transport="mcp"')).reduce((n, [, , count]) => n + Number(count), 0);
    };
    const before = await operations();
    const logged = stack.logs.length;
    const { port } = new URL(stack.origin);
    const foreign = await new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { host: 'rebound.example.com', 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.once('error', reject);
      req.end('{}');
    });
    expect(foreign).toBe(403);
    expect((await fetch(`${stack.origin}/mcp`, { method: 'GET', headers: { accept: 'text/event-stream' } })).status).toBe(405);
    await expect(mcp.callTool({ name: `no_such_tool_${'x'.repeat(10_000)}`, arguments: {} })).rejects.toThrow(/no tool named no_such_tool_x+…/);
    expect(toolErrors(await call(mcp, 'list_networks', { frist: 2 })).map((e) => e.code)).toEqual(['BAD_USER_INPUT']);

    const lines = stack.logs.slice(logged).map((line) => JSON.parse(line) as { transport?: string; status?: number; errorCodes?: string[] }).filter((l) => l.transport === 'mcp');
    expect(lines.map((l) => ({ status: l.status, errorCodes: l.errorCodes }))).toEqual([
      { status: 403, errorCodes: ['FORBIDDEN'] },
      { status: 405, errorCodes: ['BAD_REQUEST'] },
      { status: undefined, errorCodes: ['BAD_REQUEST'] },
      { status: undefined, errorCodes: ['BAD_USER_INPUT'] },
    ]);
    expect((await operations()) - before).toBe(4);
  });
});

describe('outside the sandbox (an upstream of its own)', () => {
  let sandbox: RunningSandbox;
  let gateway: RunningGateway;
  const clients: Client[] = [];
  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 'tiny' });
    gateway = await startTestGateway({ upstream: { baseUrl: sandbox.baseUrl } });
  });
  afterAll(async () => {
    await Promise.all(clients.map((c) => c.close()));
    await gateway.close();
    await sandbox.close();
  });
  const connect = async (token: string | null): Promise<Client> => {
    const client = await connectMcp(new URL(gateway.url).origin, token);
    clients.push(client);
    return client;
  };
  const identityCalls = (): number => sandbox.control.calls().byRoute['GET /identity/v1/organization'] ?? 0;

  it.each([
    ['search_schema', { words: 'network' }],
    ['introspect', { name: 'Network' }],
  ])('%s answers a made-up bearer UNAUTHENTICATED, as a query is answered, after asking the platform', async (name, args) => {
    sandbox.control.resetCalls();
    const junk = await connect(randomBytes(24).toString('base64url'));
    expect(toolErrors(await call(junk, name, args)).map((e) => e.code)).toEqual(['UNAUTHENTICATED']);
    expect(identityCalls()).toBe(1);
    const query = await junk.callTool({ name: 'execute', arguments: { query: '{ networks(first: 1) { totalCount } }' } });
    expect(toolErrors(query as CallToolResult).map((e) => e.code)).toEqual(['UNAUTHENTICATED']);
    const anonymous = await connect(null);
    expect(toolErrors(await call(anonymous, name, args)).map((e) => e.code)).toEqual(['UNAUTHENTICATED']);
  });

  it('answers a caller the platform accepts', async () => {
    const admin = await connect(sandbox.tokens.admin);
    expect(structured(await call(admin, 'search_schema', { words: 'network' }))).toMatchObject({ totalCount: expect.any(Number) });
    expect((await call(admin, 'introspect', { name: 'Network' })).isError).toBeFalsy();
  });

  it('refuses a 1 MiB search before asking the platform anything', async () => {
    sandbox.control.resetCalls();
    const junk = await connect(randomBytes(24).toString('base64url'));
    expect(toolErrors(await call(junk, 'search_schema', { words: 'a '.repeat(500_000) })).map((e) => e.code)).toEqual(['BAD_USER_INPUT']);
    expect(identityCalls()).toBe(0);
  });
});
