/**
 * The shape of bench/results.json (its fields are fixed: new ones may be added, none is renamed
 * or dropped) and the machine description.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { isObject } from '../src/core/parse';
import { cpus, loadavg } from 'node:os';
import { dirname } from 'node:path';
import type { DashboardResult } from './dashboard';
import type { FloorKind } from './floor-kind';
import type { PhaseSummary } from './phase-clock';
import type { SubscribersResult } from './subscribers';
import type { FleetSubscribersResult } from './subscribers-fleet';
import type { DeferScenarioResult } from './defer-scenario';

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
  /** p50 of the same query at concurrency 1 with the latency phase's per-call latency (one round trip). */
  gatewayP50Ms: number;
  /** gatewayP50Ms ÷ the per-call latency (one round trip's bound); null at latency 0. */
  gatewayP50Ratio: number | null;
  /** The same load on the two floor servers (bench/floor-servers.ts); null with --no-floors. */
  floors: Record<FloorKind, PassthroughFloor> | null;
}

/** A pass-through floor server under the gateway's pass-through load. */
export interface PassthroughFloor {
  rps: number;
  /** rps ÷ the direct GET's rps (null when the direct GET completed nothing). */
  ratioToDirect: number | null;
  /** The floor process's CPU ms per completed request (null in-process). */
  cpuMsPerRequest: number | null;
  /** p50 at concurrency 1 with the latency phase's per-call latency, as `gatewayP50Ms`. */
  p50Ms: number;
  /** p50Ms ÷ the per-call latency; null at latency 0. */
  p50Ratio: number | null;
}

/**
 * networkGraph's CPU floor on this stack: sending the batched gateway's upstream calls, receiving
 * and JSON.parse-ing their bodies, and JSON.stringify of its answer (bench/graph-floor.ts).
 */
export interface NetworkGraphFloor {
  /** The calls the batched gateway made for one networkGraph (sandbox call record). */
  upstreamCalls: number;
  upstreamBytes: number;
  /** Median CPU ms of the calls' receive and parse in the raw floor child; null in-process (the sandbox shares the clock). */
  receiveAndParseCpuMs: number | null;
  /** Median CPU ms of JSON.parse of those bodies alone (already received): the parse's share of the above. */
  parseCpuMs: number;
  answerBytes: number;
  /** Median CPU ms of JSON.stringify of the gateway's answer. */
  stringifyMs: number;
  /** receiveAndParseCpuMs + stringifyMs (null in-process). */
  totalMs: number | null;
  /** Timed repetitions behind each median. */
  repetitions: number;
}

/** What the stack itself costs, beside the gateway's figures (bench/README.md "Floors"). */
export interface Floors {
  /** p50 of one sequential plain GET /rest/v1/networks/{id} at the latency phase's per-call latency. */
  directGetP50Ms: number;
  /** directGetP50Ms ÷ the per-call latency (one round trip's bound); null at latency 0. */
  directGetP50Ratio: number | null;
  directGetIterations: number;
  /** Null when --only leaves out networkGraph. */
  networkGraph: NetworkGraphFloor | null;
  /** The same CPU floor for every measured query (networkGraph's is the one above), in the order measured. */
  queries: QueryFloor[];
}

/**
 * One bench query's CPU floor, measured as networkGraph's, and its p50 floor (its calls replayed in
 * the gateway's waves, bench/wave-replay.ts); both null with the reason when its calls cannot be replayed.
 */
export interface QueryFloor {
  name: string;
  floor: NetworkGraphFloor | null;
  reason: string | null;
  /** Sequential round trips of the batched gateway's calls for one run (bench/call-waves.ts). */
  waves: number;
  /** Whether `waves` equals the query's round-trip bound (`queries[].roundTrips`); the p50 floor replays the waves either way. */
  wavesMatchBound: boolean;
  /** p50 of the replay at the latency phase's per-call latency, timed like the gateway's latency phase; null when not replayed. */
  p50Ms: number | null;
  /** p50Ms ÷ the query's bound (round trips × per-call latency), as `queries[].p50Ratio`; null when not replayed or at latency 0. */
  p50Ratio: number | null;
  /** Timed runs behind p50Ms; null when not replayed. */
  iterations: number | null;
  /** The gateway's p50 timed in alternating blocks with p50Ms's runs (bench/load.ts measurePaired); null when not replayed. */
  paired: PairedP50 | null;
}

/** The gateway beside its p50 floor, timed in turns with it, and where each server's time went. */
export interface PairedP50 {
  gatewayP50Ms: number;
  /** gatewayP50Ms ÷ the bound, as p50Ratio. */
  gatewayP50Ratio: number | null;
  gatewayIterations: number;
  /** gatewayP50Ms − the floor's p50Ms. */
  gapMs: number;
  phases: QueryPhases;
}

/** Inside each server over the paired runs (bench/phase-clock.ts); null in-process, where they cannot be told apart. */
export interface QueryPhases {
  gateway: PhaseSummary | null;
  floor: PhaseSummary | null;
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

import type { FaultScenarioResult } from './fault-scenario';

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
  /** The stack's own floors (null with --no-floors); the pass-through floors are in `passthrough.floors`. */
  floors: Floors | null;
  /** Queries not measured this run, with the reason. */
  skipped: { name: string; reason: string }[];
  /** networkGraph at growing data scales (empty with --no-scale or without networkGraph). */
  scaleSeries: ScalePoint[];
  /** Growth from the first to the last scale (null with fewer than two measured scales). */
  scaleGrowth: ScaleGrowth | null;
  /** The `dashboard` scenario (bench/dashboard.ts): upstream calls per query with and without sharing and the cache; null when not run. */
  dashboard?: DashboardResult | null;
  /** Half the rest/v1 GETs failing: calls per query and latency (bench/fault-scenario.ts); null with --no-faults. */
  faultScenario?: FaultScenarioResult | null;
  cpu: { model: string; cores: number };
  node: string;
  /**
   * 1-minute load average when the run started and ended. Above the core count, other work was
   * competing for the CPU and the latency and rps figures are not comparable with a quiet run.
   */
  loadAverage: { start: number; end: number };
  elapsedMs: number;
  /** The defer scenario's figures (`--scenario defer`, run on its own and kept across full runs); absent until it ran. */
  deferScenario?: DeferScenarioResult & { date: string };
  /** The subscribers scenario on a fleet (`--replicas R`, run on its own); absent until it ran. */
  subscribersFleet?: FleetSubscribersResult & { date: string };
  /** The subscribers scenario's figures (`--scenario subscribers`, run on its own and kept across full runs); absent until it ran. */
  subscribers?: SubscribersResult & { date: string };
  /** The subscribers scenario's run before `subscribers` (kept when a new one is written), to read before → after. */
  subscribersBefore?: SubscribersResult & { date: string };
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

/** One top-level field of an existing results file (undefined when there is none). */
export function readResultsField(path: string, key: string): unknown {
  if (!existsSync(path)) return undefined;
  try {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isObject(parsed) ? parsed[key] : undefined;
  } catch {
    return undefined;
  }
}

/** Sets one top-level field of the results file, keeping every other (a file is made when there is none). */
export function writeResultsField(path: string, key: string, value: unknown): void {
  let current: Record<string, unknown> = {};
  if (existsSync(path)) {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (isObject(parsed)) current = parsed;
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ ...current, [key]: value }, null, 2) + '\n');
}
