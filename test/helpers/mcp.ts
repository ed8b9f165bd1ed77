/**
 * An MCP client of the gateway's `/mcp`, the SDK's own (`Client` over
 * `StreamableHTTPClientTransport`), with a bearer token or none, as an assistant would connect.
 *
 *   const mcp = await connectMcp(stack.origin, stack.tokens.admin);
 *   const result = await mcp.callTool({ name: 'list_networks', arguments: { first: 5 } });
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

export async function connectMcp(origin: string, token: string | null): Promise<Client> {
  const client = new Client({ name: 'netgraph-tests', version: '1.0.0' });
  const headers: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
  await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', origin), { requestInit: { headers } }));
  return client;
}

export interface ShownError {
  code: string;
  message: string;
  extensions: Record<string, unknown>;
}

/** The errors of a tool error (its JSON text), failing with the whole result when it is not one. */
export function toolErrors(result: CallToolResult): ShownError[] {
  const json = result.content.find((c) => c.type === 'text' && c.text.startsWith('{'));
  if (result.isError !== true || !json || json.type !== 'text') throw new Error(`expected a tool error, got ${JSON.stringify(result)}`);
  const parsed = JSON.parse(json.text) as { errors: ShownError[] };
  return parsed.errors;
}

/** The structured content of a successful tool result, failing with the whole result otherwise. */
export function structured(result: CallToolResult): Record<string, unknown> {
  if (result.isError || !result.structuredContent) throw new Error(`expected structured content, got ${JSON.stringify(result)}`);
  return result.structuredContent;
}
