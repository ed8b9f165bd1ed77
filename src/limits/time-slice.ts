/**
 * Fairness for CPU-heavy executions. graphql-js resolves a large answer in one run of microtasks:
 * once the last upstream response is in, 200,000 fields complete without the event loop getting a
 * turn, and every other caller (and SIGTERM) waits. The field wrapper (instrument.ts) asks
 * `mustYield()` before each field; once the current turn has run longer than SLICE_MS, the
 * remaining fields of that turn are deferred to `setImmediate`, after pending I/O. Work is chopped
 * into slices of ~SLICE_MS whatever the operation, and a cheap field costs one counter increment.
 */

/** Longest stretch of field resolution before the event loop gets a turn. */
export const SLICE_MS = 10;
/** Fields between two clock reads. */
const CHECK_EVERY = 256;

let fields = 0;
let sliceStarted = 0;
let scheduled = false;
let over = false;

function newTurn(): void {
  scheduled = false;
  over = false;
}

/** True when the current turn has used its slice: defer this field (see `afterIo`). */
export function mustYield(): boolean {
  if (over) return true;
  fields += 1;
  if (fields % CHECK_EVERY !== 0) return false;
  const now = performance.now();
  if (!scheduled) {
    // First check in this turn: the turn ends when this immediate runs.
    scheduled = true;
    sliceStarted = now;
    setImmediate(newTurn);
    return false;
  }
  if (now - sliceStarted > SLICE_MS) over = true;
  return over;
}

/** Resolves after pending I/O callbacks have run. */
export function afterIo(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
