/**
 * `/mcp` and DNS rebinding: a request must name the gateway by one of its public hosts (`Host`,
 * loopback names by default, `PUBLIC_HOSTS`) and may come from no foreign page (`Origin`); and
 * the schema tools follow INTROSPECTION. Real requests over node:http (which lets a test set
 * `Host`), and the SDK's client.
 */
import { request } from 'node:http';
import { loadConfig } from '../../../src/config';
import { connectMcp } from '../../helpers/mcp';
import { startStack, type Stack } from '../../helpers/stack';

const INITIALIZE = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'rebinding', version: '1' } } });

/** POSTs an MCP initialize with these headers: the status, and the body's JSON-RPC error message when any. */
function initialize(stack: Stack, headers: Record<string, string>): Promise<{ status: number; error: string | null }> {
  const { port } = new URL(stack.origin);
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${stack.tokens.admin}`, ...headers } }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => {
        const json = body.startsWith('{') ? (JSON.parse(body) as { error?: { message?: string } }) : {};
        resolve({ status: res.statusCode ?? 0, error: json.error?.message ?? null });
      });
    });
    req.once('error', reject);
    req.end(INITIALIZE);
  });
}

describe('with the default public hosts (loopback names)', () => {
  let stack: Stack;
  let port: string;
  beforeAll(async () => {
    stack = await startStack({ seed: 'tiny' });
    port = new URL(stack.origin).port;
  });
  afterAll(() => stack.close());

  it.each([`127.0.0.1:PORT`, 'localhost:PORT', '[::1]:PORT', 'LOCALHOST'])('answers a request to Host %s', async (host) => {
    expect(await initialize(stack, { host: host.replace('PORT', port) })).toEqual({ status: 200, error: null });
  });

  it.each(['rebound.example.com', `rebound.example.com:PORT`, '127.0.0.1.nip.io'])('refuses a request to the foreign Host %j (403), before anything runs', async (host) => {
    const seen = await initialize(stack, { host: host.replace('PORT', port) });
    expect(seen.status).toBe(403);
    expect(seen.error).toMatch(/^Invalid Host header/);
  });

  it.each(['http://localhost:3000', `http://127.0.0.1:PORT`, 'https://[::1]'])('answers a page of a public host (Origin %s)', async (origin) => {
    expect(await initialize(stack, { host: `127.0.0.1:${port}`, origin: origin.replace('PORT', port) })).toEqual({ status: 200, error: null });
  });

  it.each(['https://evil.example.com', 'null', 'http://localhost.evil.example.com', 'file://'])('refuses a foreign page (Origin %s, 403)', async (origin) => {
    const seen = await initialize(stack, { host: `127.0.0.1:${port}`, origin });
    expect(seen.status).toBe(403);
    expect(seen.error).toMatch(/^Invalid Origin header/);
  });
});

describe('PUBLIC_HOSTS', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ seed: 'tiny', config: { mcp: { publicHosts: loadConfig({ PUBLIC_HOSTS: 'api.example.com, Gateway.Example.com' }).mcp.publicHosts } } });
  });
  afterAll(() => stack.close());

  it('answers the configured host names (any port, any case) and refuses the others, loopback included', async () => {
    expect((await initialize(stack, { host: 'api.example.com' })).status).toBe(200);
    expect((await initialize(stack, { host: 'gateway.example.com:8443', origin: 'https://api.example.com' })).status).toBe(200);
    expect((await initialize(stack, { host: '127.0.0.1' })).status).toBe(403);
    expect((await initialize(stack, { host: 'api.example.com', origin: 'https://other.example.com' })).status).toBe(403);
  });

  it('is validated at start-up; * lets any host through', () => {
    expect(loadConfig({}).mcp.publicHosts).toEqual(new Set(['localhost', '127.0.0.1', '[::1]']));
    expect(loadConfig({ PUBLIC_HOSTS: '*' }).mcp.publicHosts).toBeNull();
    expect(() => loadConfig({ PUBLIC_HOSTS: 'https://api.example.com' })).toThrow(/PUBLIC_HOSTS must list host names/);
    expect(() => loadConfig({ PUBLIC_HOSTS: 'api.example.com:443' })).toThrow(/PUBLIC_HOSTS must list host names/);
  });
});

describe('INTROSPECTION=off', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ seed: 'tiny', config: { server: { introspection: false } } });
  });
  afterAll(() => stack.close());

  it('offers no introspect or search_schema tool, and refuses a call to either', async () => {
    const mcp = await connectMcp(stack.origin, stack.tokens.admin);
    try {
      const names = (await mcp.listTools()).tools.map((t) => t.name);
      expect(names).not.toContain('introspect');
      expect(names).not.toContain('search_schema');
      await expect(mcp.callTool({ name: 'introspect', arguments: { name: 'Query' } })).rejects.toThrow(/no tool named introspect/);
      await expect(mcp.callTool({ name: 'search_schema', arguments: { words: 'network' } })).rejects.toThrow(/no tool named search_schema/);
    } finally {
      await mcp.close();
    }
  });
});
