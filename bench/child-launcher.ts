/**
 * The parent side of a bench child process (a gateway, or a floor server): forks the compiled
 * entry in production mode with the gateway's V8 flags, waits for its `ready` message, and asks it
 * questions over IPC (its CPU clock, a measurement), each answer matched to its question by id.
 * The child side is child-ipc.ts.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { GATEWAY_NODE_FLAGS } from '../src/server/node-flags';
import { isObject } from '../src/core/parse';
import { readPhaseSummary, type PhaseSummary } from './phase-clock';

/** A server's phase clock (phase-clock.ts), driven from the bench process. */
export interface PhaseReader {
  start(): Promise<void>;
  /** What was counted since start(); null when nothing was, or when the server shares this process (in-process mode). */
  stop(): Promise<PhaseSummary | null>;
}

/** In-process servers share this process's channels with the sandbox and each other: no phases. */
export const NO_PHASES: PhaseReader = { start: () => Promise.resolve(), stop: () => Promise.resolve(null) };

export interface ChildHandle {
  url: string;
  /** NODE_ENV the child runs with (null: unset). */
  nodeEnv: string | null;
  /** Sends `{ type, id, ...payload }` and resolves with the child's answer value. */
  ask(type: string, payload?: Record<string, unknown>): Promise<unknown>;
  /** The child process's CPU time so far (user + system, µs, every thread). */
  cpuMicros(): Promise<number>;
  /** Where the child's requests' time went since the last reset (phase-clock.ts). */
  phases: PhaseReader;
  close(): Promise<void>;
}

const CHILD_START_TIMEOUT_MS = 30_000;
const CHILD_EXIT_TIMEOUT_MS = 5_000;
/** A measurement (the networkGraph floor) may take seconds; a CPU reading takes microseconds. */
const ANSWER_TIMEOUT_MS = 60_000;

/** Questions to the child; answers `{ type: 'answer', id, value }` or `{ type: 'answer', id, error }`. */
function asker(child: ChildProcess, name: string): ChildHandle['ask'] {
  let nextId = 0;
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  child.on('message', (message: unknown) => {
    if (!isObject(message) || message['type'] !== 'answer' || typeof message['id'] !== 'number') return;
    waiting.get(message['id'])?.(message);
  });
  return (type, payload = {}) =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error(`${name} did not answer a ${type} request in time`));
      }, ANSWER_TIMEOUT_MS);
      waiting.set(id, (message) => {
        clearTimeout(timer);
        waiting.delete(id);
        const error = message['error'];
        if (typeof error === 'string') reject(new Error(`${name}: ${type}: ${error}`));
        else resolve(message['value']);
      });
      child.send({ ...payload, type, id });
    });
}

/** Forks `script` (a compiled entry that calls serveChild) with `args` and resolves once it reports ready. */
export function startChild(script: string, env: Record<string, string>, name: string, args: readonly string[] = []): Promise<ChildHandle> {
  return new Promise((resolve, reject) => {
    const child = fork(script, [...args], {
      env: { ...process.env, ...env, NODE_ENV: 'production' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      // The same V8 flags as `npm start` and the Docker image (src/server/node-flags.ts).
      execArgv: [...GATEWAY_NODE_FLAGS],
    });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`${name} did not report ready in time`));
    }, CHILD_START_TIMEOUT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${name} exited before it was ready (code ${String(code)})`));
    });
    const onReady = (message: unknown): void => {
      if (!isObject(message) || message['type'] !== 'ready' || typeof message['url'] !== 'string') return;
      child.off('message', onReady);
      clearTimeout(timer);
      const nodeEnv = message['nodeEnv'];
      const ask = asker(child, name);
      resolve({
        url: message['url'],
        nodeEnv: typeof nodeEnv === 'string' ? nodeEnv : null,
        ask,
        cpuMicros: async () => {
          const micros = await ask('cpu-usage');
          if (typeof micros !== 'number') throw new Error(`${name} answered a cpu-usage request with ${JSON.stringify(micros)}`);
          return micros;
        },
        phases: {
          start: async () => void (await ask('phases-start')),
          stop: async () => readPhaseSummary(await ask('phases-stop')),
        },
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
