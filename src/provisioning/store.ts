/**
 * What the provisioning lifecycle (lifecycle.ts) needs from where it keeps its records: storage
 * and leases only. The lifecycle owns start, the limits' refusals, watch and the run (heartbeats,
 * takeovers, resume, write-back); a store keeps entries, takes a reservation atomically with the
 * limits (limits.ts), and leases a run to one process. In this process: src/state/memory; in a
 * fleet: src/state/redis (Lua scripts, an HMAC over each entry, the token sealed while it runs).
 */
import type { ProvisioningOwner } from './jobs';
import type { LimitAnswer, ProvisioningLimits } from './limits';
import type { ProvisioningRecord, StepAction } from './records';

/** What a store keeps of a provisioning (its record is what clients read). */
export interface StoredEntry {
  owner: string;
  version: number;
  record: ProvisioningRecord;
  actions: readonly StepAction[];
}

/** A change as a store tells its listeners. */
export interface StoredChange {
  version: number;
  record: ProvisioningRecord;
}

/** A lapsed run whose lease this process just took, as the store found it. */
export type Claimed =
  /** Nothing left to resume (no record, or one that cannot be read): the store has let it go. */
  | { kind: 'gone' }
  /** The entry fails its integrity check: never run with the owner's token. */
  | { kind: 'altered'; entry: StoredEntry }
  /** The entry, and the owner's token when one was kept for the run (null: none, or it does not open). */
  | { kind: 'resumable'; entry: StoredEntry; token: string | null; sealed: string };

export interface ProvisioningStore {
  /** Whether other processes share it (then runs are leased, renewed, and lapsed ones taken over). */
  readonly shared: boolean;
  /** Reachable now; while not, the lifecycle runs on its own and writes back when it is (`onUp`). */
  isUp(): boolean;
  onUp(listener: () => void): () => void;
  /** The owner's credential as the store may keep it for `id`'s run ('' for none). */
  seal(owner: ProvisioningOwner, id: string): string;
  /** Whether a run kept with `sealed` can be resumed elsewhere (so this process may hand it over on close). */
  canHandOver(sealed: string): boolean;
  /** Registers a new entry, leased to this process, if the limits allow it: the steps of limits.ts, atomically. */
  reserve(entry: StoredEntry, sealed: string, limits: ProvisioningLimits): Promise<LimitAnswer>;
  /** Writes a running entry (the lease renewed); false when another process holds its lease. Throws when unreachable. */
  write(entry: StoredEntry, sealed: string): Promise<boolean>;
  /** Writes a finished entry: no longer running, kept `retainMs`, its token and lease gone. False and throws as `write`. */
  finish(entry: StoredEntry, limits: ProvisioningLimits): Promise<boolean>;
  /** The entry; null when unknown. Throws when unreachable. */
  read(id: string): Promise<StoredEntry | null>;
  /** Listens to the entry's changes (each write); resolves once listening, to the way to stop. */
  changes(id: string, listener: (change: StoredChange) => void): Promise<() => void>;
  /** Renews this process's lease of a run; false when another holds it. */
  renew(id: string): Promise<boolean>;
  release(id: string): Promise<void>;
  /** Runs recorded as running (whoever carries them). */
  running(): Promise<string[]>;
  /** Takes the lease of a run whose lease lapsed; false when somebody holds it. */
  take(id: string): Promise<boolean>;
  /** Reads a run just taken, to resume it or end it. */
  claim(id: string): Promise<Claimed>;
}
