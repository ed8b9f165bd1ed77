import { parseArgs, parseDuration, UsageError, DEFAULT_OPTIONS } from '../../../bench/args';
import { runBenchmark } from '../../../bench/benchmark';
import { measureLatency, measureThroughput } from '../../../bench/load';
import { percentile, ratioToBound, summarize } from '../../../bench/stats';
import { formatTable } from '../../../bench/table';
import type { BenchResults } from '../../../bench/results';
import { readList } from '../../../bench/upstream-reader';

describe('stats', () => {
  it('takes nearest-rank percentiles of observed samples', () => {
    const samples = Array.from({ length: 100 }, (_, i) => 100 - i); // 1..100, unsorted
    const s = summarize(samples);
    expect(s.p50Ms).toBe(50);
    expect(s.p99Ms).toBe(99);
    expect(s.minMs).toBe(1);
    expect(s.maxMs).toBe(100);
    expect(s.count).toBe(100);
  });

  it('gives the single sample for every percentile of one run', () => {
    expect(summarize([7])).toMatchObject({ p50Ms: 7, p99Ms: 7 });
    expect(percentile([1, 2, 3], 50)).toBe(2);
  });

  it('has no ratio when the bound is zero', () => {
    expect(ratioToBound(25, 20)).toBe(1.25);
    expect(ratioToBound(5, 0)).toBeNull();
  });
});

describe('args', () => {
  it('defaults to the documented full run', () => {
    expect(parseArgs([])).toEqual(DEFAULT_OPTIONS);
  });

  it('reads every flag, in both --flag value and --flag=value forms', () => {
    const o = parseArgs(['--latency-ms', '0', '--seed=tiny', '--iterations', '3', '--duration', '500ms', '--only', 'a,b', '--only=c', '--out', '-', '--gateway', 'in-process', '--no-passthrough', '--concurrency', '4']);
    expect(o).toEqual({
      seed: 'tiny',
      latencyMs: 0,
      iterations: 3,
      durationMs: 500,
      concurrency: 4,
      only: ['a', 'b', 'c'],
      out: null,
      gateway: 'in-process',
      skipPassthrough: true,
    });
  });

  it('rejects unknown flags and bad values with a message naming the flag', () => {
    expect(() => parseArgs(['--bogus'])).toThrow(UsageError);
    expect(() => parseArgs(['--iterations', '0'])).toThrow(/--iterations/);
    expect(() => parseArgs(['--seed', 'huge'])).toThrow(/--seed/);
    expect(() => parseArgs(['--latency-ms'])).toThrow(/missing value/);
  });

  it('reads durations in seconds or milliseconds', () => {
    expect(parseDuration('--duration', '5')).toBe(5000);
    expect(parseDuration('--duration', '2.5s')).toBe(2500);
    expect(parseDuration('--duration', '300ms')).toBe(300);
    expect(() => parseDuration('--duration', 'soon')).toThrow(UsageError);
  });
});

describe('load', () => {
  it('runs the asked iterations sequentially after the warm-up', async () => {
    let running = 0;
    let maxRunning = 0;
    let calls = 0;
    const op = async (): Promise<void> => {
      calls++;
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 1));
      running--;
    };
    const run = await measureLatency(op, { iterations: 5, maxMs: 10_000, warmup: 2 });
    expect(run.count).toBe(5);
    expect(calls).toBe(7);
    expect(maxRunning).toBe(1);
    expect(run.capped).toBe(false);
    expect(run.p50Ms).toBeLessThanOrEqual(run.p99Ms);
  });

  it('stops at the time cap with at least one sample', async () => {
    const run = await measureLatency(() => new Promise((r) => setTimeout(r, 20)), { iterations: 1000, maxMs: 1 });
    expect(run.count).toBe(1);
    expect(run.capped).toBe(true);
  });

  it('keeps the asked number of requests in flight and counts every completion', async () => {
    let running = 0;
    let maxRunning = 0;
    const op = async (): Promise<void> => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, 5));
      running--;
    };
    const run = await measureThroughput(op, { concurrency: 8, durationMs: 50 });
    expect(maxRunning).toBe(8);
    expect(run.completed).toBeGreaterThanOrEqual(8);
    expect(run.rps).toBeCloseTo((run.completed * 1000) / run.elapsedMs, 6);
  });
});

describe('readList', () => {
  it('reads bare arrays, Spring pages and HAL pages', () => {
    expect(readList([{ id: 'a' }, { id: 'b' }], 'x')).toEqual({ items: [{ id: 'a' }, { id: 'b' }], totalPages: 1, size: 2 });
    expect(readList({ content: [{ id: 'a' }], totalPages: 3, size: 1 }, 'x')).toEqual({ items: [{ id: 'a' }], totalPages: 3, size: 1 });
    expect(
      readList({ _embedded: { networks: [{ id: 'n' }] }, page: { number: 0, size: 50, totalElements: 120, totalPages: 3 } }, 'x'),
    ).toEqual({ items: [{ id: 'n' }], totalPages: 3, size: 50 });
    expect(readList({ page: { size: 20, totalPages: 0, totalElements: 0, number: 0 } }, 'x').items).toEqual([]);
  });
});

describe('formatTable', () => {
  it('prints one aligned row per query plus the pass-through line', () => {
    const results: BenchResults = {
      date: '2026-01-01T00:00:00Z',
      seed: 'large',
      latencyMs: 10,
      concurrency: 32,
      durationMs: 5000,
      gatewayMode: 'child',
      queries: [
        {
          name: 'networkList',
          upstreamCalls: 1,
          callsByRoute: { 'GET /rest/v1/networks': 1 },
          lowerBoundCalls: 1,
          lowerBoundReason: 'r',
          roundTrips: 1,
          roundTripsReason: 'r',
          p50Ms: 12.34,
          p99Ms: 20.5,
          boundMs: 10,
          p50Ratio: 1.23,
          p99Ratio: 2.05,
          iterations: 50,
          rps: 1234.5,
          unbatched: { upstreamCalls: 1, p50Ms: 12, rps: 1200, iterations: 50, concurrency: 32, callsByRoute: { 'GET /rest/v1/networks': 1 } },
        },
      ],
      failed: [{ name: 'networkGraph', side: 'batched', error: 'endpoints: 3 ids, expected 4' }],
      passthroughRatio: 0.5,
      passthrough: { gatewayRps: 1000, directRps: 2000 },
      skipped: [{ name: 'topTalkers', reason: 'no events area' }],
      cpu: { model: 'cpu', cores: 2 },
      node: 'v20.20.0',
      loadAverage: { start: 0.5, end: 0.7 },
      elapsedMs: 1,
    };
    const lines = formatTable(results).split('\n');
    expect(lines[0]).toMatch(/^\| query +\| calls \| bound \|/);
    expect(lines[2]).toContain('| networkList |');
    expect(lines[2]).toContain('1235');
    expect(new Set(lines.slice(0, 3).map((l) => l.length)).size).toBe(1);
    expect(lines.join('\n')).toContain('ratio 0.5');
    expect(lines.join('\n')).toContain('load average 0.5 → 0.7');
    expect(lines.join('\n')).toContain('not measured: topTalkers');
    expect(lines.join('\n')).toContain('WRONG RESULT, not timed: networkGraph (batched): endpoints: 3 ids, expected 4');
  });
});

describe('runBenchmark', () => {
  it('rejects an unknown --only name before starting anything', async () => {
    const lines: string[] = [];
    await expect(runBenchmark({ ...DEFAULT_OPTIONS, only: ['nope'] }, (l) => lines.push(l))).rejects.toThrow(/--only: unknown query nope/);
    expect(lines.filter((l) => l.startsWith('sandbox:'))).toEqual([]);
  });
});
