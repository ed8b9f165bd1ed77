/**
 * The MCP client script of docs/mcp.md, run as a newcomer runs it (node, from the repository, with a
 * token in TOKEN), against a gateway on the sandbox: it lists the tools and calls two of them.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { startStack, type Stack } from '../../helpers/stack';

const root = join(__dirname, '..', '..', '..');
const doc = readFileSync(join(root, 'docs', 'mcp.md'), 'utf8');
const section = doc.slice(doc.indexOf('## Connecting a client'));
const script = /```js\n([\s\S]*?)```/.exec(section)?.[1] ?? '';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ seed: 'tiny' });
});
afterAll(() => stack.close());

it("the docs' SDK script lists the tools and calls list_networks and network_graph", async () => {
  expect(script).toContain("new URL('http://127.0.0.1:4000/mcp')");
  const code = script.replace('http://127.0.0.1:4000/mcp', new URL('/mcp', stack.origin).href);
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], { cwd: root, env: { ...process.env, TOKEN: stack.tokens.admin }, timeout: 20_000 });
  const lines = stdout.trim().split('\n');
  expect(lines).toEqual(expect.arrayContaining(['list_networks', 'network_graph', 'execute', 'follow_provisioning']));
  expect(lines).toEqual(expect.arrayContaining([expect.stringMatching(/^list_networks: networks: \d+ (of \d+|items?): /), expect.stringMatching(/^network_graph: network: .*endpoints: /)]));
});
