/**
 * A Redis for one test suite: Debian's redis-server on a free port of 127.0.0.1, in a temporary
 * directory, with no persistence (a restart starts empty, as a lost Redis would). `.ci/run`
 * installs redis-server when it is missing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { waitUntil } from './wait';

export const REDIS_SERVER = '/usr/bin/redis-server';

export interface TestRedis {
  url: string;
  port: number;
  /** Stops the server (SIGKILL: as if it died); `start()` brings it back, empty, on the same port. */
  stop(): Promise<void>;
  start(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Whether the fleet suites run: always in CI (a missing redis-server then fails them, loudly),
 * elsewhere only when it is installed, with a message saying why they were skipped.
 */
export function redisTestsEnabled(): boolean {
  if (existsSync(REDIS_SERVER) || process.env['CI']) return true;
  console.warn(`fleet tests skipped: ${REDIS_SERVER} is missing (apt-get install redis-server); they always run when CI is set`);
  return false;
}

/** A port of 127.0.0.1 free a moment ago (a server binding it may still lose it: retry then). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

async function answers(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.write('PING\r\n');
    });
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startRedis(): Promise<TestRedis> {
  let port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'netgraph-redis-'));
  let child: ChildProcess | null = null;

  const start = async (): Promise<void> => {
    const spawned = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir], { stdio: 'ignore' });
    child = spawned;
    await waitUntil(
      async () => {
        // The port was taken between our look and Redis's bind (another suite, another run): say so at once.
        if (spawned.exitCode !== null) throw new Error(`redis-server exited (${spawned.exitCode}): port ${port} taken`);
        return answers(port);
      },
      `redis-server to answer on port ${port}`,
      { intervalMs: 50 },
    );
  };
  const stop = async (): Promise<void> => {
    const running = child;
    child = null;
    if (running === null || running.exitCode !== null) return;
    await new Promise<void>((resolve) => {
      running.once('exit', () => resolve());
      running.kill('SIGKILL');
    });
  };
  // A free port can be taken before Redis binds it: then again on another one.
  for (let attempt = 1; ; attempt += 1) {
    try {
      await start();
      break;
    } catch (error) {
      await stop();
      if (attempt >= 3) throw error;
      port = await freePort();
    }
  }
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    stop,
    start,
    close: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
