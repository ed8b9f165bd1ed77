/**
 * The gateway's sequential upstream round trips ("waves") as the round-trip test prints them: the
 * grouping is bench/call-waves.ts's, shared with the benchmark's p50 floor.
 */
import { callWaves as waveCalls } from '../../bench/call-waves';
import type { CallTiming } from '../../src/sandbox';

export interface Wave {
  /** 1-based. */
  wave: number;
  /** `METHOD route` of each call in the wave, sorted. */
  calls: string[];
}

export function callWaves(timings: readonly CallTiming[]): Wave[] {
  return waveCalls(timings).map((calls, i) => ({ wave: i + 1, calls: calls.map((call) => `${call.method} ${call.route}`).sort() }));
}
