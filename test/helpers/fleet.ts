/**
 * A fleet for tests: gateway replicas as real child processes (the benchmark's gateway child,
 * bundled by test/helpers/bench-bundle.ts since ts-jest cannot fork a .ts file), configured by
 * environment variables exactly as a deployment would be, each on its own port of 127.0.0.1.
 * A replica can be killed (SIGKILL: no drain, no goodbye) as a crashed pod would be.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { isObject } from '../../src/core/parse';

export interface Replica {
  name: string;
  /** `http://127.0.0.1:<port>/graphql` */
  url: string;
  wsUrl: string;
  origin: string;
  /** Ends the process at once (SIGKILL). */
  kill(): Promise<void>;
  /** Asks it to stop (drain) and waits for it to exit. */
  close(): Promise<void>;
}

const START_TIMEOUT_MS = 30_000;

export function startReplica(script: string, name: string, env: Record<string, string>): Promise<Replica> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = fork(script, [], { env: { ...process.env, ...env, NODE_ENV: 'production' }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    const exited = new Promise<void>((done) => child.once('exit', () => done()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`replica ${name} did not report ready in time`));
    }, START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`replica ${name} exited before it was ready (code ${String(code)})`));
    });
    child.on('message', (message: unknown) => {
      if (!isObject(message) || message['type'] !== 'ready' || typeof message['url'] !== 'string') return;
      clearTimeout(timer);
      const url = message['url'];
      const stopped = (): boolean => child.exitCode !== null || child.signalCode !== null;
      resolve({
        name,
        url,
        wsUrl: url.replace(/^http/, 'ws'),
        origin: new URL(url).origin,
        async kill() {
          if (stopped()) return;
          child.kill('SIGKILL');
          await exited;
        },
        async close() {
          if (stopped()) return;
          const force = setTimeout(() => child.kill('SIGKILL'), 10_000);
          child.send({ type: 'close' });
          await exited;
          clearTimeout(force);
        },
      });
    });
  });
}

/** One Prometheus sample's value from a replica's /metrics (0 when the series is absent). */
export async function metric(replica: Replica, series: string): Promise<number> {
  const text = await (await fetch(`${replica.origin}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}
