/**
 * Starts a gateway for the benchmark, configured by environment variables exactly as a deployed
 * one would be. Two modes:
 *
 * - `child` (default): a separate Node process (gateway-child.js). On a 2-core machine the
 *   gateway then has a core of its own, and the load generator and sandbox in this process do
 *   not steal its event loop, so throughput figures are the gateway's.
 * - `in-process`: same process, for the smoke test (ts-jest cannot fork a .ts file) and for
 *   runs from sources. Figures are lower: one event loop serves everything.
 */
import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { GatewayMode } from './args';
import { isObject } from '../src/upstream/parse';
import { launchGateway } from './gateway-start';

export interface GatewayHandle {
  url: string;
  mode: GatewayMode;
  close(): Promise<void>;
}

const CHILD_START_TIMEOUT_MS = 30_000;
const CHILD_EXIT_TIMEOUT_MS = 5_000;

/** The compiled child entry, when running from dist/ (null under ts-jest). */
function childScript(): string | null {
  const script = join(__dirname, 'gateway-child.js');
  return existsSync(script) ? script : null;
}

export async function startGatewayProcess(mode: GatewayMode, env: Record<string, string>): Promise<GatewayHandle> {
  const script = childScript();
  if (mode === 'child' && script !== null) return startChild(script, env);
  return startInProcess(env);
}

async function startInProcess(env: Record<string, string>): Promise<GatewayHandle> {
  const gateway = await launchGateway({ ...process.env, ...env });
  return { url: gateway.url, mode: 'in-process', close: () => gateway.close() };
}

function startChild(script: string, env: Record<string, string>): Promise<GatewayHandle> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv: [] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('gateway child did not report ready in time'));
    }, CHILD_START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway child exited before it was ready (code ${String(code)})`));
    });
    child.on('message', (message: unknown) => {
      if (!isObject(message) || message['type'] !== 'ready' || typeof message['url'] !== 'string') return;
      clearTimeout(timer);
      const url = message['url'];
      resolve({
        url,
        mode: 'child',
        close: () =>
          new Promise<void>((done) => {
            if (child.exitCode !== null) return done();
            const force = setTimeout(() => child.kill('SIGKILL'), CHILD_EXIT_TIMEOUT_MS);
            child.removeAllListeners('exit');
            child.once('exit', () => {
              clearTimeout(force);
              done();
            });
            child.send({ type: 'close' });
          }),
      });
    });
  });
}
