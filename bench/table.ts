/**
 * The human-readable table printed at the end of a run (and pasted into the README).
 */
import type { BenchResults } from './results';

function cell(value: number | string | null): string {
  if (value === null) return '–';
  if (typeof value === 'string') return value;
  return Number.isInteger(value) ? String(value) : value.toFixed(value >= 100 ? 0 : 1);
}

const COLUMNS = [
  'query',
  'calls',
  'bound',
  'trips',
  'p50 ms',
  'p99 ms',
  'bound ms',
  'p50/bound',
  'rps',
  'unb. calls',
  'unb. p50 ms',
  'unb. rps',
] as const;

/** A Markdown table: readable in a terminal and pastes unchanged into the README. */
export function formatTable(results: BenchResults): string {
  const rows = results.queries.map((q) =>
    [
      q.name,
      q.upstreamCalls,
      q.lowerBoundCalls,
      q.roundTrips,
      q.p50Ms,
      q.p99Ms,
      q.boundMs,
      q.p50Ratio,
      q.rps,
      q.unbatched.upstreamCalls,
      q.unbatched.p50Ms,
      q.unbatched.concurrency === results.concurrency ? q.unbatched.rps : `${cell(q.unbatched.rps)} †`,
    ].map(cell),
  );
  const capped = results.queries.filter((q) => q.unbatched.concurrency !== results.concurrency);
  const all = [[...COLUMNS], ...rows];
  const widths = COLUMNS.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string =>
    '| ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ') + ' |';
  const rule = '|' + widths.map((w, i) => (i === 0 ? ':' : '') + '-'.repeat(w + 1) + (i === 0 ? '' : ':')).join('|') + '|';
  const out = [line([...COLUMNS]), rule, ...rows.map(line)];
  const pt = results.passthrough;
  out.push('');
  out.push(
    pt
      ? `pass-through: gateway ${cell(pt.gatewayRps)} rps vs direct GET ${cell(pt.directRps)} rps, ratio ${cell(results.passthroughRatio)}`
      : 'pass-through: not measured',
  );
  for (const q of capped) {
    out.push(
      `† ${q.name} unbatched, capped for the run-time budget: p50 over ${q.unbatched.iterations} run(s), rps at concurrency ${q.unbatched.concurrency}`,
    );
  }
  for (const f of results.failed) out.push(`WRONG RESULT, not timed: ${f.name} (${f.side}): ${f.error}`);
  for (const s of results.skipped) out.push(`not measured: ${s.name} (${s.reason})`);
  out.push(
    `seed ${results.seed}, per-call latency ${results.latencyMs} ms (latency phase), 0 ms (rps phase, concurrency ${results.concurrency}, ${results.durationMs / 1000} s), ` +
      `gateway ${results.gatewayMode}; ${results.cpu.model} × ${results.cpu.cores}, Node ${results.node}, ` +
      `load average ${results.loadAverage.start} → ${results.loadAverage.end}`,
  );
  return out.join('\n');
}
