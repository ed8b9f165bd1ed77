/**
 * The provisionings this process runs: each belongs to the token fingerprint that started it
 * (nobody else can read or follow it), keeps its record for `retainMs` after it finished, and
 * tells its watchers every change. Bounded: at most `maxRunning` at once.
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors/codes';
import type { ProvisioningRecord } from './records';
import type { RunHandle } from './runner';

export interface ProvisioningJobsOptions {
  /** Provisionings allowed to run at once in this process. */
  maxRunning: number;
  /** How long a finished provisioning stays readable. */
  retainMs: number;
}

interface Job {
  owner: string;
  record: ProvisioningRecord;
  /** Wakes the watchers after each change. */
  listeners: Set<() => void>;
  finishedAt: number | null;
}

export interface ProvisioningJobs {
  /** Registers a new provisioning and hands its record to `run`, which runs in the background. */
  start(owner: string, record: Omit<ProvisioningRecord, 'id'>, run: (handle: RunHandle, signal: AbortSignal) => Promise<void>): ProvisioningRecord;
  /** A copy of the record; null when unknown to this owner. */
  get(id: string, owner: string): ProvisioningRecord | null;
  /** The record now, then after each change, until it finished or `signal` aborts. */
  watch(id: string, owner: string, signal: AbortSignal): AsyncGenerator<ProvisioningRecord>;
  /** Running provisionings (for /metrics). */
  running(): number;
  /** Stops every running provisioning (gateway shutdown); their records say so. */
  close(): Promise<void>;
}

const snapshot = (record: ProvisioningRecord): ProvisioningRecord => structuredClone(record);

export function createProvisioningJobs(options: ProvisioningJobsOptions): ProvisioningJobs {
  const jobs = new Map<string, Job>();
  const controller = new AbortController();
  const runs = new Set<Promise<void>>();

  function forget(): void {
    const cutoff = Date.now() - options.retainMs;
    for (const [id, job] of jobs) if (job.finishedAt !== null && job.finishedAt < cutoff) jobs.delete(id);
  }

  const ownJob = (id: string, owner: string): Job | null => {
    const job = jobs.get(id);
    return job !== undefined && job.owner === owner ? job : null;
  };

  return {
    start(owner, fields, run) {
      forget();
      const runningNow = [...jobs.values()].filter((j) => j.finishedAt === null).length;
      if (runningNow >= options.maxRunning) {
        throw new GatewayError('RATE_LIMITED', `this gateway runs ${options.maxRunning} provisionings already (MAX_PROVISIONINGS); try again when one has finished`);
      }
      const job: Job = { owner, record: { id: randomUUID(), ...fields }, listeners: new Set(), finishedAt: null };
      jobs.set(job.record.id, job);
      const handle: RunHandle = {
        record: job.record,
        change(edit) {
          edit(job.record);
          if (job.record.state !== 'RUNNING') job.finishedAt = Date.now();
          for (const wake of job.listeners) wake();
        },
      };
      const running = run(handle, controller.signal)
        .catch((error: unknown) => {
          // The runner reports step failures itself; anything reaching here is a bug: say so on the record.
          handle.change((r) => {
            r.state = 'FAILED';
            r.error ??= { code: 'INTERNAL_SERVER_ERROR', message: error instanceof Error ? error.message : String(error), outcomeUnknown: false };
            r.finishedAt ??= new Date().toISOString();
          });
        })
        .finally(() => runs.delete(running));
      runs.add(running);
      return snapshot(job.record);
    },

    get(id, owner) {
      const job = ownJob(id, owner);
      return job === null ? null : snapshot(job.record);
    },

    async *watch(id, owner, signal) {
      const job = ownJob(id, owner);
      if (job === null) throw new GatewayError('NOT_FOUND', `no provisioning ${id} started with this token`);
      let seen = -1;
      let version = 0;
      let wake: (() => void) | null = null;
      const listener = (): void => {
        version += 1;
        wake?.();
      };
      const onAbort = (): void => wake?.();
      job.listeners.add(listener);
      signal.addEventListener('abort', onAbort);
      try {
        while (!signal.aborted) {
          if (version !== seen) {
            seen = version;
            const current = snapshot(job.record);
            yield current;
            // The state of what was sent decides: the live record may have finished meanwhile, and that is one more event.
            if (current.state !== 'RUNNING') return;
            continue;
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
      } finally {
        job.listeners.delete(listener);
        signal.removeEventListener('abort', onAbort);
      }
    },

    running: () => [...jobs.values()].filter((j) => j.finishedAt === null).length,

    async close() {
      controller.abort();
      await Promise.allSettled([...runs]);
    },
  };
}
