/**
 * The human-readable table printed at the end of a run (and pasted into the README).
 */
import { FLOOR_KINDS, type FloorKind } from './floor-kind';
import type { PhaseSummary } from './phase-clock';
import type { SubscribersResult } from './subscribers';
import type { BenchResults, QueryFloor } from './results';
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

const FLOOR_COLUMNS = ['pass-through (same load)', 'rps', 'of direct', 'CPU ms per request', 'p50 ms, 1 trip', 'p50/bound'] as const;

/** Who each pass-through floor is, for its table row. */
const FLOOR_LABELS: Record<FloorKind, string> = {
  raw: 'floor: node:http + undici',
  apollo: 'floor: Apollo Server 5',
};

const QUERY_FLOOR_COLUMNS = ['CPU floor per query', 'calls', 'upstream KB', 'answer KB', 'floor CPU ms', 'gateway CPU ms'] as const;

const P50_FLOOR_COLUMNS = ['p50 floor per query', 'trips', 'waves', 'bound ms', 'gateway p50 ms', 'gateway p50/bound', 'floor p50 ms', 'floor p50/bound', 'gap ms'] as const;

const PHASE_COLUMNS = ['inside each server (medians)', 'gateway before ms', 'upstream ms', 'after ms', 'floor before ms', 'upstream ms', 'after ms'] as const;

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

/** A ratio with two decimals (0.82, 1.19): one decimal hides the differences the floors are about. */
function ratioCell(value: number | null): string {
  return value === null ? '–' : value.toFixed(2);
}

/** Bytes as whole KB (the floors' bodies and answers). */
function kiloBytes(bytes: number): string {
  return (bytes / 1024).toFixed(0);
}

/** Per-request CPU ms of the pass-through (three decimals: the figures are a few tenths). */
function requestCpuCell(value: number | null): string {
  return value === null ? '–' : value.toFixed(3);
}

/** The floors: the pass-through table (gateway, floors, direct GET) and the direct GET's p50 and networkGraph's CPU floor. */
export function floorLines(results: BenchResults): string[] {
  const out: string[] = [];
  const pt = results.passthrough;
  const ptFloors = pt?.floors;
  if (pt && ptFloors) {
    const direct = results.floors;
    const rows = [
      ['gateway', pt.gatewayRps, ratioCell(results.passthroughRatio), requestCpuCell(pt.gatewayCpuMsPerRequest), pt.gatewayP50Ms, ratioCell(pt.gatewayP50Ratio)],
      ...FLOOR_KINDS.map((kind) => {
        const floor = ptFloors[kind];
        return [FLOOR_LABELS[kind], floor.rps, ratioCell(floor.ratioToDirect), requestCpuCell(floor.cpuMsPerRequest), floor.p50Ms, ratioCell(floor.p50Ratio)];
      }),
      ['direct GET (no gateway)', pt.directRps, ratioCell(1), '–', direct ? direct.directGetP50Ms : '–', direct ? ratioCell(direct.directGetP50Ratio) : '–'],
    ];
    out.push('', ...markdown(FLOOR_COLUMNS, rows.map((r) => r.map(cell))));
  }
  const floors = results.floors;
  if (!floors) return out;
  out.push(
    '',
    `floor: direct GET p50 ${cell(floors.directGetP50Ms)} ms at ${results.latencyMs} ms per call = ${ratioCell(floors.directGetP50Ratio)} × one round trip ` +
      `(the upstream's own p50/bound for a one-trip query; ${floors.directGetIterations} runs)`,
  );
  if (floors.queries.length > 0) {
    const rows = floors.queries.map(({ name, floor }) => {
      const gateway = cpuCell(results.queries.find((q) => q.name === name)?.cpuMsPerQuery ?? null);
      if (floor === null) return [name, '–', '–', '–', 'not replayed', gateway];
      return [name, String(floor.upstreamCalls), kiloBytes(floor.upstreamBytes), kiloBytes(floor.answerBytes), cpuCell(floor.totalMs), gateway];
    });
    out.push('', ...markdown(QUERY_FLOOR_COLUMNS, rows));
    for (const { name, reason } of floors.queries) if (reason !== null) out.push(`${name}: not replayed (${reason})`);
    out.push('', ...p50FloorLines(results, floors.queries));
  }
  const graph = floors.networkGraph;
  if (graph) {
    const gateway = results.queries.find((q) => q.name === 'networkGraph')?.cpuMsPerQuery ?? null;
    out.push(
      `floor: networkGraph CPU ${graph.totalMs === null ? '– (in-process)' : `${cell(graph.totalMs)} ms`} per query = ` +
        `${graph.upstreamCalls} calls' ${(graph.upstreamBytes / 1e6).toFixed(1)} MB received and parsed (${cpuCell(graph.receiveAndParseCpuMs)} ms, of which JSON.parse ${cpuCell(graph.parseCpuMs)}) + ` +
        `${(graph.answerBytes / 1e6).toFixed(2)} MB answer stringified (${cpuCell(graph.stringifyMs)} ms); gateway ${cpuCell(gateway)} ms (rps phase)`,
    );
  }
  return out;
}

/**
 * Each query's p50 floor (its calls replayed in the gateway's waves) beside the gateway's p50, both
 * against the query's bound: the gateway's as timed in turns with the floor when it was (else its
 * latency phase's), so the gap is theirs and not the machine's drift between two phases.
 */
function p50FloorLines(results: BenchResults, queries: readonly QueryFloor[]): string[] {
  const rows = queries.map(({ name, waves, p50Ms, p50Ratio, paired }) => {
    const gateway = results.queries.find((q) => q.name === name);
    const replay = p50Ms === null ? ['not replayed', '–'] : [cell(p50Ms), ratioCell(p50Ratio)];
    const gatewayP50 = paired === null ? [cell(gateway?.p50Ms ?? null), ratioCell(gateway?.p50Ratio ?? null)] : [cell(paired.gatewayP50Ms), ratioCell(paired.gatewayP50Ratio)];
    return [name, cell(gateway?.roundTrips ?? null), String(waves), cell(gateway?.boundMs ?? null), ...gatewayP50, ...replay, paired === null ? '–' : paired.gapMs.toFixed(2)];
  });
  const unlike = queries.filter((q) => !q.wavesMatchBound).map((q) => q.name);
  return [
    ...markdown(P50_FLOOR_COLUMNS, rows),
    ...(unlike.length > 0 ? [`waves ≠ trips (the gateway's calls in more or fewer round trips than the bound): ${unlike.join(', ')}`] : []),
    ...phaseLines(queries),
  ];
}

/** Where each server's time went over the paired runs (bench/phase-clock.ts), a row per query that has a figure. */
function phaseLines(queries: readonly QueryFloor[]): string[] {
  const three = (p: PhaseSummary | null): string[] => (p === null ? ['–', '–', '–'] : [p.beforeMs, p.upstreamMs, p.afterMs].map((ms) => ms.toFixed(2)));
  const rows = queries.flatMap(({ name, paired }) =>
    paired === null || (paired.phases.gateway === null && paired.phases.floor === null) ? [] : [[name, ...three(paired.phases.gateway), ...three(paired.phases.floor)]],
  );
  if (rows.length === 0) return [];
  return [
    '',
    ...markdown(PHASE_COLUMNS, rows),
    'before: request in → first upstream call; upstream: → last upstream body received; after: → answer written.',
  ];
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
  out.push(...floorLines(results));
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

/** The subscribers scenario's figures, a line each. */
export function formatSubscribers(r: SubscribersResult): string {
  const mib = (bytes: number): string => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
  return [
    `subscribers of networkChanges: ${r.connected} of ${r.subscribers} connected (gateway ${r.gatewayMode}), network of ${r.networkResources} resources, first event ${(r.firstEventBytes / 1024).toFixed(0)} KiB`,
    `gateway RSS: ${mib(r.rssBeforeBytes)} before, ${mib(r.rssAfterBytes)} after: ${(r.rssPerSubscriberBytes / 1024).toFixed(1)} KiB per subscriber`,
    `one change (${r.changeThrough === "gateway" ? 'a mutation through the gateway' : 'made straight to the platform'}): first subscriber after ${r.changeToFirstMs} ms, last after ${r.changeToLastMs} ms (fan-out ${r.fanOutMs} ms, poll interval ${r.pollIntervalMs} ms); reached ${r.reached}`,
    ...(r.settledBefore && r.settledAfter
      ? [
          `${r.sockets ?? r.subscribers} sockets × ${r.perSocket ?? 1}; settled RSS ${mib(r.settledBefore.rss)} → ${mib(r.settledAfter.rss)}: ${((r.rssSettledPerFollowerBytes ?? 0) / 1024).toFixed(1)} KiB per follower (heap ${((r.heapPerFollowerBytes ?? 0) / 1024).toFixed(1)} KiB)`,
          `first event after subscribe p50 ${r.firstEventMs?.p50} ms, p99 ${r.firstEventMs?.p99} ms; all first events in ${r.firstEventsToAllMs} ms; change → p99 follower ${r.changeToP99Ms} ms; polls per interval ${r.pollsPerInterval}; after leaving: ${r.pollsAfterLeaving} polls, settled RSS ${mib(r.settledAfterLeaving?.rss ?? 0)}`,
        ]
      : []),
    ...(r.slowReaders
      ? [
          `${r.slowReaders.slowFollowers} followers stop reading, a burst of ${r.slowReaders.changes} changes: ${r.slowReaders.othersReached} of ${r.slowReaders.others} others got its last change (first ${r.slowReaders.toFirstMs} ms, p99 ${r.slowReaders.toP99Ms} ms, last ${r.slowReaders.toLastMs} ms); the gateway held at most ${(r.slowReaders.maxBufferedBytes / 1024).toFixed(0)} KiB unsent (${(r.slowReaders.maxSocketBufferedBytes / 1024).toFixed(0)} KiB on one socket); ${r.slowReaders.closedSlow} closed for reading slowly`,
        ]
      : []),
    ...(r.churn
      ? [
          `churn for ${r.churn.seconds} s: ${r.churn.followers} followers came and went in ${r.churn.rounds} rounds; settled RSS ${mib(r.churn.settledBefore.rss)} → ${mib(r.churn.settledAfter.rss)}, heap ${mib(r.churn.settledBefore.heapUsed)} → ${mib(r.churn.settledAfter.heapUsed)}; ${r.churn.pollsAfter} polls after the last round left`,
        ]
      : []),
  ].join('\n');
}
