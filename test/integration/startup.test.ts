/**
 * `npm start`'s entry (src/main.ts) as an operator runs it, in a child process: the demo sandbox
 * starts only when asked for and says so in the banner and in /readyz; a blank or missing upstream
 * where the sandbox may not run, or a misspelt variable, stops the process with one line.
 * ts-jest cannot fork a .ts file, so the entry is bundled first (test/helpers/bench-bundle.ts).
 */
import { join } from 'node:path';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { bundleEntry, type BenchBundle } from '../helpers/bench-bundle';

let bundle: BenchBundle;

beforeAll(async () => {
  bundle = await bundleEntry(join('src', 'main.ts'));
}, 60_000);

afterAll(() => bundle?.remove());

function start(env: Record<string, string>): ChildProcessWithoutNullStreams {
  return spawn(process.execPath, [bundle.script], { env: { PATH: process.env['PATH'] ?? '', PORT: '0', ...env } });
}

/** Runs the entry to its exit: its code and what it wrote. */
async function exitOf(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = start(env);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const [code] = (await once(child, 'exit')) as [number | null];
  return { code, stdout, stderr };
}

it.each([
  ['a blank UPSTREAM_BASE_URL in production', { UPSTREAM_BASE_URL: ' ', NODE_ENV: 'production' }, /^config error: UPSTREAM_BASE_URL is blank/],
  ['no upstream on 0.0.0.0', { HOST: '0.0.0.0', NODE_ENV: 'production' }, /^config error: UPSTREAM_BASE_URL must be set when HOST \(0\.0\.0\.0\) is not a loopback address; SANDBOX=on/],
  ['a misspelt upstream on 0.0.0.0', { HOST: '0.0.0.0', UPSTREAM_BASEURL: 'https://platform.example' }, /^config error: UPSTREAM_BASEURL is not a setting of this gateway; did you mean UPSTREAM_BASE_URL\?/],
])('stops with one line and exit code 1 on %s, serving nothing', async (_what, env, message) => {
  const { code, stdout, stderr } = await exitOf(env);
  expect(code).toBe(1);
  expect(stderr).toMatch(message);
  expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(stdout).not.toContain('listening');
  expect(stdout).not.toContain('token');
});

it('starts the sandbox with no variables on loopback, and says "sandbox" in the banner and in /readyz', async () => {
  const child = start({ NODE_ENV: 'production' });
  try {
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    while (!/reader token: \S+\n/.test(stdout)) {
      if (child.exitCode !== null) throw new Error(`the gateway exited (${child.exitCode}) before its banner:\n${stdout}`);
      await Promise.race([once(child.stdout, 'data'), once(child, 'exit')]);
    }
    const url = /netgraph listening: (http:\/\/127\.0\.0\.1:\d+)\/graphql/.exec(stdout)?.[1];
    expect(url).toBeDefined();
    expect(stdout).toMatch(/upstream: embedded sandbox \(seed demo\) at http:\/\/127\.0\.0\.1:\d+: demo data, not a platform/);
    const ready = await fetch(`${url}/readyz`);
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ status: 'ready', mode: 'sandbox' });
  } finally {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
});
