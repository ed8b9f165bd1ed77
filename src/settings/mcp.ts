/** The Model Context Protocol door (`/mcp`). */
import { ConfigError, area, custom, type SettingsOf } from './setting';
import { UPSTREAM_BASE_URL } from './upstream';

export const MCP_MUTATION_KINDS = ['none', 'listed', 'all'] as const;
type McpMutationKind = (typeof MCP_MUTATION_KINDS)[number];

/** Changes by assistants are the operator's choice on a platform; the demo offers the listed ones. */
export const MCP_MUTATIONS = custom<McpMutationKind>({
  name: 'MCP_MUTATIONS',
  meaning:
    'which changes MCP clients (`/mcp`) may make: `listed`, the shipped mutation tools only (`execute` refuses mutations); `none`, no mutation tools; `all`, those and any mutation through `execute`. See [MCP](mcp.md)',
  defaultText: '`listed` in sandbox mode, otherwise `none`',
  rangeText: '`none`, `listed`, `all`',
  read(env) {
    const value = env.text('MCP_MUTATIONS');
    if (value === undefined) return env.get(UPSTREAM_BASE_URL) === null ? 'listed' : 'none';
    const match = MCP_MUTATION_KINDS.find((kind) => kind === value.toLowerCase());
    if (match === undefined) throw new ConfigError(`MCP_MUTATIONS must be one of ${MCP_MUTATION_KINDS.join(', ')}; got ${JSON.stringify(value)}`);
    return match;
  },
});

/** The loopback names: the default public hosts, enough for a gateway on a developer's machine. */
const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/** Host names as the URL standard writes them (lower case, IPv6 in brackets), or null for `*`. */
export const PUBLIC_HOSTS = custom<ReadonlySet<string> | null>({
  name: 'PUBLIC_HOSTS',
  meaning:
    "the host names clients reach the gateway by: `/mcp` answers only requests whose `Host` is one of them and whose `Origin`, when a browser sends one, is a page of one of them (DNS rebinding; [Security](security.md))",
  defaultText: 'the loopback names: `localhost`, `127.0.0.1`, `[::1]`',
  rangeText: 'comma-separated host names without port or scheme, or `*` for any',
  read(env) {
    const value = env.text('PUBLIC_HOSTS');
    if (value === '*') return null;
    const names = value === undefined ? LOOPBACK_HOSTS : value.split(',').map((n) => n.trim().toLowerCase()).filter((n) => n !== '');
    for (const name of names) {
      let hostname = '';
      try {
        hostname = new URL(`http://${name}`).hostname;
      } catch {
        hostname = '';
      }
      if (hostname === '' || hostname !== name) throw new ConfigError(`PUBLIC_HOSTS must list host names without port or scheme (api.example.com, 10.0.0.5, [::1]), or be *; got ${JSON.stringify(name)}`);
    }
    return new Set(names);
  },
});

export const MCP = area({
  title: 'MCP',
  settings: {
    mutations: MCP_MUTATIONS,
    publicHosts: PUBLIC_HOSTS,
  },
});

export type McpSettings = SettingsOf<typeof MCP>;
