/**
 * Starts a gateway for the benchmark, configured by environment variables exactly as a deployed
 * one would be. Two modes:
 *
 * - `child` (default): a separate Node process (gateway-child.js) in production mode
 *   (`NODE_ENV=production`, as `npm start` and the container run it: graphql-js skips its
 *   development-only checks). On a 2-core machine the gateway then has a core of its own, the
 *   load generator and sandbox in this process do not steal its event loop, so throughput figures
 *   are the gateway's, and its CPU time can be read on its own (`cpuMicros`).
 * - `in-process`: same process, for the smoke test (ts-jest cannot fork a .ts file) and for
 *   runs from sources. Figures are lower: one event loop serves everything; CPU time cannot be
 *   told apart from the sandbox's and the load generator's, so `cpuMicros` answers null.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { GATEWAY_NODE_FLAGS } from '../src/server/node-flags';
import type { RunningSandbox } from '../src/sandbox';
import type { GatewayMode } from './args';
import { isObject } from '../src/upstream/parse';
import { launchGateway } from './gateway-start';

export interface GatewayHandle {
  url: string;
  mode: GatewayMode;
  /** NODE_ENV the gateway runs with (null: unset). */
  nodeEnv: string | null;
  /** The gateway process's CPU time so far (user + system, µs); null when it shares this process. */
  cpuMicros(): Promise<number | null>;
  close(): Promise<void>;
}

const CHILD_START_TIMEOUT_MS = 30_000;
const CHILD_EXIT_TIMEOUT_MS = 5_000;
const CPU_ANSWER_TIMEOUT_MS = 10_000;

/** A gateway's environment against the sandbox, as a deployment would set it, with batching on or off. */
export function benchGatewayEnv(sandbox: RunningSandbox, batching: 'on' | 'off'): Record<string, string> {
  return {
    UPSTREAM_BASE_URL: sandbox.baseUrl,
    SEARCH_URL: sandbox.searchUrl,
    SEARCH_USERNAME: sandbox.searchCredentials.username,
    SEARCH_PASSWORD: sandbox.searchCredentials.password,
    HOST: '127.0.0.1',
    PORT: '0',
    NETGRAPH_BATCHING: batching,
    // The throughput phase saturates the gateway (32 whole-network graphs at once): each then
    // takes longer than the default 30 s operation deadline, which is about one operation, not a queue.
    OPERATION_TIMEOUT_MS: '300000',
  };
}

/** The compiled child entry, when running from dist/ (null under ts-jest). */
function childScript(): string | null {
  const script = join(__dirname, 'gateway-child.js');
  return existsSync(script) ? script : null;
}

export async function startGatewayProcess(mode: GatewayMode, env: Record<string, string>): Promise<GatewayHandle> {
  const script = childScript();
  if (mode === 'child' && script !== null) return startGatewayChild(script, env);
  return startInProcess(env);
}

async function startInProcess(env: Record<string, string>): Promise<GatewayHandle> {
  const gateway = await launchGateway({ ...process.env, ...env });
  return {
    url: gateway.url,
    mode: 'in-process',
    // graphql-js read NODE_ENV when this process loaded it: what this process has is what it runs with.
    nodeEnv: process.env['NODE_ENV'] ?? null,
    cpuMicros: () => Promise.resolve(null),
    close: () => gateway.close(),
  };
}

/** Asks the child for its CPU time; answers are matched to questions by id. */
function cpuReader(child: ChildProcess): () => Promise<number | null> {
  let nextId = 0;
  const waiting = new Map<number, (micros: number) => void>();
  child.on('message', (message: unknown) => {
    if (!isObject(message) || message['type'] !== 'cpu-usage' || typeof message['id'] !== 'number' || typeof message['micros'] !== 'number') return;
    waiting.get(message['id'])?.(message['micros']);
  });
  return () =>
    new Promise<number>((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error('gateway child did not answer a cpu-usage request in time'));
      }, CPU_ANSWER_TIMEOUT_MS);
      waiting.set(id, (micros) => {
        clearTimeout(timer);
        waiting.delete(id);
        resolve(micros);
      });
      child.send({ type: 'cpu-usage', id });
    });
}

/** A gateway in a child process running `script` (the compiled gateway-child.ts; tests pass a bundle of it). */
export function startGatewayChild(script: string, env: Record<string, string>): Promise<GatewayHandle> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [], {
      env: { ...process.env, ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // The same V8 flags as `npm start` and the Docker image (src/server/node-flags.ts).
      execArgv: [...GATEWAY_NODE_FLAGS],
    });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error('gateway child did not report ready in time'));
    }, CHILD_START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`gateway child exited before it was ready (code ${String(code)})`));
    });
    const onReady = (message: unknown): void => {
      if (!isObject(message) || message['type'] !== 'ready' || typeof message['url'] !== 'string') return;
      child.off('message', onReady);
      clearTimeout(timer);
      const nodeEnv = message['nodeEnv'];
      resolve({
        url: message['url'],
        mode: 'child',
        nodeEnv: typeof nodeEnv === 'string' ? nodeEnv : null,
        cpuMicros: cpuReader(child),
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
    };
    child.on('message', onReady);
  });
}
