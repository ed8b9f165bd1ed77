/**
 * The floors that are not pass-through load (those are in passthrough.ts):
 *
 * - the upstream's own latency for one round trip: sequential plain GETs of one network at the
 *   latency phase's per-call latency, so a one-trip query's p50/bound has its floor beside it;
 * - each query's CPU floor (networkGraph's is the one the goals name): the calls the batched
 *   gateway makes for it, read from the sandbox's call record, replayed and parsed by the raw floor
 *   server's process, plus JSON.stringify of the gateway's answer (graph-floor.ts). A query with
 *   calls the floor cannot send again (the search service's: a query body, its own credentials;
 *   anything not a GET) is listed with the reason instead;
 * - each query's p50 floor: the same calls in the gateway's sequential round trips (call-waves.ts),
 *   replayed by the raw floor server's replay route (wave-replay.ts), timed from this process like
 *   the gateway's latency phase, at the same per-call latency.
 */
import { isCallerCheck, queryCalls } from './query-calls';
import type { CallTiming, RecordedRequest, RunningSandbox } from '../src/sandbox';
import type { BenchOptions } from './args';
import { callWaves, WAVE_LATENCY_MS } from './call-waves';
import { directGet } from './direct-get';
import type { UpstreamFacts } from './facts';
import { startFloorProcess, type FloorHandle } from './floor-launcher';
import type { GraphFloorMeasure } from './graph-floor';
import { createGraphQLClient, type GraphQLHttpClient } from './graphql-client';
import { latencyPhase, measureLatency, measurePaired, type LatencyRun } from './load';
import type { BenchQuery } from './queries/types';
import type { Floors, NetworkGraphFloor, QueryFloor, QueryPhases } from './results';
import type { PhaseSummary } from './phase-clock';
import type { GatewayHandle } from './gateway-launcher';
import { ratioToBound, round } from './stats';
import type { ReplayScript } from './wave-replay';

/** Timed repetitions of each part of a query's CPU floor (after an untimed one). */
export const GRAPH_FLOOR_REPETITIONS = 7;
/** Longest the direct GET latency phase may run. */
const DIRECT_LATENCY_CAP_MS = 15_000;

/** A recorded call as a request target: its path and, when it had one, its query string. */
export function requestTarget(call: Pick<RecordedRequest, 'method' | 'path' | 'query'>): string {
  if (call.method !== 'GET') throw new Error(`the gateway sent ${call.method} ${call.path}; only GETs are replayed`);
  const query = new URLSearchParams(Object.entries(call.query).flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => [name, v])));
  const search = query.toString();
  return search === '' ? call.path : `${call.path}?${search}`;
}

/** results.json's figures from one measurement; in-process the receive CPU includes the sandbox's and is left out. */
export function networkGraphFloor(upstreamCalls: number, answerBytes: number, measured: GraphFloorMeasure, inProcess: boolean): NetworkGraphFloor {
  const receive = inProcess ? null : round(measured.receiveAndParseCpuMs, 1);
  const stringifyMs = round(measured.stringifyCpuMs, 1);
  return {
    upstreamCalls,
    upstreamBytes: measured.upstreamBytes,
    receiveAndParseCpuMs: receive,
    parseCpuMs: round(measured.parseCpuMs, 1),
    answerBytes,
    stringifyMs,
    totalMs: receive === null ? null : round(receive + stringifyMs, 1),
    repetitions: GRAPH_FLOOR_REPETITIONS,
  };
}

/**
 * Why the floor cannot send these calls again as they were, or null when it can: the search
 * service's carry a query body and its own credentials; anything but a GET might change data.
 */
function notReplayable(calls: readonly RecordedRequest[], searchPath: string): string | null {
  const search = calls.find((call) => call.path === searchPath || call.path.startsWith(`${searchPath}/`));
  if (search) return `the search service's ${search.method} ${search.path} carries a query body and its own credentials; it is not replayed`;
  const change = calls.find((call) => call.method !== 'GET');
  return change ? `the gateway sent ${change.method} ${change.path}; only GETs are replayed` : null;
}

/** One run of a query through the batched gateway: its answer, its calls and their waves. */
interface RecordedRun {
  answer: string;
  calls: RecordedRequest[];
  waves: CallTiming[][];
}

/**
 * Runs the query once at WAVE_LATENCY_MS per call, so that calls sent side by side overlap and the
 * timings show its waves; the calls are the same at any latency.
 */
async function recordRun(query: BenchQuery, facts: UpstreamFacts, sandbox: RunningSandbox, client: GraphQLHttpClient): Promise<RecordedRun> {
  sandbox.control.setLatency(WAVE_LATENCY_MS);
  sandbox.control.resetCalls();
  try {
    const answer = JSON.stringify({ data: await client.execute(query.document, query.variables(facts)) });
    // The token's check may fall due during any run (CALLER_VERIFY_TTL_MS): not the query's call, not replayed.
    const calls = sandbox.control.requests().filter((call) => !isCallerCheck(call));
    const total = queryCalls(sandbox.control.calls());
    if (calls.length !== total) throw new Error(`${query.name} floor: the gateway made ${total} calls, the sandbox recorded the last ${calls.length}`);
    return { answer, calls, waves: callWaves(sandbox.control.timings().filter((timing) => !isCallerCheck(timing))) };
  } finally {
    sandbox.control.setLatency(0);
  }
}

/** Each wave's calls as request targets, matched to the recorded requests by seq. */
export function waveTargets(calls: readonly RecordedRequest[], waves: readonly (readonly Pick<CallTiming, 'seq'>[])[]): string[][] {
  const bySeq = new Map(calls.map((call) => [call.seq, call]));
  return waves.map((wave) =>
    wave.map(({ seq }) => {
      const call = bySeq.get(seq);
      if (call === undefined) throw new Error(`call ${seq} has a timing but no recorded request`);
      return requestTarget(call);
    }),
  );
}

/** The batched gateway as the floors use it: its client (to record a run and time it) and its process (its phases). */
export interface FloorGateway {
  client: GraphQLHttpClient;
  handle: Pick<GatewayHandle, 'phases'>;
}

interface PairedP50 {
  gateway: LatencyRun;
  floor: LatencyRun;
  phases: QueryPhases;
}

/**
 * The replay's p50 at the latency phase's per-call latency, after checking it answers the
 * gateway's answer, timed in alternating blocks with the gateway's own (load.ts measurePaired): the
 * same request from the same kind of client, so only what happens behind it differs, and both on
 * the machine as it is at that minute. Both servers' phase clocks are read over the same runs.
 */
async function measureP50Floor(
  floor: FloorHandle,
  gateway: FloorGateway,
  query: BenchQuery,
  facts: UpstreamFacts,
  sandbox: RunningSandbox,
  options: BenchOptions,
  script: ReplayScript,
): Promise<PairedP50> {
  await floor.setReplay(script);
  const client = createGraphQLClient(floor.replayUrl, sandbox.tokens.admin, 1);
  const variables = query.variables(facts);
  try {
    const replayed = JSON.stringify({ data: await client.execute(query.document, variables) });
    if (replayed !== script.answer) throw new Error(`${query.name} p50 floor: the replay answered ${replayed.slice(0, 200)}, not the gateway's answer`);
    sandbox.control.setLatency(options.latencyMs);
    const viaGateway = (): Promise<void> => gateway.client.executeUnchecked(query.document, variables);
    const viaFloor = (): Promise<void> => client.executeUnchecked(query.document, variables);
    const { warmup = 0, ...phase } = latencyPhase(options.iterations);
    // Warmed up here rather than in measurePaired, so the phase clocks count the timed runs only.
    for (let i = 0; i < warmup; i++) {
      await viaGateway();
      await viaFloor();
    }
    await Promise.all([gateway.handle.phases.start(), floor.phases.start()]);
    const paired = await measurePaired(viaGateway, viaFloor, { ...phase, warmup: 0 });
    const [gatewayPhases, floorPhases] = await Promise.all([gateway.handle.phases.stop(), floor.phases.stop()]);
    return { gateway: paired.a, floor: paired.b, phases: { gateway: gatewayPhases, floor: floorPhases } };
  } finally {
    sandbox.control.setLatency(0);
    await client.close();
  }
}

/** Every measured query's CPU floor and p50 floor, in one raw floor process. */
async function measureQueryFloors(
  queries: readonly BenchQuery[],
  facts: UpstreamFacts,
  sandbox: RunningSandbox,
  gateway: FloorGateway,
  options: BenchOptions,
  log: (line: string) => void,
): Promise<QueryFloor[]> {
  const floor = await startFloorProcess(options.gateway, 'raw', new URL(sandbox.baseUrl).origin);
  const searchPath = new URL(sandbox.searchUrl).pathname.replace(/\/+$/, '');
  const authorization = `Bearer ${sandbox.tokens.admin}`;
  try {
    const out: QueryFloor[] = [];
    for (const query of queries) {
      const { answer, calls, waves } = await recordRun(query, facts, sandbox, gateway.client);
      const trips = query.roundTrips(facts).value;
      const wavesFigures = { waves: waves.length, wavesMatchBound: waves.length === trips };
      if (!wavesFigures.wavesMatchBound) {
        log(`floor: ${query.name}: the gateway's calls went in ${waves.length} waves, the bound is ${trips} round trips (the p50 floor replays the gateway's waves)`);
      }
      const reason = notReplayable(calls, searchPath);
      if (reason !== null) {
        out.push({ name: query.name, floor: null, reason, ...wavesFigures, p50Ms: null, p50Ratio: null, iterations: null, paired: null });
        continue;
      }
      const measured = await floor.measureGraph({ paths: calls.map(requestTarget), authorization, answer, repetitions: GRAPH_FLOOR_REPETITIONS });
      const paired = await measureP50Floor(floor, gateway, query, facts, sandbox, options, { waves: waveTargets(calls, waves), authorization, answer });
      const latency = paired.floor;
      const boundMs = trips * options.latencyMs;
      out.push({
        name: query.name,
        floor: networkGraphFloor(calls.length, Buffer.byteLength(answer), measured, floor.mode === 'in-process'),
        reason: null,
        ...wavesFigures,
        p50Ms: round(latency.p50Ms),
        p50Ratio: ratioToBound(latency.p50Ms, boundMs),
        iterations: latency.count,
        paired: {
          gatewayP50Ms: round(paired.gateway.p50Ms),
          gatewayP50Ratio: ratioToBound(paired.gateway.p50Ms, boundMs),
          gatewayIterations: paired.gateway.count,
          gapMs: round(paired.gateway.p50Ms - latency.p50Ms),
          phases: paired.phases,
        },
      });
    }
    return out;
  } finally {
    await floor.close();
  }
}

function phaseLine({ gateway, floor }: QueryPhases): string {
  const one = (p: PhaseSummary | null): string => (p === null ? '–' : `${p.beforeMs} + ${p.upstreamMs} + ${p.afterMs} ms`);
  return gateway === null && floor === null ? '' : `; before + upstream + after the calls: gateway ${one(gateway)}, floor ${one(floor)}`;
}

export async function benchFloors(
  facts: UpstreamFacts,
  sandbox: RunningSandbox,
  batched: FloorGateway,
  options: BenchOptions,
  measured: readonly BenchQuery[],
  log: (line: string) => void,
): Promise<Floors> {
  const network = facts.networks[0];
  if (!network) throw new Error('floors: no network');
  const direct = directGet(sandbox, network.id, 1);
  sandbox.control.setLatency(options.latencyMs);
  let latency;
  try {
    latency = await measureLatency(direct.get, { iterations: options.iterations, maxMs: DIRECT_LATENCY_CAP_MS, warmup: Math.min(2, options.iterations) });
  } finally {
    sandbox.control.setLatency(0);
    await direct.close();
  }
  const directGetP50Ratio = ratioToBound(latency.p50Ms, options.latencyMs);
  log(`floor: direct GET p50 ${latency.p50Ms.toFixed(1)} ms over ${latency.count} at ${options.latencyMs} ms per call (${String(directGetP50Ratio)} of one round trip)`);

  const queries = await measureQueryFloors(measured, facts, sandbox, batched, options, log);
  for (const { name, floor, reason, waves, p50Ms, p50Ratio, iterations, paired } of queries) {
    log(`floor: ${name} ${floor === null ? `not measured (${reason ?? ''})` : `CPU ${floor.totalMs === null ? '– (in-process)' : `${floor.totalMs} ms`} per query (${floor.upstreamCalls} calls)`}`);
    if (p50Ms !== null) log(`floor: ${name} p50 ${p50Ms.toFixed(1)} ms over ${String(iterations)} at ${options.latencyMs} ms per call, ${waves} wave${waves === 1 ? '' : 's'} replayed (${String(p50Ratio)} of the bound)`);
    if (paired) log(`floor: ${name} paired with the gateway: gateway p50 ${paired.gatewayP50Ms} ms, ${paired.gapMs} ms over the floor${phaseLine(paired.phases)}`);
  }
  const graph = queries.find((q) => q.name === 'networkGraph')?.floor ?? null;
  if (graph) {
    log(
      `floor: networkGraph ${graph.upstreamCalls} calls, ${(graph.upstreamBytes / 1e6).toFixed(1)} MB received and parsed in ` +
        `${graph.receiveAndParseCpuMs === null ? '– (in-process)' : `${graph.receiveAndParseCpuMs} ms`} CPU (the parse alone ${graph.parseCpuMs} ms), ` +
        `${(graph.answerBytes / 1e6).toFixed(2)} MB answer stringified in ${graph.stringifyMs} ms: ${graph.totalMs === null ? '–' : `${graph.totalMs} ms`} per query`,
    );
  }
  return { directGetP50Ms: round(latency.p50Ms), directGetP50Ratio, directGetIterations: latency.count, networkGraph: graph, queries };
}
