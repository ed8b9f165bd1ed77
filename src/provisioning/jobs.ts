/**
 * The provisionings of one process (the store without a fleet): each belongs to the verified
 * identity that started it (nobody else can read or follow it), keeps its record for `retainMs`
 * after it finished, and tells its watchers every change. Bounded: `maxRunning` at once and
 * `maxRunningPerOwner` for one owner (core/shares.ts), `maxRetained` records kept (the oldest
 * finished ones go first, the owner's own before anybody else's). A fleet keeps the same contract
 * in Redis (src/state/provisionings.ts).
 */
import { randomUUID } from 'node:crypto';
import { GatewayError } from '../errors/codes';
import { ProvisioningLedger, refusalOf, type ProvisioningLimits } from './limits';
import type { ProvisioningRecord, StepAction } from './records';
import type { RunHandle } from './runner';

export { ownerRetained, refusalOf, type ProvisioningLimits } from './limits';

/** Who starts a provisioning: its verified identity's key, and the credential itself only to seal it. */
export interface ProvisioningOwner {
  /** The owner's key (src/core/caller.ts `shareKeyOf`): only read after `verify()`. */
  readonly fingerprint: string;
  /** Verifies the owner's token with the platform (cached); rejects UNAUTHENTICATED when refused. */
  verify(): Promise<void>;
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
}

export const snapshot = (record: ProvisioningRecord): ProvisioningRecord => structuredClone(record);

/** The error every store answers for a provisioning this owner cannot see. */
export const notFound = (id: string): GatewayError => new GatewayError('NOT_FOUND', `no provisioning ${id} started with this token`);

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
  // The limits (limits.ts); a record it drops to make room, or past its time, goes from here too.
  const ledger = new ProvisioningLedger(limits, (id) => jobs.delete(id));

  const ownJob = (id: string, owner: string): Job | null => {
    const job = jobs.get(id);
    return job !== undefined && job.owner === owner ? job : null;
  };

  return {
    async start(owner, fields, actions) {
      const id = randomUUID();
      const answer = ledger.reserve(owner.fingerprint, id, Date.now());
      if (answer !== 'ok') throw refusalOf(answer, limits);
      const job: Job = { owner: owner.fingerprint, record: { id, ...fields }, listeners: new Set() };
      jobs.set(id, job);
      const handle: RunHandle = {
        record: job.record,
        change(edit) {
          edit(job.record);
          if (job.record.state !== 'RUNNING') ledger.finish(id, Date.now());
          for (const wake of job.listeners) wake();
        },
        // In one process the record is the only copy: nothing to write before a change is sent.
        checkpoint: () => Promise.resolve(),
      };
      const running = run(owner, handle, actions, controller.signal)
        .catch((error: unknown) => handle.change((r) => markCrashed(r, error)))
        .finally(() => {
          ledger.finish(id, Date.now());
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

    running: () => ledger.running(),

    async close() {
      controller.abort();
      await Promise.allSettled([...runs]);
    },
  };
}
