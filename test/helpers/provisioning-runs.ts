/** Provisioning stores under test: an owner, a new record's fields, and runs that finish when told to. */
import type { ProvisioningOwner } from '../../src/provisioning/jobs';
import type { ProvisioningRecord } from '../../src/provisioning/records';
import type { RunHandle } from '../../src/provisioning/runner';

export const owner = (fingerprint: string): ProvisioningOwner => ({ fingerprint, verify: () => Promise.resolve(), sealCredential: () => null });

export const fields: Omit<ProvisioningRecord, 'id'> = {
  state: 'RUNNING',
  steps: [],
  networkId: null,
  appWanId: null,
  error: null,
  rollbackOnFailure: false,
  startedAt: new Date().toISOString(),
  finishedAt: null,
};

/** Runs that succeed when told to (`finishers`), or end when their signal aborts (the store closing). */
export function controlledRuns() {
  const handles: RunHandle[] = [];
  const finishers: Array<() => void> = [];
  const run = (_owner: ProvisioningOwner, handle: RunHandle, _actions: unknown, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      handles.push(handle);
      signal?.addEventListener('abort', () => resolve(), { once: true });
      finishers.push(() => {
        handle.change((r) => {
          r.state = 'SUCCEEDED';
          r.finishedAt = new Date().toISOString();
        });
        resolve();
      });
    });
  const finishAll = async (): Promise<void> => {
    for (const finish of finishers.splice(0)) finish();
    await new Promise((r) => setImmediate(r));
  };
  return { run, handles, finishers, finishAll };
}
