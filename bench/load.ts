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
