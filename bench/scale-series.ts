/**
 * The networkGraph scale series: the same query (batched) over the seed at growing data scales
 * (the sandbox's `scale`: the seed's networks × N, each network of the same shape, so endpoints,
 * AppWANs and services grow × N and the network groups stay). Each scale gets its own sandbox,
 * facts and gateway; the answer is checked against that scale's facts before anything is timed.
 * Upstream calls and p50 must grow at most linearly with the records: `scaleGrowth` says whether
 * they did.
 */
import { queryCalls } from './query-calls';
import { startSandbox } from '../src/sandbox';
import type { BenchOptions } from './args';
import { readFacts } from './facts';
import { cpuPerRequest, withGatewayCpu } from './gateway-cpu';
import { benchGatewayEnv, startGatewayProcess } from './gateway-launcher';
import { createGraphQLClient } from './graphql-client';
import { measureLatency, type Operation } from './load';
import { networkGraph } from './queries/network-graph';
import type { ScaleGrowth, ScalePoint } from './results';
import { describeGrowth, scaleGrowth } from './scale-growth';
import { ratioToBound, round } from './stats';

/** Timed sequential runs per scale (fewer when --iterations asks for fewer). */
export const SCALE_ITERATIONS = 10;
/** Longest the timed runs of one scale may take (at least one run is kept). */
const SCALE_PHASE_CAP_MS = 10_000;

export interface ScaleSeries {
  series: ScalePoint[];
  growth: ScaleGrowth | null;
}

export async function runScaleSeries(options: BenchOptions, log: (line: string) => void): Promise<ScaleSeries> {
  const series: ScalePoint[] = [];
  for (const scale of options.scales) series.push(await measureScale(scale, options, log));
  const growth = scaleGrowth(series);
  if (growth) log(`scale series: ${describeGrowth(growth)}`);
  return { series, growth };
}

async function measureScale(scale: number, options: BenchOptions, log: (line: string) => void): Promise<ScalePoint> {
  const started = performance.now();
  const cleanups: (() => Promise<void>)[] = [];
  try {
    const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seed: options.seed, scale, latencyMs: 0 });
    cleanups.push(() => sandbox.close());
    const facts = await readFacts(sandbox.baseUrl, sandbox.tokens.admin);
    const gateway = await startGatewayProcess(options.gateway, benchGatewayEnv(sandbox));
    cleanups.push(() => gateway.close());
    const client = createGraphQLClient(gateway.url, sandbox.tokens.admin, 1);
    cleanups.push(() => client.close());

    const trips = networkGraph.roundTrips(facts).value;
    const boundMs = trips * options.latencyMs;
    const variables = networkGraph.variables(facts);
    const shape = {
      scale,
      networks: facts.networks.length,
      endpoints: facts.networks.reduce((s, n) => s + n.endpointIds.length, 0),
      appWans: facts.networks.reduce((s, n) => s + n.appWans.length, 0),
      lowerBoundCalls: networkGraph.lowerBoundCalls(facts).value,
      roundTrips: trips,
      boundMs,
    };
    const where = `networkGraph at scale ${scale} (${shape.networks} networks, ${shape.endpoints} endpoints)`;

    sandbox.control.resetCalls();
    let upstreamCalls: number;
    try {
      networkGraph.check(await client.execute(networkGraph.document, variables), facts);
      upstreamCalls = queryCalls(sandbox.control.calls());
    } catch (err) {
      const error = err instanceof Error ? err.message : String(err);
      log(`${where}: WRONG RESULT, not timed: ${error}`);
      return { ...shape, upstreamCalls: queryCalls(sandbox.control.calls()), iterations: 0, p50Ms: 0, p99Ms: 0, p50Ratio: null, cpuMsPerQuery: null, error };
    }

    const op: Operation = () => client.executeUnchecked(networkGraph.document, variables);
    sandbox.control.setLatency(options.latencyMs);
    // One warm-up run (after the check's) outside the CPU reading, so each scale's figure is of a warmed-up gateway.
    await op();
    const iterations = Math.min(options.iterations, SCALE_ITERATIONS);
    const { value: latency, cpuMs } = await withGatewayCpu(gateway, () => measureLatency(op, { iterations, maxMs: SCALE_PHASE_CAP_MS }));
    const cpuMsPerQuery = cpuPerRequest(cpuMs, latency.count);
    log(
      `${where}: ${upstreamCalls} calls (bound ${shape.lowerBoundCalls}), p50 ${latency.p50Ms.toFixed(1)} ms over ${latency.count}` +
        (cpuMsPerQuery === null ? '' : `, gateway CPU ${cpuMsPerQuery.toFixed(1)} ms per query`) +
        ` (${((performance.now() - started) / 1000).toFixed(1)} s)`,
    );
    return {
      ...shape,
      upstreamCalls,
      iterations: latency.count,
      p50Ms: round(latency.p50Ms),
      p99Ms: round(latency.p99Ms),
      p50Ratio: ratioToBound(latency.p50Ms, boundMs),
      cpuMsPerQuery,
      error: null,
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  }
}
