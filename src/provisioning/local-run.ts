/** A run this process carries, as the lifecycle (lifecycle.ts) and its lease keeping (takeovers.ts) see it. */
import type { StoredEntry } from './store';

export interface LocalRun {
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
