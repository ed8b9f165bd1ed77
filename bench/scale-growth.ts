/**
 * Whether the scale series grew linearly: each figure's ratio from the first to the last scale,
 * against the ratio of the records (endpoints). Pure, so the table and the tests use it alone.
 */
import type { ScaleGrowth, ScalePoint } from './results';
import { round } from './stats';

/** A figure grows "linearly" when its ratio is at most this × the records' ratio. */
export const GROWTH_TOLERANCE = 1.25;

/**
 * Growth from the first to the last correctly answered scale: each figure's ratio against the
 * records' (endpoints) ratio. Null with fewer than two such scales.
 */
export function scaleGrowth(series: readonly ScalePoint[], tolerance = GROWTH_TOLERANCE): ScaleGrowth | null {
  const measured = series.filter((p) => p.error === null);
  const from = measured[0];
  const to = measured[measured.length - 1];
  if (from === undefined || to === undefined || from === to || from.endpoints === 0) return null;
  const ratio = (a: number, b: number): number => (b > 0 ? round(a / b) : Number.POSITIVE_INFINITY);
  const recordsRatio = ratio(to.endpoints, from.endpoints);
  const callsRatio = ratio(to.upstreamCalls, from.upstreamCalls);
  const p50Ratio = ratio(to.p50Ms, from.p50Ms);
  const cpuRatio = from.cpuMsPerQuery === null || to.cpuMsPerQuery === null ? null : ratio(to.cpuMsPerQuery, from.cpuMsPerQuery);
  const limit = recordsRatio * tolerance;
  const linear = callsRatio <= limit && p50Ratio <= limit && (cpuRatio === null || cpuRatio <= limit);
  return { fromScale: from.scale, toScale: to.scale, recordsRatio, callsRatio, p50Ratio, cpuRatio, tolerance, linear };
}

/** One line: what grew by how much, and whether that is within the tolerance of linear. */
export function describeGrowth(g: ScaleGrowth): string {
  const cpu = g.cpuRatio === null ? '' : `, CPU ×${g.cpuRatio}`;
  return (
    `scale ${g.fromScale} → ${g.toScale} (records ×${g.recordsRatio}): calls ×${g.callsRatio}, p50 ×${g.p50Ratio}${cpu}; ` +
    `${g.linear ? 'linear' : 'NOT linear'} (each within ${g.tolerance} × the records' growth: ${g.linear ? 'yes' : 'no'})`
  );
}
