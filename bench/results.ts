/**
 * The shape of bench/results.json (fields fixed by issue #5; later issues add fields, never rename
 * or drop one) and the machine description.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';

export interface UnbatchedResult {
  upstreamCalls: number;
  p50Ms: number;
  rps: number;
  /** Gateway CPU ms per completed request of the throughput phase (null in-process). */
  cpuMsPerQuery: number | null;
}

export interface QueryResult {
  name: string;
  /** Upstream calls of one execution, from the sandbox's call log. */
  upstreamCalls: number;
  /** The same calls by route (`GET /rest/v1/networks/{networkId}/endpoints`: n), to see where they go. */
  callsByRoute: Record<string, number>;
  /** Fewest calls the REST interfaces allow for this query over this data. */
  lowerBoundCalls: number;
  lowerBoundReason: string;
  /** Calls that must happen one after another. */
  roundTrips: number;
  roundTripsReason: string;
  p50Ms: number;
  p99Ms: number;
  /** roundTrips × per-call latency: no gateway can answer faster. */
  boundMs: number;
  /** p50Ms / boundMs and p99Ms / boundMs (null when the per-call latency is 0). */
  p50Ratio: number | null;
  p99Ratio: number | null;
  /** Timed iterations behind p50/p99 (fewer than asked when the phase hit its time cap). */
  iterations: number;
  rps: number;
  /**
   * The gateway's own CPU time (its process's user + system, every thread) during the throughput
   * phase (per-call latency 0), per completed request, in ms. Null in-process (not separable).
   */
  cpuMsPerQuery: number | null;
  /** `iterations` and `concurrency` show where the unbatched phases were capped (see bench/README.md). */
  unbatched: UnbatchedResult & { iterations: number; concurrency: number; callsByRoute: Record<string, number> };
}

export interface PassthroughResult {
  /** rps of `network(id:) { id name }` through the gateway. */
  gatewayRps: number;
  /** rps of a plain undici GET /rest/v1/networks/{id} against the sandbox. */
  directRps: number;
  /** Gateway CPU ms per completed `network(id:) { id name }` request (one upstream call each); null in-process. */
  gatewayCpuMsPerRequest: number | null;
}

/** networkGraph (batched) at one data scale: the seed's networks × `scale`. */
export interface ScalePoint {
  scale: number;
  networks: number;
  endpoints: number;
  appWans: number;
  /** Upstream calls of one execution (call log, latency 0). */
  upstreamCalls: number;
  lowerBoundCalls: number;
  roundTrips: number;
  /** Sequential runs at the per-call latency (after warm-up); 0 when the answer was wrong. */
  iterations: number;
  p50Ms: number;
  p99Ms: number;
  boundMs: number;
  p50Ratio: number | null;
  /** Gateway CPU ms per query over the timed sequential runs (null in-process). */
  cpuMsPerQuery: number | null;
  /** Why the answer at this scale was wrong (then nothing was timed), or null. */
  error: string | null;
}

/**
 * How the scale series grew from its first scale to its last: each figure's ratio, and whether
 * each grew at most `tolerance` × as fast as the records (endpoints) did.
 */
export interface ScaleGrowth {
  fromScale: number;
  toScale: number;
  /** endpoints(to) / endpoints(from). */
  recordsRatio: number;
  callsRatio: number;
  p50Ratio: number;
  /** Null when CPU was not measured (in-process). */
  cpuRatio: number | null;
  tolerance: number;
  /** Every ratio ≤ recordsRatio × tolerance. */
  linear: boolean;
}

/** A query whose answer did not match the sandbox's data: reported, not timed. */
export interface FailedQuery {
  name: string;
  side: 'batched' | 'unbatched';
  error: string;
}

export interface BenchResults {
  date: string;
  seed: string;
  latencyMs: number;
  concurrency: number;
  durationMs: number;
  gatewayMode: string;
  /** NODE_ENV the gateway ran with (`production` in child mode; this process's own in-process). */
  nodeEnv: string | null;
  queries: QueryResult[];
  /** Queries that returned a wrong answer (the run goes on; `npm run bench` exits with 1). */
  failed: FailedQuery[];
  /** gatewayRps / directRps: the share of the upstream's own throughput the gateway keeps. */
  passthroughRatio: number | null;
  passthrough: PassthroughResult | null;
  /** Queries not measured this run, with the reason. */
  skipped: { name: string; reason: string }[];
  /** networkGraph at growing data scales (empty with --no-scale or without networkGraph). */
  scaleSeries: ScalePoint[];
  /** Growth from the first to the last scale (null with fewer than two measured scales). */
  scaleGrowth: ScaleGrowth | null;
  cpu: { model: string; cores: number };
  node: string;
  /**
   * 1-minute load average when the run started and ended. Above the core count, other work was
   * competing for the CPU and the latency and rps figures are not comparable with a quiet run.
   */
  loadAverage: { start: number; end: number };
  elapsedMs: number;
}

export function loadAverage1m(): number {
  return Math.round((loadavg()[0] ?? 0) * 100) / 100;
}

export function machineInfo(): { cpu: { model: string; cores: number }; node: string } {
  const list = cpus();
  return { cpu: { model: list[0]?.model.trim() ?? 'unknown', cores: list.length }, node: process.version };
}

export function writeResults(path: string, results: BenchResults): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(results, null, 2) + '\n');
}
