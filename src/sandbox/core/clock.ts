/**
 * The sandbox clock: wall time, plus the length of one asynchronous step. Asynchronous progress
 * is computed from timestamps when read (no timers), so a closed sandbox leaves nothing running.
 */
import type { Clock } from './types';

/** Default step length: long enough to observe PROVISIONING by hand, short enough for demos. */
export const DEFAULT_STEP_MS = 2000;

export function createClock(stepMs: number = DEFAULT_STEP_MS): Clock {
  return { now: () => Date.now(), stepMs };
}

/**
 * A clock that only moves when told to: tests step asynchronous progress exactly instead of
 * sleeping (pass it as `startSandbox({ clock })`). Starts at the current wall time.
 */
export class ManualClock implements Clock {
  private current = Date.now();

  constructor(readonly stepMs: number = DEFAULT_STEP_MS) {}

  now(): number {
    return this.current;
  }

  /** Moves time forward by `ms` (default: one step). */
  advance(ms: number = this.stepMs): void {
    this.current += ms;
  }
}
