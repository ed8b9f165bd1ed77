/**
 * `watch` of the lifecycle (lifecycle.ts): a provisioning's record now, then after each change the
 * store tells (and, for a run this process carries, each change it makes), until it finished.
 */
import { notFound, snapshot } from './jobs';
import type { LocalRun } from './local-run';
import type { ProvisioningRecord } from './records';
import type { ProvisioningStore, StoredChange } from './store';

/** A watcher also reads the record this often, in case a change message was lost. */
const WATCH_REREAD_MS = 2000;

/** What a watch reads: the store, the lifecycle's own read (owner-checked), the runs this process carries. */
export interface WatchSource {
  store: ProvisioningStore;
  read(id: string, owner: string): Promise<ProvisioningRecord | null>;
  runs: ReadonlyMap<string, LocalRun>;
}

export async function* watchRecord(source: WatchSource, id: string, owner: string, signal: AbortSignal): AsyncGenerator<ProvisioningRecord> {
  const { store, read, runs } = source;
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
}
