/**
 * The one way tests run a gateway in a process of its own: test/helpers/gateway-child.ts, a
 * gateway configured by real environment variables exactly as `npm start` is, in plain Node
 * (ts-jest cannot fork a .ts file, so the entry is bundled with esbuild first, once per test file).
 * Needed where an in-process gateway (stack.ts) will not do: a fleet of replicas, one of them killed
 * as a crashed pod is (SIGKILL: no drain, no goodbye); and where jest's module sandbox differs from
 * Node (the OTLP exporter loads `node:http` with `import()`, which jest's VM does not run).
 *
 *   const gateway = await startGatewayProcess({ UPSTREAM_BASE_URL: sandbox.baseUrl });
 *   afterAll(async () => { await gateway.close(); await removeGatewayBundle(); });
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { isObject } from '../../src/core/parse';
import { bundleEntry, type BenchBundle } from './bench-bundle';

export interface GatewayProcess {
  /** For failure messages. */
  name: string;
  /** `http://127.0.0.1:<port>/graphql` */
  url: string;
  wsUrl: string;
  streamUrl: string;
  /** `http://127.0.0.1:<port>` (for /readyz, /metrics). */
  origin: string;
  /** The @opentelemetry packages loaded in the child, by name (`api`, `sdk-trace-node`, …). */
  otelPackages(): Promise<string[]>;
  /** Closes the gateway (drain; its queued spans are exported first) and waits for the process to exit. */
  close(): Promise<void>;
  /** Ends the process at once (SIGKILL), as a crashed pod ends. */
  kill(): Promise<void>;
}

/** A child that has not reported ready (or exited) by then has hung: the test fails saying so. */
const START_TIMEOUT_MS = 30_000;
/** A child still running this long after `close` is killed, so a hung drain cannot hang the suite. */
const CLOSE_TIMEOUT_MS = 10_000;

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

export async function startGatewayProcess(env: Record<string, string>, name = 'gateway child'): Promise<GatewayProcess> {
  const { script } = await bundle();
  // The child's configuration is `env` alone on top of this process's (no OTEL_* leaks in from outside).
  const inherited = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('OTEL_')));
  const child = fork(script, [], { env: { ...inherited, HOST: '127.0.0.1', PORT: '0', ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stopped = (): boolean => child.exitCode !== null || child.signalCode !== null;
  const hung = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
  let ready: Record<string, unknown>;
  try {
    ready = await nextMessage(child, 'ready', name);
  } finally {
    clearTimeout(hung);
  }
  const text = (key: string): string => {
    const value = ready[key];
    if (typeof value !== 'string') throw new Error(`${name} reported no ${key}`);
    return value;
  };
  const url = text('url');
  return {
    name,
    url,
    wsUrl: text('wsUrl'),
    streamUrl: text('streamUrl'),
    origin: new URL(url).origin,
    async otelPackages() {
      const answer = nextMessage(child, 'otel-packages', name);
      child.send('otel-packages?');
      const value = (await answer)['value'];
      return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
    },
    async close() {
      if (stopped()) return;
      const force = setTimeout(() => child.kill('SIGKILL'), CLOSE_TIMEOUT_MS);
      if (child.connected) child.send('close');
      await exited;
      clearTimeout(force);
    },
    async kill() {
      if (stopped()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** One Prometheus sample's value from a gateway's /metrics (0 when the series is absent). */
export async function metric(gateway: Pick<GatewayProcess, 'origin'>, series: string): Promise<number> {
  const text = await (await fetch(`${gateway.origin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

function nextMessage(child: ChildProcess, type: string, name: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    const onExit = (code: number | null, signal: NodeJS.Signals | null): void => reject(new Error(`${name} exited (${signal ?? code}) before sending ${type}`));
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
