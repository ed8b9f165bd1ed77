/**
 * The human-readable table printed at the end of a run (and pasted into the README).
 */
import type { BenchResults } from './results';
import { describeGrowth } from './scale-growth';

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
  'CPU ms',
  'unb. calls',
  'unb. p50 ms',
  'unb. rps',
  'unb. CPU ms',
] as const;

const SCALE_COLUMNS = ['scale', 'networks', 'endpoints', 'calls', 'bound', 'p50 ms', 'p99 ms', 'bound ms', 'p50/bound', 'CPU ms', 'runs'] as const;

/** Markdown table lines, first column left-aligned, the others right-aligned. */
function markdown(header: readonly string[], rows: string[][]): string[] {
  const all = [[...header], ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  const line = (r: string[]): string =>
    '| ' + r.map((c, i) => (i === 0 ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join(' | ') + ' |';
  const rule = '|' + widths.map((w, i) => (i === 0 ? ':' : '') + '-'.repeat(w + 1) + (i === 0 ? '' : ':')).join('|') + '|';
  return [line([...header]), rule, ...rows.map(line)];
}

/** CPU ms with enough digits for sub-millisecond figures. */
function cpuCell(value: number | null): string {
  if (value === null) return '–';
  return value >= 100 ? value.toFixed(0) : value >= 1 ? value.toFixed(1) : value.toFixed(2);
}

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
      cpuCell(q.cpuMsPerQuery),
      q.unbatched.upstreamCalls,
      q.unbatched.p50Ms,
      q.unbatched.concurrency === results.concurrency ? q.unbatched.rps : `${cell(q.unbatched.rps)} †`,
      cpuCell(q.unbatched.cpuMsPerQuery),
    ].map(cell),
  );
  const capped = results.queries.filter((q) => q.unbatched.concurrency !== results.concurrency);
  const out = markdown(COLUMNS, rows);
  const pt = results.passthrough;
  out.push('');
  out.push(
    pt
      ? `pass-through: gateway ${cell(pt.gatewayRps)} rps vs direct GET ${cell(pt.directRps)} rps, ratio ${cell(results.passthroughRatio)}; ` +
          `gateway CPU ${pt.gatewayCpuMsPerRequest === null ? '– (in-process)' : `${pt.gatewayCpuMsPerRequest.toFixed(3)} ms`} per one-call request`
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
      `gateway ${results.gatewayMode} (NODE_ENV ${results.nodeEnv ?? 'unset'}); CPU ms = the gateway process's CPU time per query ` +
      `(rps phase; – in-process); ${results.cpu.model} × ${results.cpu.cores}, Node ${results.node}, ` +
      `load average ${results.loadAverage.start} → ${results.loadAverage.end}`,
  );
  out.push(...scaleLines(results));
  return out.join('\n');
}

/** The networkGraph scale series: a second table and the growth check (nothing without a series). */
function scaleLines(results: BenchResults): string[] {
  if (results.scaleSeries.length === 0) return [];
  const rows = results.scaleSeries.map((p) =>
    (p.error === null
      ? [`${p.scale}x`, p.networks, p.endpoints, p.upstreamCalls, p.lowerBoundCalls, p.p50Ms, p.p99Ms, p.boundMs, p.p50Ratio, cpuCell(p.cpuMsPerQuery), p.iterations]
      : [`${p.scale}x`, p.networks, p.endpoints, p.upstreamCalls, p.lowerBoundCalls, 'WRONG', '–', p.boundMs, null, null, 0]
    ).map(cell),
  );
  const out = ['', 'networkGraph scale series (batched; CPU ms over the timed sequential runs):', '', ...markdown(SCALE_COLUMNS, rows), ''];
  for (const p of results.scaleSeries) if (p.error !== null) out.push(`WRONG RESULT at scale ${p.scale}, not timed: ${p.error}`);
  out.push(results.scaleGrowth ? `growth: ${describeGrowth(results.scaleGrowth)}` : 'growth: not measured (fewer than two scales answered)');
  return out;
}
