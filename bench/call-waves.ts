/**
 * Sequential upstream round trips ("waves") of one operation, from the sandbox's call timings
 * (`sandbox.control.timings()`): a call is in wave 1 when no other call of the operation was
 * answered before it arrived, else in 1 + the highest wave of the calls answered before it
 * arrived. The operation's round trips are its highest wave: the length of its longest chain of
 * calls each sent after the previous one's answer. Structural, not a timing threshold: with a
 * per-call latency set (tens of ms), calls sent side by side overlap whatever the CPU does, and
 * a call that waited for an answer starts after it. The round-trip test counts the gateway's
 * waves with it; the p50 floor replays them (floors.ts).
 */
import type { CallTiming } from '../src/sandbox';

/** A per-call latency long enough that calls sent side by side always overlap, even on a loaded machine. */
export const WAVE_LATENCY_MS = 100;

/** The calls of each wave, wave 1 first; within a wave, in the order they arrived. */
export function callWaves(timings: readonly CallTiming[]): CallTiming[][] {
  const sorted = [...timings].sort((a, b) => a.receivedMs - b.receivedMs);
  const waveOf = new Map<number, number>();
  for (const call of sorted) {
    let wave = 1;
    for (const before of sorted) {
      if (before === call || before.answeredMs === null || before.answeredMs > call.receivedMs) continue;
      wave = Math.max(wave, (waveOf.get(before.seq) ?? 1) + 1);
    }
    waveOf.set(call.seq, wave);
  }
  const waves: CallTiming[][] = [];
  for (const call of sorted) {
    const n = waveOf.get(call.seq) ?? 1;
    while (waves.length < n) waves.push([]);
    waves[n - 1]?.push(call);
  }
  return waves;
}
