/**
 * The child side of a bench child process (see child-launcher.ts): starts a server, reports its
 * URL (and NODE_ENV) over IPC, answers questions by id — `cpu-usage` (this process's CPU time so
 * far, user + system µs, every thread: GC and the thread pool included), `memory-usage` (its
 * resident set, bytes), `memory-settled` (resident set and heap after a collection), `heap-snapshot` (written to a path), `phases-start` and
 * `phases-stop` (where its requests' time went in between, phase-clock.ts) and any the entry adds —
 * and stops when told to or when the parent goes away.
 */
import { getHeapSpaceStatistics, setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isObject, type JsonObject } from '../src/core/parse';
import { createPhaseClock } from './phase-clock';

export interface ChildServer {
  url: string;
  close(): Promise<void>;
}

/** Answers one question (the message as sent, `type` and `id` included). */
export type ChildQuestion = (message: JsonObject) => Promise<unknown>;

const memoryUsage: ChildQuestion = () => Promise.resolve(process.memoryUsage().rss);

/** Memory once garbage is collected (twice, a moment apart): what the process holds, not what it has not freed yet. */
const memorySettled: ChildQuestion = async () => {
  // The gateway runs without --expose-gc (as deployed); a bench question may collect on demand.
  setFlagsFromString('--expose-gc');
  const gc: unknown = runInNewContext('gc');
  for (let i = 0; i < 2; i += 1) {
    if (typeof gc === 'function') Reflect.apply(gc, undefined, []);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  const { rss, heapUsed, heapTotal, external, arrayBuffers } = process.memoryUsage();
  // The young generation's pages: they grow under load up to --max-semi-space-size and stay.
  const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.physical_space_size ?? 0;
  return { rss, heapUsed, heapTotal, external, arrayBuffers, newSpace };
};

/** A heap snapshot written to the message's `path` (after a collection): what the process holds, object by object. */
const heapSnapshot: ChildQuestion = async (message) => {
  const path = message['path'];
  if (typeof path !== 'string') throw new Error('heap-snapshot needs a path');
  await memorySettled(message);
  return writeHeapSnapshot(path);
};

const cpuUsage: ChildQuestion = () => {
  const { user, system } = process.cpuUsage();
  return Promise.resolve(user + system);
};

export function serveChild(name: string, start: () => Promise<ChildServer>, questions: Record<string, ChildQuestion> = {}): void {
  const phases = createPhaseClock();
  const answers: Record<string, ChildQuestion> = {
    ...questions,
    'cpu-usage': cpuUsage,
    'memory-usage': memoryUsage,
    'memory-settled': memorySettled,
    'heap-snapshot': heapSnapshot,
    'phases-start': () => Promise.resolve(phases.start()),
    'phases-stop': () => Promise.resolve(phases.stop()),
  };
  const run = async (): Promise<void> => {
    const server = await start();
    const stop = (): void => {
      server.close().then(
        () => process.exit(0),
        () => process.exit(1),
      );
    };
    process.on('message', (message: unknown) => {
      if (!isObject(message)) return;
      const type = message['type'];
      if (type === 'close') return stop();
      const answer = typeof type === 'string' && Object.hasOwn(answers, type) ? answers[type] : undefined;
      if (answer === undefined) return;
      const id = message['id'];
      answer(message).then(
        (value) => process.send?.({ type: 'answer', id, value }),
        (err: unknown) => process.send?.({ type: 'answer', id, error: err instanceof Error ? err.message : String(err) }),
      );
    });
    process.on('disconnect', stop);
    process.send?.({ type: 'ready', url: server.url, nodeEnv: process.env['NODE_ENV'] ?? null });
  };
  run().catch((err: unknown) => {
    process.stderr.write(`${name}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
