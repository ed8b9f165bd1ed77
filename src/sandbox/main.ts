/**
 * `npm run sandbox`: the sandbox upstream alone. The only reader of process.env in the sandbox.
 *
 * | variable | meaning | default |
 * |---|---|---|
 * | PORT | port to listen on | 4010 |
 * | HOST | address to listen on | 127.0.0.1 |
 * | SANDBOX_SEED | tiny, demo or large | demo |
 * | SANDBOX_STEP_MS | length of one asynchronous step (ms) | 2000 |
 * | SANDBOX_LATENCY_MS | fixed latency added to every contract call (ms) | 0 |
 */
import { startSandbox } from './index';
import { isSeedSize, SEED_SIZES } from './core/control';
import { DEFAULT_STEP_MS } from './core/clock';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

function intVar(name: string, fallback: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) > max) fail(`${name} must be an integer from 0 to ${max}, got "${raw}"`);
  return Number(raw);
}

async function main(): Promise<void> {
  const port = intVar('PORT', 4010, 65535);
  const stepMs = intVar('SANDBOX_STEP_MS', DEFAULT_STEP_MS, 3_600_000);
  const latencyMs = intVar('SANDBOX_LATENCY_MS', 0, 60_000);
  const seed = process.env['SANDBOX_SEED'] ?? 'demo';
  if (!isSeedSize(seed)) fail(`SANDBOX_SEED must be one of ${SEED_SIZES.join(', ')}, got "${seed}"`);
  const host = process.env['HOST'] ?? '127.0.0.1';

  const sandbox = await startSandbox({ port, host, seed, stepMs, latencyMs });
  const { username, password } = sandbox.searchCredentials;
  process.stdout.write(
    [
      `base url: ${sandbox.baseUrl}`,
      `search url: ${sandbox.searchUrl}`,
      `search credentials: ${username}:${password}`,
      `admin token: ${sandbox.tokens.admin}`,
      `reader token: ${sandbox.tokens.reader}`,
    ].join('\n') + '\n',
  );
  const stop = (): void => {
    sandbox.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => fail(`sandbox failed to start: ${err instanceof Error ? err.message : String(err)}`));
