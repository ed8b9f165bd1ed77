/** The Model Context Protocol door (`/mcp`). */
import { choice, type Area } from './setting';

export const MCP_MUTATION_KINDS = ['none', 'listed', 'all'] as const;

export const MCP_MUTATIONS = choice({
  name: 'MCP_MUTATIONS',
  meaning:
    'which changes MCP clients (`/mcp`) may make: `listed`, the shipped mutation tools only (`execute` refuses mutations); `none`, no mutation tools; `all`, those and any mutation through `execute`. See [MCP](mcp.md)',
  values: MCP_MUTATION_KINDS,
  fallback: 'listed',
});

export const MCP: Area = { title: 'MCP', settings: [MCP_MUTATIONS] };
