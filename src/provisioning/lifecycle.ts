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
import { markCrashed, notFound, snapshot, type ProvisioningJobs, type ProvisioningOwner, type ProvisioningRun } from './jobs';
import { ProvisioningLedger, refusalOf, type ProvisioningLimits } from './limits';
import type { ProvisioningRecord } from './records';
import { HANDOVER, type RunHandle } from './runner';
import type { ProvisioningStore, StoredChange, StoredEntry } from './store';

/** How long a run's lease lasts without a heartbeat (renewed every third of it). */
export const RUN_LEASE_MS = 5000;
/** After the store comes back, how long to leave runs to the processes that carried them before taking lapsed ones. */
const REJOIN_GRACE_MS = RUN_LEASE_MS + 2000;
/** A watcher also reads the record this often, in case a change message was lost. */
const WATCH_REREAD_MS = 2000;

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

/** A run this process carries. */
interface LocalRun {
  entry: StoredEntry;
  sealed: string;
  controller: AbortController;
  listeners: Set<() => void>;
  /** Writes go one after another; `checkpoint` waits for the chain. */
  writing: Promise<void>;
  /** A change could not be written (store unreachable): written again when it is back. */
  dirty: boolean;
  done: Promise<void>;
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

  // --- heartbeats and takeovers (a shared store) ---

  async function heartbeat(): Promise<void> {
    if (!store.isUp()) return;
    for (const local of unwritten.values()) void write(local);
    for (const local of runs.values()) {
      if (local.dirty) {
        void write(local);
        continue;
      }
      try {
        if (!(await store.renew(local.entry.record.id))) handOver(local, 'its lease is held by another replica');
      } catch {
        // Unreachable: written again when it is back.
      }
    }
  }

  async function takeOver(): Promise<void> {
    if (!store.isUp() || closing || Date.now() - rejoinedAt < REJOIN_GRACE_MS) return;
    let ids: string[];
    try {
      ids = await store.running();
    } catch {
      return;
    }
    for (const id of ids) {
      if (runs.has(id) || closing) continue;
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
      carry(entry, claimed.sealed, options.ownerFor(claimed.token, entry.owner), true);
      return;
    } else {
      // No token to go on with: the run ends here, and says so.
      options.metrics?.takeover();
      warn('a provisioning whose replica stopped ends FAILED: no token to resume it with (FLEET_TOKEN_KEY)', { id });
      endUnresumable(entry.record, NO_TOKEN);
    }
    entry.version += 1;
    await store.finish(entry, limits);
  }

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

    async *watch(id, owner, signal) {
      let seen = -1;
      let latest: StoredChange | null = null;
      let wake: (() => void) | null = null;
      const poke = (): void => wake?.();
      const onChange = (change: StoredChange): void => {
        if (latest !== null && change.version > latest.version) latest = change;
        poke();
      };
      const rereadNow = (): void => {
        void read(id, owner)
          .then((record) => {
            if (record !== null && latest !== null && JSON.stringify(record) !== JSON.stringify(latest.record)) {
              latest = { version: latest.version + 1, record };
              poke();
            }
          })
          .catch(() => undefined);
      };
      // Only a shared store can lose a change message; one in this process tells every change.
      const reread = store.shared ? setInterval(rereadNow, WATCH_REREAD_MS).unref() : undefined;
      // This process's own run also wakes its watchers directly (the store may be away).
      const local = runs.get(id);
      const onLocal = (): void => {
        const run = runs.get(id);
        if (run !== undefined && latest !== null && run.entry.version > latest.version) latest = { version: run.entry.version, record: snapshot(run.entry.record) };
        poke();
      };
      local?.listeners.add(onLocal);
      signal.addEventListener('abort', poke);
      // Listening before the first read: no change falls between the two.
      const stop = await store.changes(id, onChange);
      try {
        const first = await read(id, owner);
        if (first === null) throw notFound(id);
        latest ??= { version: 0, record: first };
        while (!signal.aborted) {
          if (latest.version !== seen) {
            seen = latest.version;
            const current = snapshot(latest.record);
            yield current;
            // The state of what was sent decides: the record may have finished meanwhile, and that is one more event.
            if (current.state !== 'RUNNING') return;
            continue;
          }
          await new Promise<void>((resolve) => (wake = resolve));
          wake = null;
        }
      } finally {
        clearInterval(reread);
        local?.listeners.delete(onLocal);
        stop();
        signal.removeEventListener('abort', poke);
      }
    },

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
