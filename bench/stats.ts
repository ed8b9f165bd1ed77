/**
 * Latency statistics. Percentiles use the nearest-rank method on the sorted samples, so p50 and
 * p99 are always latencies that were actually observed (no interpolation between two requests).
 */
export interface LatencySummary {
  count: number;
  p50Ms: number;
  p99Ms: number;
  minMs: number;
  maxMs: number;
  meanMs: number;
}

/** Nearest-rank percentile (p in (0, 100]) of samples sorted ascending. */
export function percentile(sortedAscending: readonly number[], p: number): number {
  if (sortedAscending.length === 0) throw new Error('percentile of no samples');
  if (!(p > 0 && p <= 100)) throw new Error(`percentile out of range: ${p}`);
  const rank = Math.ceil((p / 100) * sortedAscending.length);
  const value = sortedAscending[Math.min(rank, sortedAscending.length) - 1];
  if (value === undefined) throw new Error('percentile rank outside the samples');
  return value;
}

export function summarize(samplesMs: readonly number[]): LatencySummary {
  const sorted = [...samplesMs].sort((a, b) => a - b);
  const total = sorted.reduce((sum, v) => sum + v, 0);
  return {
    count: sorted.length,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    minMs: percentile(sorted, 100 / sorted.length),
    maxMs: percentile(sorted, 100),
    meanMs: total / sorted.length,
  };
}

/** Rounds for display and results.json: enough digits to compare runs, no float noise. */
export function round(value: number, digits = 2): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** latency / bound, or null when there is no bound to compare with (per-call latency 0). */
export function ratioToBound(latencyMs: number, boundMs: number): number | null {
  return boundMs > 0 ? round(latencyMs / boundMs) : null;
}

/** The middle sample (the lower of the two middle ones for an even count: a value that was observed). */
export function median(samples: readonly number[]): number {
  return percentile([...samples].sort((a, b) => a - b), 50);
}
