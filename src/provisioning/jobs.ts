/**
 * The provisionings of one process (the store without a fleet): each belongs to the credential
 * fingerprint that started it (nobody else can read or follow it), keeps its record for `retainMs`
 * after it finished, and tells its watchers every change. Bounded: `maxRunning` at once and
 * `maxRunningPerOwner` for one owner (core/shares.ts), `maxRetained` records kept (the oldest
 * finished ones go first, the owner's own before anybody else's). A fleet keeps the same contract
 * in Redis (src/state/provisionings.ts).
 */
import { randomUUID } from 'node:crypto';
import { GatewayError, LimitExceededError } from '../errors/codes';
import { SharedLimit, type Hold } from '../core/shares';
import type { ProvisioningRecord, StepAction } from './records';
import type { RunHandle } from './runner';

export interface ProvisioningLimits {
  /** Provisionings running at once, all owners together (`MAX_PROVISIONINGS`). */
  maxRunning: number;
  /** Provisionings one owner may run at once (`MAX_PROVISIONINGS_PER_CALLER`). */
  maxRunningPerOwner: number;
  /** Records kept, running and finished (`PROVISIONINGS_RETAINED`); one owner keeps at most a quarter. */
  maxRetained: number;
  /** How long a finished provisioning stays readable. */
  retainMs: number;
}

/** Who starts a provisioning: a credential fingerprint, and the credential itself only to seal it. */
export interface ProvisioningOwner {
  readonly fingerprint: string;
  /** The caller's credential passed through `seal` (a fleet keeps it, encrypted, while the run lasts); null when there is none. */
  sealCredential(seal: (authorization: string) => string): string | null;
}

/** Runs (or resumes) a provisioning's steps with `owner`'s credentials; progress goes through `handle`. */
export type ProvisioningRun<O> = (owner: O, handle: RunHandle, actions: readonly StepAction[], signal: AbortSignal) => Promise<void>;

export interface ProvisioningJobs<O extends ProvisioningOwner = ProvisioningOwner> {
  /** Registers a new provisioning, starts its run in the background and answers its record. */
  start(owner: O, fields: Omit<ProvisioningRecord, 'id'>, actions: readonly StepAction[]): Promise<ProvisioningRecord>;
  /** A copy of the record; null when unknown to this owner. */
  get(id: string, owner: string): Promise<ProvisioningRecord | null>;
  /** The record now, then after each change, until it finished or `signal` aborts. NOT_FOUND when unknown to this owner. */
  watch(id: string, owner: string, signal: AbortSignal): AsyncGenerator<ProvisioningRecord>;
  /** Runs in progress in this process (for /metrics). */
  running(): number;
  /** Stops every run of this process (gateway shutdown). */
  close(): Promise<void>;
}

interface Job {
  owner: string;
  record: ProvisioningRecord;
  /** Wakes the watchers after each change. */
  listeners: Set<() => void>;
  finishedAt: number | null;
  hold: Hold | null;
}

export const snapshot = (record: ProvisioningRecord): ProvisioningRecord => structuredClone(record);

/** The error every store answers for a provisioning this owner cannot see. */
export const notFound = (id: string): GatewayError => new GatewayError('NOT_FOUND', `no provisioning ${id} started with this token`);

/** A running-count limit shared by the stores: MAX_PROVISIONINGS in all, its per-owner share. */
export function runningLimit(limits: ProvisioningLimits): SharedLimit {
  return new SharedLimit('provisionings', { total: limits.maxRunning, perCaller: limits.maxRunningPerOwner, retryAfter: 5, setting: 'MAX_PROVISIONINGS' });
}

/** An owner keeps at most this many records (a quarter of the total, at least one). */
export const ownerRetained = (limits: ProvisioningLimits): number => Math.max(1, Math.floor(limits.maxRetained / 4));

/** The record's run failed with a bug (the runner reports step failures itself): say so on the record. */
export function markCrashed(record: ProvisioningRecord, error: unknown): void {
  record.state = 'FAILED';
  record.error ??= { code: 'INTERNAL_SERVER_ERROR', message: error instanceof Error ? error.message : String(error), outcomeUnknown: false };
  record.finishedAt ??= new Date().toISOString();
}

export function createProvisioningJobs<O extends ProvisioningOwner>(limits: ProvisioningLimits, run: ProvisioningRun<O>): ProvisioningJobs<O> {
  const jobs = new Map<string, Job>();
  const controller = new AbortController();
  const runs = new Set<Promise<void>>();
  const runningNow = runningLimit(limits);

  function forget(): void {
    const cutoff = Date.now() - limits.retainMs;
    for (const [id, job] of jobs) if (job.finishedAt !== null && job.finishedAt < cutoff) jobs.delete(id);
  }

  /** Makes room for one more record of `owner`: drops its own oldest finished record, or the oldest of all, or refuses. */
  function makeRoom(owner: string): void {
    const oldestFinished = (mine: boolean): string | null => {
      let found: { id: string; at: number } | null = null;
      for (const [id, job] of jobs) {
        if (job.finishedAt === null || (mine && job.owner !== owner)) continue;
        if (found === null || job.finishedAt < found.at) found = { id, at: job.finishedAt };
      }
      return found?.id ?? null;
    };
    const own = [...jobs.values()].filter((j) => j.owner === owner).length;
    if (own >= ownerRetained(limits)) {
      const id = oldestFinished(true);
      if (id === null) throw retainedRefusal(ownerRetained(limits), 'caller');
      jobs.delete(id);
    }
    if (jobs.size >= limits.maxRetained) {
      const id = oldestFinished(false);
      if (id === null) throw retainedRefusal(limits.maxRetained, 'gateway');
      jobs.delete(id);
    }
  }

  const ownJob = (id: string, owner: string): Job | null => {
    const job = jobs.get(id);
    return job !== undefined && job.owner === owner ? job : null;
  };

  return {
    async start(owner, fields, actions) {
      forget();
      const hold = runningNow.take(owner.fingerprint);
      try {
        makeRoom(owner.fingerprint);
      } catch (error) {
        hold.release();
        throw error;
      }
      const job: Job = { owner: owner.fingerprint, record: { id: randomUUID(), ...fields }, listeners: new Set(), finishedAt: null, hold };
      jobs.set(job.record.id, job);
      const handle: RunHandle = {
        record: job.record,
        change(edit) {
          edit(job.record);
          if (job.record.state !== 'RUNNING' && job.finishedAt === null) {
            job.finishedAt = Date.now();
            job.hold?.release();
          }
          for (const wake of job.listeners) wake();
        },
        // In one process the record is the only copy: nothing to write before a change is sent.
        checkpoint: () => Promise.resolve(),
      };
      const running = run(owner, handle, actions, controller.signal)
        .catch((error: unknown) => handle.change((r) => markCrashed(r, error)))
        .finally(() => {
          job.hold?.release();
          runs.delete(running);
        });
      runs.add(running);
      return snapshot(job.record);
    },

    async get(id, owner) {
      const job = ownJob(id, owner);
      return job === null ? null : snapshot(job.record);
    },

    async *watch(id, owner, signal) {
      const job = ownJob(id, owner);
      if (job === null) throw notFound(id);
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

    running: () => runningNow.stats().held,

    async close() {
      controller.abort();
      await Promise.allSettled([...runs]);
    },
  };
}

/** No finished record can make room: the owner (or everybody) keeps as many running ones as may be kept. */
export function retainedRefusal(max: number, scope: 'gateway' | 'caller'): LimitExceededError {
  const who = scope === 'caller' ? 'this caller keeps' : 'this gateway keeps';
  return new LimitExceededError('provisionings', max, `${who} ${max} provisioning records, none finished (PROVISIONINGS_RETAINED); try again when one has finished`, { scope, retryAfter: 5 });
}
