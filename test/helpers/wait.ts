/**
 * The one wait of the test suites: polls a condition until it holds, and fails saying what it
 * waited for. Tests wait for a state (an event arrived, a count reached, a status shown), never
 * for a length of time; the timeout is only how long a test may hang before it fails, so it is
 * generous (a loaded CI machine is slow, not wrong) and stays under jest's 30 s test timeout.
 *
 *   await waitUntil(() => log.results.length >= 2, () => `2 events\n${log.describe()}`);
 *   const holder = await waitUntil(() => holderOf('poll'), 'a holder of the poll lease');
 */

/** How long a wait may take before the test fails. */
export const WAIT_TIMEOUT_MS = 20_000;

export interface WaitOptions {
  /** @default WAIT_TIMEOUT_MS */
  timeoutMs?: number;
  /** Pause between checks; raise it for checks that cost a request. @default 10 */
  intervalMs?: number;
}

/** What a check returns when the state has not arrived yet. */
type NotYet = null | undefined | false;

/**
 * Resolves with the check's first value that is not `null`, `undefined` or `false` (so `0` and
 * `''` count as arrived); rejects after `timeoutMs` with `what` (a function is called then, so it
 * can describe the state at the time of failure).
 */
export async function waitUntil<T>(check: () => T | Promise<T>, what: string | (() => string), options: WaitOptions | number = {}): Promise<Exclude<T, NotYet>> {
  const { timeoutMs = WAIT_TIMEOUT_MS, intervalMs = 10 } = typeof options === 'number' ? { timeoutMs: options } : options;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== null && value !== undefined && value !== false) return value as Exclude<T, NotYet>;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await pause(intervalMs);
  }
}

/**
 * A pause for a test that must show something does NOT happen (no second poll, no extra event):
 * absence has no event to wait on. Use it only for that, and assert on counts afterwards.
 */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

export interface Counted {
  /** What the count grew by. */
  added: number;
  /** The time that really passed while it was counted (longer than asked on a loaded machine). */
  elapsedMs: number;
}

/**
 * What `count` adds over at least `ms`, and at least `atLeast` (waited for, so a slow machine
 * still sees enough to judge): for a rate ("one poll per interval, not three"), which is then
 * checked against the time that really passed, never against `ms`.
 */
export async function countOver(count: () => number | Promise<number>, ms: number, atLeast = 0): Promise<Counted> {
  const started = performance.now();
  const before = await count();
  await pause(ms);
  if (atLeast > 0) await waitUntil(async () => (await count()) - before >= atLeast, `${atLeast} more`);
  const added = (await count()) - before;
  return { added, elapsedMs: performance.now() - started };
}

/** The most one poller can do in `elapsedMs` at one per `intervalMs` (one may be under way as counting starts). */
export function onePer(intervalMs: number, { elapsedMs }: Counted): number {
  return Math.floor(elapsedMs / intervalMs) + 1;
}
