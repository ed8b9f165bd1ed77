/**
 * Starts test/helpers/gateway-child.ts in a child process with the given environment: a gateway
 * configured by real environment variables, in plain Node (ts-jest cannot fork a .ts file, so the
 * entry is bundled with esbuild first, once per test file, as bench-bundle.ts does). Needed where
 * jest's module sandbox differs from Node: the OTLP exporter loads `node:http` with `import()`,
 * which jest's VM does not run.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { isObject } from '../../src/core/parse';
import { bundleEntry, type BenchBundle } from './bench-bundle';

export interface GatewayProcess {
  url: string;
  wsUrl: string;
  streamUrl: string;
  /** The @opentelemetry packages loaded in the child, by name (`api`, `sdk-trace-node`, …). */
  otelPackages(): Promise<string[]>;
  /** Closes the gateway (its queued spans are exported first) and waits for the process to exit. */
  close(): Promise<void>;
}

let bundled: Promise<BenchBundle> | null = null;

function bundle(): Promise<BenchBundle> {
  bundled ??= bundleEntry(join('test', 'helpers', 'gateway-child.ts'));
  return bundled;
}

/** Removes the bundle (afterAll). */
export async function removeGatewayBundle(): Promise<void> {
  (await bundled)?.remove();
  bundled = null;
}

export async function startGatewayProcess(env: Record<string, string>): Promise<GatewayProcess> {
  const { script } = await bundle();
  // The child's configuration is `env` alone on top of this process's (no OTEL_* leaks in from outside).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('OTEL_')));
  const child = fork(script, [], { env: { ...inherited, HOST: '127.0.0.1', PORT: '0', ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const ready = await nextMessage(child, 'ready');
  const text = (key: string): string => {
    const value = ready[key];
    if (typeof value !== 'string') throw new Error(`gateway child reported no ${key}`);
    return value;
  };
  return {
    url: text('url'),
    wsUrl: text('wsUrl'),
    streamUrl: text('streamUrl'),
    async otelPackages() {
      const answer = nextMessage(child, 'otel-packages');
      child.send('otel-packages?');
      const value = (await answer)['value'];
      return Array.isArray(value) ? value.filter((name): name is string => typeof name === 'string') : [];
    },
    async close() {
      if (child.exitCode === null && child.connected) child.send('close');
      await exited;
    },
  };
}

function nextMessage(child: ChildProcess, type: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null): void => reject(new Error(`gateway child exited (${code}) before sending ${type}`));
    const onMessage = (message: unknown): void => {
      if (!isObject(message) || message['type'] !== type) return;
      child.off('message', onMessage);
      child.off('exit', onExit);
      resolve(message);
    };
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}
