/**
 * The two load shapes of the benchmark: sequential iterations for latency (concurrency 1) and a
 * fixed-duration closed loop of N workers for throughput.
 */
import { summarize, type LatencySummary } from './stats';

export type Operation = () => Promise<void>;

export interface LatencyOptions {
  /** Iterations to time (after warm-up). */
  iterations: number;
  /** Stop early when this much time has been spent, keeping at least one sample. */
  maxMs: number;
  /** Untimed runs first, so JIT and connection set-up do not land in the samples. */
  warmup?: number;
}

/** Longest a latency phase may run; queries with unbatchedCaps use theirs for the unbatched one. */
export const LATENCY_PHASE_CAP_MS = 15_000;

/** A query's latency phase: `iterations` timed runs after 2 untimed ones, LATENCY_PHASE_CAP_MS at most (the gateway's, and its p50 floor's). */
export function latencyPhase(iterations: number): LatencyOptions {
  return { iterations, maxMs: LATENCY_PHASE_CAP_MS, warmup: Math.min(2, iterations) };
}

export interface LatencyRun extends LatencySummary {
  /** True when maxMs cut the run short of `iterations`. */
  capped: boolean;
}

export async function measureLatency(op: Operation, options: LatencyOptions): Promise<LatencyRun> {
  for (let i = 0; i < (options.warmup ?? 0); i++) await op();
  const samples: number[] = [];
  const started = performance.now();
  while (samples.length < Math.max(1, options.iterations)) {
    const t0 = performance.now();
    await op();
    samples.push(performance.now() - t0);
    if (performance.now() - started >= options.maxMs) break;
  }
  return { ...summarize(samples), capped: samples.length < options.iterations };
}

/** Runs of one side before the paired phase turns to the other. */
export const PAIR_BLOCK = 5;

/**
 * Two operations timed in alternating blocks of PAIR_BLOCK runs (after their warm-ups), each until
 * it has `iterations` samples or the pair has spent `maxMs` between them: both see the machine in
 * the same state, so the difference of their p50s is theirs, not this machine's drift (its speed
 * moved 2–3× within minutes here).
 */
export async function measurePaired(a: Operation, b: Operation, options: LatencyOptions): Promise<{ a: LatencyRun; b: LatencyRun }> {
  for (let i = 0; i < (options.warmup ?? 0); i++) {
    await a();
    await b();
  }
  const samples: [number[], number[]] = [[], []];
  const started = performance.now();
  const target = Math.max(1, options.iterations);
  let turn: 0 | 1 = 0;
  while (samples[0].length < target || samples[1].length < target) {
    const op = turn === 0 ? a : b;
    const into = samples[turn];
    for (let i = 0; i < PAIR_BLOCK && into.length < target; i++) {
      const t0 = performance.now();
      await op();
      into.push(performance.now() - t0);
    }
    turn = turn === 0 ? 1 : 0;
    if (performance.now() - started >= options.maxMs && samples[0].length > 0 && samples[1].length > 0) break;
  }
  const run = (s: number[]): LatencyRun => ({ ...summarize(s), capped: s.length < options.iterations });
  return { a: run(samples[0]), b: run(samples[1]) };
}

export interface ThroughputOptions {
  concurrency: number;
  durationMs: number;
}

export interface ThroughputRun {
  completed: number;
  /** Wall time from the first start to the last completion, including the drain of requests still in flight at the deadline. */
  elapsedMs: number;
  rps: number;
}

/**
 * Each worker starts its next request when the previous one ends, until the deadline. Requests in
 * flight at the deadline are awaited and counted, and their time is counted too, so a query
 * slower than the duration still gives an honest (low) figure rather than zero.
 */
export async function measureThroughput(op: Operation, options: ThroughputOptions): Promise<ThroughputRun> {
  const started = performance.now();
  const deadline = started + options.durationMs;
  let completed = 0;
  const worker = async (): Promise<void> => {
    do {
      await op();
      completed++;
    } while (performance.now() < deadline);
  };
  await Promise.all(Array.from({ length: Math.max(1, options.concurrency) }, worker));
  const elapsedMs = performance.now() - started;
  return { completed, elapsedMs, rps: (completed * 1000) / elapsedMs };
}
