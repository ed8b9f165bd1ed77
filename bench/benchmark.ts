/**
 * One benchmark run: sandbox up, facts read, two gateways (batching on and off) up, then per
 * query a correctness check with its upstream call count, the latency phase at concurrency 1
 * with the per-call latency, and the throughput phase at per-call latency 0; finally the
 * pass-through baseline. Everything started here is stopped here, also on failure.
 */
import { startSandbox, type CallCounts, type RunningSandbox } from '../src/sandbox';
import { withoutCallerCheck } from './query-calls';
import { UsageError, type BenchOptions } from './args';
import { DASHBOARD, runDashboard } from './dashboard';
import { readFacts, type UpstreamFacts } from './facts';
import { withGatewayCpu, cpuPerRequest } from './gateway-cpu';
import { benchGatewayEnv, startGatewayProcess, type GatewayHandle } from './gateway-launcher';
import { BATCHED, UNBATCHED } from './gateway-start';
import { createGraphQLClient, type GraphQLHttpClient } from './graphql-client';
import { benchFloors } from './floors';
import { latencyPhase, measureLatency, measureThroughput, type Operation } from './load';
import { benchPassthrough, rpsRatio } from './passthrough';
import { BENCH_QUERIES } from './queries';
import type { BenchQuery } from './queries/types';
import { loadAverage1m, machineInfo, type BenchResults, type FailedQuery, type QueryResult } from './results';
import { runScaleSeries } from './scale-series';
import { runFaultScenario } from './fault-scenario';
import { ratioToBound, round } from './stats';

/** Queries the contract names that this build cannot run yet, reported as not measured. */
const NOT_YET_AVAILABLE: { name: string; reason: string }[] = [];

export type Log = (line: string) => void;

interface Side {
  label: 'batched' | 'unbatched';
  gateway: GatewayHandle;
  client: GraphQLHttpClient;
}

interface SideFigures {
  upstreamCalls: number;
  callsByRoute: Record<string, number>;
  p50Ms: number;
  p99Ms: number;
  iterations: number;
  rps: number;
  concurrency: number;
  cpuMsPerQuery: number | null;
}

export async function runBenchmark(options: BenchOptions, log: Log = () => undefined): Promise<BenchResults> {
  const wanted = BENCH_QUERIES.filter((q) => options.only.length === 0 || options.only.includes(q.name));
  const withDashboard = options.only.length === 0 || options.only.includes(DASHBOARD);
  const unknown = options.only.filter((name) => name !== DASHBOARD && !BENCH_QUERIES.some((q) => q.name === name));
  if (unknown.length > 0) throw new UsageError(`--only: unknown query ${unknown.join(', ')} (have ${BENCH_QUERIES.map((q) => q.name).join(', ')})`);

  const started = performance.now();
  const loadAtStart = loadAverage1m();
  if (loadAtStart > machineInfo().cpu.cores) {
    log(`warning: load average ${loadAtStart} on ${machineInfo().cpu.cores} cores: other work competes for the CPU, figures will be noisy`);
  }
  const cleanups: (() => Promise<void>)[] = [];
  try {
    log(`sandbox: starting with the ${options.seed} data`);
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seed: options.seed, latencyMs: 0 });
    cleanups.push(() => sandbox.close());
    const facts = await readFacts(sandbox.baseUrl, sandbox.tokens.admin, { url: sandbox.searchUrl, ...sandbox.searchCredentials });
    log(
      `sandbox: ${facts.networks.length} networks, ${facts.networks.reduce((s, n) => s + n.endpointIds.length, 0)} endpoints, ` +
        `${facts.networks.reduce((s, n) => s + n.appWans.length, 0)} AppWANs at ${sandbox.baseUrl}`,
    );

    const sides: Side[] = [];
    for (const label of ['batched', 'unbatched'] as const) {
      const gateway = await startGatewayProcess(options.gateway, benchGatewayEnv(sandbox), label === 'batched' ? BATCHED : UNBATCHED);
      cleanups.push(() => gateway.close());
      const client = createGraphQLClient(gateway.url, sandbox.tokens.admin, options.concurrency);
      cleanups.push(() => client.close());
      sides.push({ label, gateway, client });
      log(`gateway (${label}, ${gateway.mode}): ${gateway.url}`);
    }

    const queries: QueryResult[] = [];
    const failed: FailedQuery[] = [];
    const skipped = options.only.length === 0 ? [...NOT_YET_AVAILABLE] : [];
    for (const query of wanted) {
      const reason = query.unavailable(facts);
      if (reason !== null) {
        skipped.push({ name: query.name, reason });
        log(`${query.name}: not measured (${reason})`);
        continue;
      }
      const outcome = await benchQuery(query, facts, sandbox, sides, options, log);
      if ('failed' in outcome) failed.push(...outcome.failed);
      else queries.push(outcome.result);
    }

    const batched = sides.find((s) => s.label === 'batched');
    if (!batched) throw new Error('no batched gateway');
    const passthrough = options.skipPassthrough ? null : await benchPassthrough(facts, sandbox, { handle: batched.gateway, client: batched.client }, options, log);
    const withGraph = wanted.some((q) => q.name === 'networkGraph');
    // Every query that ran gets its CPU floor: the calls replayed are the gateway's own, whatever its answer's check said.
    const measured = wanted.filter((q) => q.unavailable(facts) === null);
    const floors = options.skipFloors ? null : await benchFloors(facts, sandbox, { client: batched.client, handle: batched.gateway }, options, measured, log);
    // The gateways and the sandbox of the main run stay up meanwhile but idle; each scale has its own.
    if (!withGraph && options.scales.length > 0) log('scale series: not run (--only leaves out networkGraph)');
    const series = withGraph ? await runScaleSeries(options, log) : { series: [], growth: null };
    const dashboard = withDashboard ? await runDashboard(sandbox, options, log) : null;
    const faultScenario = options.skipFaults ? null : await runFaultScenario(options, log);
    return {
      date: new Date().toISOString(),
      seed: options.seed,
      latencyMs: options.latencyMs,
      concurrency: options.concurrency,
      durationMs: options.durationMs,
      gatewayMode: sides[0]?.gateway.mode ?? options.gateway,
      nodeEnv: sides[0]?.gateway.nodeEnv ?? null,
      queries,
      failed,
      passthroughRatio: passthrough ? rpsRatio(passthrough.gatewayRps, passthrough.directRps) : null,
      passthrough,
      floors,
      skipped,
      scaleSeries: series.series,
      scaleGrowth: series.growth,
      dashboard,
      faultScenario,
      ...machineInfo(),
      loadAverage: { start: loadAtStart, end: loadAverage1m() },
      elapsedMs: Math.round(performance.now() - started),
    };
  } finally {
    // Reverse order: clients, then gateways, then the sandbox they call.
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}

async function benchQuery(
  query: BenchQuery,
  facts: UpstreamFacts,
  sandbox: RunningSandbox,
  sides: Side[],
  options: BenchOptions,
  log: Log,
): Promise<{ result: QueryResult } | { failed: FailedQuery[] }> {
  const variables = query.variables(facts);
  const lower = query.lowerBoundCalls(facts);
  const trips = query.roundTrips(facts);
  // Correctness first, on both gateways, with the call count of that one execution (nothing
  // else talks to the sandbox meanwhile). A wrong answer is reported, never timed.
  const calls = new Map<Side['label'], CallCounts>();
  const failures: FailedQuery[] = [];
  for (const side of sides) {
    sandbox.control.setLatency(0);
    sandbox.control.resetCalls();
    const t0 = performance.now();
    try {
      query.check(await side.client.execute(query.document, variables), facts);
      const counted = withoutCallerCheck(sandbox.control.calls());
      calls.set(side.label, counted);
      log(`${query.name} (${side.label}): correct, ${counted.total} upstream calls, ${(performance.now() - t0).toFixed(0)} ms at latency 0`);
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      log(`${query.name} (${side.label}): WRONG RESULT, not timed: ${error}`);
      failures.push({ name: query.name, side: side.label, error });
    }
  }
  if (failures.length > 0) return { failed: failures };

  const figures = new Map<Side['label'], SideFigures>();
  for (const side of sides) {
    const capped = side.label === 'unbatched' ? query.unbatchedCaps : undefined;
    const caps = capped
      ? { iterations: Math.min(options.iterations, capped.iterations), maxMs: capped.maxMs, warmup: 0 }
      : latencyPhase(options.iterations);
    const concurrency = capped ? Math.min(options.concurrency, capped.concurrency) : options.concurrency;
    const counted = calls.get(side.label);
    const upstreamCalls = counted?.total ?? 0;
    const op: Operation = () => side.client.executeUnchecked(query.document, variables);
    sandbox.control.setLatency(options.latencyMs);
    const latency = await measureLatency(op, caps);
    sandbox.control.setLatency(0);
    const { value: throughput, cpuMs } = await withGatewayCpu(side.gateway, () => measureThroughput(op, { concurrency, durationMs: options.durationMs }));
    const cpuMsPerQuery = cpuPerRequest(cpuMs, throughput.completed);
    figures.set(side.label, {
      upstreamCalls,
      callsByRoute: counted?.byRoute ?? {},
      p50Ms: latency.p50Ms,
      p99Ms: latency.p99Ms,
      iterations: latency.count,
      rps: throughput.rps,
      concurrency,
      cpuMsPerQuery,
    });
    log(
      `${query.name} (${side.label}): ${upstreamCalls} calls (bound ${lower.value}), p50 ${latency.p50Ms.toFixed(1)} ms, ` +
        `p99 ${latency.p99Ms.toFixed(1)} ms over ${latency.count}${latency.capped ? ' (capped)' : ''}, ${throughput.rps.toFixed(1)} rps at concurrency ${concurrency}` +
        (cpuMsPerQuery === null ? '' : `, gateway CPU ${cpuMsPerQuery.toFixed(2)} ms per query`),
    );
  }
  const b = figures.get('batched');
  const u = figures.get('unbatched');
  if (!b || !u) throw new Error(`${query.name}: a gateway side is missing`);
  const boundMs = trips.value * options.latencyMs;
  return {
    result: {
      name: query.name,
      upstreamCalls: b.upstreamCalls,
      callsByRoute: b.callsByRoute,
      lowerBoundCalls: lower.value,
      lowerBoundReason: lower.reason,
      roundTrips: trips.value,
      roundTripsReason: trips.reason,
      p50Ms: round(b.p50Ms),
      p99Ms: round(b.p99Ms),
      boundMs,
      p50Ratio: ratioToBound(b.p50Ms, boundMs),
      p99Ratio: ratioToBound(b.p99Ms, boundMs),
      iterations: b.iterations,
      rps: round(b.rps, 1),
      cpuMsPerQuery: b.cpuMsPerQuery,
      unbatched: {
        upstreamCalls: u.upstreamCalls,
        callsByRoute: u.callsByRoute,
        p50Ms: round(u.p50Ms),
        rps: round(u.rps, 1),
        cpuMsPerQuery: u.cpuMsPerQuery,
        iterations: u.iterations,
        concurrency: u.concurrency,
      },
    },
  };
}
