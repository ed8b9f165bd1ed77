/**
 * The provisioning lifecycle, written once over a `ProvisioningStore` (store.ts): start (the
 * limits of limits.ts, taken atomically by the store, or by this process's ledger while a shared
 * store is away), the run (each change written in order; `checkpoint` waits for it before a
 * create is sent), watch, and in a shared store the run's lease: renewed as a heartbeat, a write
 * refused once another process holds it (this one then stops without recording: HANDOVER), runs
 * whose lease lapsed taken over and resumed from their last recorded step with the owner's token
 * (runner.ts: a create that may have been sent is looked up by name first), or ended FAILED
 * saying why. While the store is away, a run goes on and is written back when it is up again,
 * finished ones included (else another process would resume a run that is over).
 */
import { randomUUID } from 'node:crypto';
import { ErrorCode, GatewayError } from '../errors/codes';
import { markCrashed, snapshot, type ProvisioningJobs, type ProvisioningOwner, type ProvisioningRun } from './jobs';
import { ProvisioningLedger, refusalOf, type ProvisioningLimits } from './limits';
import type { LocalRun } from './local-run';
import type { ProvisioningRecord } from './records';
import { HANDOVER, type RunHandle } from './runner';
import type { ProvisioningStore, StoredEntry } from './store';
import { createTakeovers } from './takeovers';
import { watchRecord } from './watch';

/** How long a run's lease lasts without a heartbeat (renewed every third of it). */
export const RUN_LEASE_MS = 5000;
/** After the store comes back, how long to leave runs to the processes that carried them before taking lapsed ones. */
const REJOIN_GRACE_MS = RUN_LEASE_MS + 2000;

export interface LifecycleOptions<O> {
  limits: ProvisioningLimits;
  run: ProvisioningRun<O>;
  /** The owner a resumed run goes on as, from its token (a shared store only). */
  /** The owner of a run resumed here: its token (opened from the sealed copy) and the key the record was started under. */
  ownerFor?: (authorization: string, ownerKey: string) => O;
  /** Leases held and takeovers (a shared store's metrics). */
  metrics?: { takeover(): void; watchLeases(count: () => number): void };
  warn?(message: string, fields?: Record<string, unknown>): void;
}

export function createProvisionings<O extends ProvisioningOwner>(store: ProvisioningStore, options: LifecycleOptions<O>): ProvisioningJobs<O> {
  const { limits } = options;
  const warn = options.warn ?? ((): void => undefined);
  const runs = new Map<string, LocalRun>();
  /** The runs this process carried, by the limits' own rules: what counts while the store is away. */
  const alone = new ProvisioningLedger(limits);
  /** Runs that ended while the store was away, their last record not written yet. */
  const unwritten = new Map<string, LocalRun>();
  let closing = false;
  let rejoinedAt = 0;
  options.metrics?.watchLeases(() => runs.size);

  /** Writes an entry where the store keeps it: finished once its record says so. */
  const persist = (entry: StoredEntry, sealed: string): Promise<boolean> => (entry.record.state === 'RUNNING' ? store.write(entry, sealed) : store.finish(entry, limits));

  /** Writes the run's record now (queued after the writes before it). */
  function write(local: LocalRun): Promise<void> {
    local.writing = local.writing.then(async () => {
      try {
        const written = await persist(local.entry, local.sealed);
        local.dirty = false;
        unwritten.delete(local.entry.record.id);
        if (!written) handOver(local, 'another replica runs it now');
      } catch {
        local.dirty = true;
      }
    });
    return local.writing;
  }

  /** This process stops carrying the run (another one does, or will): nothing more is recorded here. */
  function handOver(local: LocalRun, why: string): void {
    if (local.controller.signal.aborted) return;
    warn('provisioning handed over', { id: local.entry.record.id, why });
    local.controller.abort(HANDOVER);
  }

  const handedOver = (local: LocalRun): boolean => local.controller.signal.aborted && local.controller.signal.reason === HANDOVER;

  function carry(entry: StoredEntry, sealed: string, owner: O, resumed: boolean): LocalRun {
    const controller = new AbortController();
    const local: LocalRun = { entry, sealed, controller, listeners: new Set(), writing: Promise.resolve(), dirty: false, done: Promise.resolve() };
    runs.set(entry.record.id, local);
    alone.track(entry.owner, entry.record.id);
    const handle: RunHandle = {
      record: entry.record,
      change(edit) {
        edit(entry.record);
        if (handedOver(local)) return;
        entry.version += 1;
        for (const wake of local.listeners) wake();
        void write(local);
      },
      checkpoint: () => local.writing,
    };
    if (resumed) options.metrics?.takeover();
    local.done = options
      .run(owner, handle, entry.actions, controller.signal)
      .catch((error: unknown) => {
        if (controller.signal.reason !== HANDOVER) handle.change((r) => markCrashed(r, error));
      })
      .then(() => local.writing)
      .finally(() => {
        runs.delete(entry.record.id);
        if (local.dirty) unwritten.set(entry.record.id, local);
        alone.finish(entry.record.id, Date.now());
        for (const wake of local.listeners) wake();
      });
    return local;
  }

  const { heartbeat, takeOver } = createTakeovers<O>({
    store,
    options,
    runs,
    unwritten,
    write,
    handOver,
    carry,
    closing: () => closing,
    inGrace: () => Date.now() - rejoinedAt < REJOIN_GRACE_MS,
  });
  const timers = store.shared ? [setInterval(() => void heartbeat(), RUN_LEASE_MS / 3), setInterval(() => void takeOver(), RUN_LEASE_MS / 2)] : [];
  for (const timer of timers) timer.unref();
  let joined = false;
  const offUp = store.onUp(() => {
    // Back after an outage (not the first connection): other processes' leases may have lapsed meanwhile.
    if (joined) rejoinedAt = Date.now();
    joined = true;
    // Write back what this process carried while the store was away (a restarted Redis is empty).
    for (const local of [...runs.values(), ...unwritten.values()]) void write(local);
  });

  async function read(id: string, owner: string): Promise<ProvisioningRecord | null> {
    const local = runs.get(id) ?? unwritten.get(id);
    // A run this process carries is read from here when nobody else writes it, or the store has not got its latest change.
    if (local !== undefined && (!store.shared || !store.isUp() || local.dirty)) return local.entry.owner === owner ? snapshot(local.entry.record) : null;
    let entry: StoredEntry | null;
    try {
      if (!store.isUp()) throw new Error('down');
      entry = await store.read(id);
    } catch {
      throw new GatewayError(ErrorCode.UPSTREAM_UNAVAILABLE, "the gateways' shared state (Redis) is not reachable from this replica: try again shortly");
    }
    return entry !== null && entry.owner === owner ? entry.record : null;
  }

  return {
    async start(owner, fields, actions) {
      if (closing) throw new GatewayError(ErrorCode.UPSTREAM_UNAVAILABLE, 'this gateway is shutting down');
      const id = randomUUID();
      const entry: StoredEntry = { owner: owner.fingerprint, version: 1, record: { id, ...fields }, actions };
      const sealed = store.seal(owner, id);
      const up = store.isUp();
      // Alone while the store is away: the runs this process carried count, by the same rules.
      const answer = up ? await store.reserve(entry, sealed, limits) : alone.reserve(entry.owner, id, Date.now());
      if (answer !== 'ok') throw refusalOf(answer, limits);
      const local = carry(entry, sealed, owner, false);
      local.dirty = !up;
      return snapshot(entry.record);
    },

    get: (id, owner) => read(id, owner),

    watch: (id, owner, signal) => watchRecord({ store, read, runs }, id, owner, signal),

    running: () => runs.size,

    async close() {
      closing = true;
      for (const timer of timers) clearInterval(timer);
      offUp();
      const carried = [...runs.values()];
      for (const local of carried) {
        // When the store can resume it elsewhere, give its lease up. Otherwise it stops here and says so.
        if (store.canHandOver(local.sealed) && store.isUp()) {
          local.controller.abort(HANDOVER);
          await local.done;
          await local.writing;
          await store.release(local.entry.record.id).catch(() => undefined);
        } else local.controller.abort();
      }
      await Promise.allSettled(carried.map((r) => r.done));
    },
  };
}
