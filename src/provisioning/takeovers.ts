/**
 * A shared store's lease keeping for the lifecycle (lifecycle.ts): the heartbeat that renews the
 * leases of the runs this process carries (and writes back what it could not write), and the
 * takeover of runs whose lease lapsed: resumed with their owner's token, or ended FAILED saying why.
 */
import { ErrorCode } from '../errors/codes';
import type { ProvisioningOwner } from './jobs';
import type { LifecycleOptions } from './lifecycle';
import type { LocalRun } from './local-run';
import type { ProvisioningRecord } from './records';
import type { ProvisioningStore, StoredEntry } from './store';

/** What the lease keeping needs of the lifecycle. */
export interface Carrier<O> {
  store: ProvisioningStore;
  options: LifecycleOptions<O>;
  /** Runs this process carries, and runs that ended with their last record unwritten. */
  runs: ReadonlyMap<string, LocalRun>;
  unwritten: ReadonlyMap<string, LocalRun>;
  write(local: LocalRun): Promise<void>;
  handOver(local: LocalRun, why: string): void;
  carry(entry: StoredEntry, sealed: string, owner: O, resumed: boolean): LocalRun;
  closing(): boolean;
  /** Just back after an outage: runs are left to the processes that carried them for a while. */
  inGrace(): boolean;
}

export function createTakeovers<O extends ProvisioningOwner>(c: Carrier<O>): { heartbeat(): Promise<void>; takeOver(): Promise<void> } {
  const { store, options } = c;
  const warn = options.warn ?? ((): void => undefined);

  async function heartbeat(): Promise<void> {
    if (!store.isUp()) return;
    for (const local of c.unwritten.values()) void c.write(local);
    for (const local of c.runs.values()) {
      if (local.dirty) {
        void c.write(local);
        continue;
      }
      try {
        if (!(await store.renew(local.entry.record.id))) c.handOver(local, 'its lease is held by another replica');
      } catch {
        // Unreachable: written again when it is back.
      }
    }
  }

  async function takeOver(): Promise<void> {
    if (!store.isUp() || c.closing() || c.inGrace()) return;
    let ids: string[];
    try {
      ids = await store.running();
    } catch {
      return;
    }
    for (const id of ids) {
      if (c.runs.has(id) || c.closing()) continue;
      try {
        if (await store.take(id)) await resume(id);
      } catch (error) {
        warn('could not resume a provisioning', { id, error: error instanceof Error ? error.message : String(error) });
      }
    }
  }

  /** A lapsed run, now leased to this process: resumed with its owner's token, or ended saying why not. */
  async function resume(id: string): Promise<void> {
    const claimed = await store.claim(id);
    if (claimed.kind === 'gone') return;
    const { entry } = claimed;
    if (claimed.kind === 'altered') {
      // Changed in the store (or written without the key): never run with the owner's token. Nothing is sent.
      options.metrics?.takeover();
      warn('a provisioning entry in Redis failed its integrity check (FLEET_TOKEN_KEY): not resumed, ended FAILED', { id });
      endUnresumable(entry.record, ALTERED);
    } else if (claimed.token !== null && options.ownerFor !== undefined) {
      warn('resuming a provisioning whose replica stopped', { id });
      c.carry(entry, claimed.sealed, options.ownerFor(claimed.token, entry.owner), true);
      return;
    } else {
      // No token to go on with: the run ends here, and says so.
      options.metrics?.takeover();
      warn('a provisioning whose replica stopped ends FAILED: no token to resume it with (FLEET_TOKEN_KEY)', { id });
      endUnresumable(entry.record, NO_TOKEN);
    }
    entry.version += 1;
    await store.finish(entry, options.limits);
  }

  return { heartbeat, takeOver };
}

const NO_TOKEN =
  'the gateway replica running this provisioning stopped, and no other could resume it with your token (FLEET_TOKEN_KEY is not set, or is not the key it was kept with): check the resources it created, then start again';
const ALTERED =
  "the gateway replica running this provisioning stopped, and its record in the gateways' shared state (Redis) had been changed by something other than a gateway of this fleet, so it was not resumed and nothing more was sent: check the resources it created, then start again";

/** Ends a run that cannot go on: the step it was in failed (its change may have been sent), the record says why. */
function endUnresumable(record: ProvisioningRecord, message: string): void {
  const now = new Date().toISOString();
  const error = { code: ErrorCode.INTERNAL_SERVER_ERROR, message, outcomeUnknown: true };
  const step = record.steps.find((s) => s.state === 'RUNNING') ?? record.steps.find((s) => s.state === 'PENDING');
  if (step !== undefined) Object.assign(step, { state: 'FAILED', finishedAt: now, error: { ...error, outcomeUnknown: step.changeSent } });
  record.error = error;
  record.state = 'FAILED';
  record.finishedAt = now;
}
