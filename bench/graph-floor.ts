/**
 * networkGraph's CPU floor, measured in a floor child: the work no gateway on this stack can skip
 * for that query — send the very GETs the batched gateway sent (64 at a time, as its limiter
 * allows), receive each body and parse it as the gateway does (its text, JSON.parse), then JSON.stringify the answer it gave. Each part
 * is read on this process's CPU clock (user + system, every thread) over several repetitions after
 * an untimed one; the figure is the median.
 */
import { isObject } from '../src/core/parse';
import type { FloorUpstream } from './floor-servers';
import { median } from './stats';

export interface GraphFloorRequest {
  /** Path and query of each upstream call the gateway made, in order. */
  paths: string[];
  authorization: string;
  /** The gateway's answer, as JSON text. */
  answer: string;
  /** Timed repetitions (after one untimed). */
  repetitions: number;
}

export interface GraphFloorMeasure {
  /** Bytes of the upstream bodies of one repetition. */
  upstreamBytes: number;
  /** Median CPU ms of sending the calls, receiving and parsing their bodies. */
  receiveAndParseCpuMs: number;
  /** Median CPU ms of parsing the same bodies alone (already received): the parse's share of the above. */
  parseCpuMs: number;
  /** Median CPU ms of JSON.stringify of the answer. */
  stringifyCpuMs: number;
}

/** The gateway's own limit of upstream calls in flight per request (UPSTREAM_MAX_CONCURRENCY's default). */
const IN_FLIGHT = 64;

/** A list of strings (request targets, in the floors' IPC messages). */
export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((item) => typeof item === 'string');
}

export function readGraphFloorRequest(value: unknown): GraphFloorRequest {
  if (!isObject(value)) throw new Error('network-graph-floor: expected an object');
  const { paths, authorization, answer, repetitions } = value;
  if (!isStringList(paths)) throw new Error('network-graph-floor: paths must be strings');
  if (typeof authorization !== 'string' || typeof answer !== 'string') throw new Error('network-graph-floor: authorization and answer must be strings');
  if (typeof repetitions !== 'number' || !Number.isInteger(repetitions) || repetitions < 1) throw new Error('network-graph-floor: repetitions must be a whole number ≥ 1');
  return { paths, authorization, answer, repetitions };
}

export function readGraphFloorMeasure(value: unknown): GraphFloorMeasure {
  if (!isObject(value)) throw new Error('network-graph-floor answer: expected an object');
  const { upstreamBytes, receiveAndParseCpuMs, parseCpuMs, stringifyCpuMs } = value;
  if (typeof upstreamBytes !== 'number' || typeof receiveAndParseCpuMs !== 'number' || typeof parseCpuMs !== 'number' || typeof stringifyCpuMs !== 'number') {
    throw new Error(`network-graph-floor answer: expected four numbers, got ${JSON.stringify(value)}`);
  }
  return { upstreamBytes, receiveAndParseCpuMs, parseCpuMs, stringifyCpuMs };
}

function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Median CPU ms of `work` over `repetitions` runs (the caller has warmed it up). */
async function medianCpu(repetitions: number, work: () => Promise<void> | void): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < repetitions; i++) {
    const before = cpuMs();
    await work();
    samples.push(cpuMs() - before);
  }
  return median(samples);
}

/** Every path GET-ed and its body parsed, IN_FLIGHT at a time; `onBody` sees each body's bytes. Also each wave of the p50 floor's replay (wave-replay.ts). */
export async function receiveAll(upstream: FloorUpstream, paths: readonly string[], authorization: string, onBody: (body: string) => void = () => undefined): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const path = paths[next++] ?? '';
      const body = await upstream.getBody(path, authorization);
      JSON.parse(body);
      onBody(body);
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, paths.length) }, worker));
}

export async function measureGraphFloor(upstream: FloorUpstream, request: GraphFloorRequest): Promise<GraphFloorMeasure> {
  // The untimed first run warms up the connections and the JIT, and keeps the bodies to count and parse alone.
  const bodies: string[] = [];
  await receiveAll(upstream, request.paths, request.authorization, (body) => bodies.push(body));
  const upstreamBytes = bodies.reduce((sum, body) => sum + Buffer.byteLength(body), 0);
  const receiveAndParseCpuMs = await medianCpu(request.repetitions, () => receiveAll(upstream, request.paths, request.authorization));
  const parseCpuMs = await medianCpu(request.repetitions, () => bodies.forEach((body) => JSON.parse(body)));
  const answer: unknown = JSON.parse(request.answer);
  JSON.stringify(answer);
  const stringifyCpuMs = await medianCpu(request.repetitions, () => void JSON.stringify(answer));
  return { upstreamBytes, receiveAndParseCpuMs, parseCpuMs, stringifyCpuMs };
}
