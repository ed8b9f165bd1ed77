/**
 * Starts a gateway for the benchmark, configured by environment variables exactly as a deployed
 * one would be, plus the one thing no deployment can set: its loader options (batching off for
 * the baseline), handed to startGateway directly. Two modes:
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
import { writeHeapSnapshot } from 'node:v8';
import { isObject } from '../src/core/parse';
import type { RunningSandbox } from '../src/sandbox';
import type { GatewayMode } from './args';
import { NO_PHASES, startChild, type PhaseReader } from './child-launcher';
import { compiledChild } from './compiled-child';
import { BATCHED, launchGateway, loaderOptionArgs, type LoaderOptions } from './gateway-start';

export interface GatewayHandle {
  url: string;
  mode: GatewayMode;
  /** NODE_ENV the gateway runs with (null: unset). */
  nodeEnv: string | null;
  /** The gateway process's CPU time so far (user + system, µs); null when it shares this process. */
  cpuMicros(): Promise<number | null>;
  /** The gateway process's resident set (bytes); in-process, this whole process's. */
  rssBytes(): Promise<number>;
  /** Its memory after a full collection (bytes); in-process, this whole process's, collected when --expose-gc allows. */
  settledMemory(): Promise<SettledMemory>;
  /** Writes a heap snapshot of the gateway to `path` (after a collection); in-process, of this whole process. */
  heapSnapshot(path: string): Promise<void>;
  /** Its WebSocket door's open sockets, bytes held unsent (in all and on one socket) and sockets closed for reading slowly. */
  wsStats(): Promise<WsStats>;
  /** Where its requests' time went (phase-clock.ts); reads null in-process. */
  phases: PhaseReader;
  close(): Promise<void>;
}

export interface SettledMemory {
  rss: number;
  heapUsed: number;
  external: number;
  arrayBuffers: number;
  /** The young generation's resident pages (absent in runs made before it was read). */
  newSpace?: number;
  /** The heap V8 holds from the system, used or not (absent in runs made before it was read). */
  heapTotal?: number;
}

export interface WsStats {
  sockets: number;
  bufferedBytes: number;
  maxBufferedBytes: number;
  closedSlow: number;
}

function isWsStats(value: unknown): value is WsStats {
  return isObject(value) && ['sockets', 'bufferedBytes', 'maxBufferedBytes', 'closedSlow'].every((k) => typeof value[k] === 'number');
}

function isSettledMemory(value: unknown): value is SettledMemory {
  return isObject(value) && ['rss', 'heapUsed', 'external', 'arrayBuffers'].every((k) => typeof value[k] === 'number');
}

/** A gateway's environment against the sandbox, as a deployment would set it. */
export function benchGatewayEnv(sandbox: RunningSandbox): Record<string, string> {
  return {
    UPSTREAM_BASE_URL: sandbox.baseUrl,
    SEARCH_URL: sandbox.searchUrl,
    SEARCH_USERNAME: sandbox.searchCredentials.username,
    SEARCH_PASSWORD: sandbox.searchCredentials.password,
    // Event search is for the operator's organizations: the sandbox's demo callers belong to its first.
    EVENTS_ALLOWED_ORGANIZATIONS: sandbox.restFacts().organizationIds[0] ?? '',
    HOST: '127.0.0.1',
    PORT: '0',
    // The throughput phase saturates the gateway (32 whole-network graphs at once): each then
    // takes longer than the default 30 s operation deadline, which is about one operation, not a queue.
    OPERATION_TIMEOUT_MS: '300000',
  };
}

export async function startGatewayProcess(mode: GatewayMode, env: Record<string, string>, loaderOptions: LoaderOptions = BATCHED): Promise<GatewayHandle> {
  const script = compiledChild('gateway-child');
  if (mode === 'child' && script !== null) return startGatewayChild(script, env, loaderOptions);
  return startInProcess(env, loaderOptions);
}

async function startInProcess(env: Record<string, string>, loaderOptions: LoaderOptions): Promise<GatewayHandle> {
  const gateway = await launchGateway({ ...process.env, ...env }, loaderOptions);
  return {
    url: gateway.url,
    mode: 'in-process',
    // graphql-js read NODE_ENV when this process loaded it: what this process has is what it runs with.
    nodeEnv: process.env['NODE_ENV'] ?? null,
    cpuMicros: () => Promise.resolve(null),
    rssBytes: () => Promise.resolve(process.memoryUsage().rss),
    settledMemory: () => {
      const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
      return Promise.resolve({ rss, heapUsed, heapTotal, external, arrayBuffers });
    },
    heapSnapshot: (path) => Promise.resolve(void writeHeapSnapshot(path)),
    wsStats: () => Promise.resolve(gateway.wsStats()),
    phases: NO_PHASES,
    close: () => gateway.close(),
  };
}

/** A gateway in a child process running `script` (the compiled gateway-child.ts; tests pass a bundle of it). */
export async function startGatewayChild(script: string, env: Record<string, string>, loaderOptions: LoaderOptions = BATCHED): Promise<GatewayHandle> {
  const child = await startChild(script, env, 'gateway child', loaderOptionArgs(loaderOptions));
  return {
    url: child.url,
    mode: 'child',
    nodeEnv: child.nodeEnv,
    cpuMicros: () => child.cpuMicros(),
    rssBytes: async () => {
      const rss = await child.ask('memory-usage');
      if (typeof rss !== 'number') throw new Error('gateway child: memory-usage answered no number');
      return rss;
    },
    settledMemory: async () => {
      const memory = await child.ask('memory-settled');
      if (!isSettledMemory(memory)) throw new Error('gateway child: memory-settled answered no memory figures');
      return memory;
    },
    heapSnapshot: async (path) => void (await child.ask('heap-snapshot', { path })),
    wsStats: async () => {
      const stats = await child.ask('ws-stats');
      if (!isWsStats(stats)) throw new Error('gateway child: ws-stats answered no stats');
      return stats;
    },
    phases: child.phases,
    close: () => child.close(),
  };
}
