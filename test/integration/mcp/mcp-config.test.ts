/**
 * What `/mcp` offers under each configuration: trusted documents only (no `execute`, only the
 * manifest's operations, a shipped one when the manifest holds its text), and MCP_MUTATIONS
 * `none` (no mutation tools) and `all` (`execute` runs mutations).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { sha256 } from '../../../src/persisted/trusted-documents';
import { connectMcp, structured, toolErrors } from '../../helpers/mcp';
import { startStack, type ConfigOverrides, type Stack } from '../../helpers/stack';

const listNetworks = readFileSync(join(__dirname, '..', '..', '..', 'operations', 'mcp', 'list-networks.graphql'), 'utf8');
const GATEWAY_VERSION = '# The gateway\'s version and mode.\nquery GatewayVersion { gatewayInfo { version sandbox } }';

async function withStack(config: ConfigOverrides, body: (stack: Stack, mcp: Client) => Promise<void>): Promise<void> {
  const stack = await startStack({ seed: 'tiny', config });
  const mcp = await connectMcp(stack.origin, stack.tokens.admin);
  try {
    await body(stack, mcp);
  } finally {
    await mcp.close();
    await stack.close();
  }
}

async function call(mcp: Client, name: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  const result = await mcp.callTool({ name, arguments: args });
  if (!('content' in result)) throw new Error(`not a tool result: ${JSON.stringify(result)}`);
  return result as CallToolResult;
}

const names = async (mcp: Client): Promise<string[]> => (await mcp.listTools()).tools.map((t) => t.name).sort();

describe('trusted documents only', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'netgraph-mcp-'));
    writeFileSync(join(dir, 'manifest.json'), JSON.stringify({ [sha256(listNetworks)]: listNetworks, [sha256(GATEWAY_VERSION)]: GATEWAY_VERSION }));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('offers no execute, and only the operations the manifest registers', async () => {
    await withStack({ documents: { trustedDocuments: join(dir, 'manifest.json'), trustedDocumentsOnly: true } }, async (_stack, mcp) => {
      expect(await names(mcp)).toEqual(['gateway_version', 'introspect', 'list_networks', 'search_schema', 'validate']);
      expect(structured(await call(mcp, 'gateway_version'))).toEqual({ gatewayInfo: { version: expect.any(String), sandbox: true } });
      expect(structured(await call(mcp, 'list_networks', { first: 2 }))).toMatchObject({ networks: { nodes: expect.any(Array) } });
      // A tool the list does not have is a protocol error, not a way around the manifest.
      await expect(call(mcp, 'execute', { query: '{ gatewayInfo { version } }' })).rejects.toThrow(/no tool named execute/);
    });
  });

  it('keeps execute and adds the manifest operations when other documents may run too', async () => {
    await withStack({ documents: { trustedDocuments: join(dir, 'manifest.json'), trustedDocumentsOnly: false } }, async (_stack, mcp) => {
      expect(await names(mcp)).toEqual(expect.arrayContaining(['execute', 'gateway_version', 'network_graph', 'provision_app_wan']));
    });
  });
});

describe('MCP_MUTATIONS', () => {
  const create = 'mutation { createNetwork(input: { name: "through-execute" }) { accepted network { name } } }';

  it('none: no mutation tools, and execute refuses mutations without sending anything', async () => {
    await withStack({ mcp: { mutations: 'none' } }, async (stack, mcp) => {
      const offered = await names(mcp);
      expect(offered.filter((n) => ['provision_app_wan', 'authorize_endpoints'].includes(n))).toEqual([]);
      expect(offered).toEqual(expect.arrayContaining(['execute', 'list_networks', 'follow_provisioning']));
      stack.sandbox.control.resetCalls();
      expect(toolErrors(await call(mcp, 'execute', { query: create })).map((e) => e.code)).toEqual(['FORBIDDEN']);
      expect(stack.sandbox.control.calls().total).toBe(0);
    });
  });

  it('all: execute runs mutations, and says it may change things', async () => {
    await withStack({ mcp: { mutations: 'all' } }, async (_stack, mcp) => {
      const execute = (await mcp.listTools()).tools.find((t) => t.name === 'execute');
      expect(execute?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      expect(structured(await call(mcp, 'execute', { query: create }))).toEqual({ createNetwork: { accepted: true, network: { name: 'through-execute' } } });
    });
  });
});
