/**
 * The provisioning store of one process: entries in a map, the limits through a
 * `ProvisioningLedger` (a record it drops to make room, or past its time, goes from the map too),
 * changes told to listeners in this process. Nothing is shared, so a run is always this process's
 * and no token is kept. The lifecycle is src/provisioning/lifecycle.ts.
 */
import type { ProvisioningJobs, ProvisioningOwner, ProvisioningRun } from '../../provisioning/jobs';
import { createProvisionings } from '../../provisioning/lifecycle';
import { ProvisioningLedger, type ProvisioningLimits } from '../../provisioning/limits';
import type { ProvisioningStore, StoredChange, StoredEntry } from '../../provisioning/store';

export function createMemoryProvisioningStore(limits: ProvisioningLimits): ProvisioningStore {
  const entries = new Map<string, StoredEntry>();
  const listeners = new Map<string, Set<(change: StoredChange) => void>>();
  const ledger = new ProvisioningLedger(limits, (id) => entries.delete(id));
  const copy = (entry: StoredEntry): StoredEntry => structuredClone(entry);
  /** Keeps the entry and tells its listeners; a record dropped meanwhile (past its time) is not brought back. */
  const keep = (entry: StoredEntry): true => {
    const id = entry.record.id;
    if (!entries.has(id)) return true;
    entries.set(id, copy(entry));
    for (const listener of listeners.get(id) ?? []) listener({ version: entry.version, record: structuredClone(entry.record) });
    return true;
  };

  return {
    shared: false,
    isUp: () => true,
    onUp: () => () => undefined,
    seal: () => '',
    canHandOver: () => false,
    reserve(entry) {
      // Synchronous: the reservation is taken before the caller's first await.
      const answer = ledger.reserve(entry.owner, entry.record.id, Date.now());
      if (answer === 'ok') entries.set(entry.record.id, copy(entry));
      return Promise.resolve(answer);
    },
    write: (entry) => Promise.resolve(keep(entry)),
    finish(entry) {
      const kept = keep(entry);
      ledger.finish(entry.record.id, Date.now());
      return Promise.resolve(kept);
    },
    read: (id) => {
      const entry = entries.get(id);
      return Promise.resolve(entry === undefined ? null : copy(entry));
    },
    changes(id, listener) {
      const set = listeners.get(id) ?? new Set();
      listeners.set(id, set.add(listener));
      return Promise.resolve(() => {
        set.delete(listener);
        if (set.size === 0) listeners.delete(id);
      });
    },
    renew: () => Promise.resolve(true),
    release: () => Promise.resolve(),
    running: () => Promise.resolve([]),
    take: () => Promise.resolve(false),
    claim: () => Promise.resolve({ kind: 'gone' }),
  };
}

/** The provisionings of one process (no `REDIS_URL`). */
export function createProvisioningJobs<O extends ProvisioningOwner>(limits: ProvisioningLimits, run: ProvisioningRun<O>): ProvisioningJobs<O> {
  return createProvisionings(createMemoryProvisioningStore(limits), { limits, run });
}
