import { parseArgs, parseDuration, UsageError, DEFAULT_OPTIONS } from '../../../bench/args';
import { runBenchmark } from '../../../bench/benchmark';
import { measureLatency, measurePaired, measureThroughput, PAIR_BLOCK } from '../../../bench/load';
import { percentile, ratioToBound, summarize } from '../../../bench/stats';
import { formatTable } from '../../../bench/table';
import type { BenchResults, ScalePoint } from '../../../bench/results';
import { describeGrowth, scaleGrowth } from '../../../bench/scale-growth';
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
    const o = parseArgs(['--latency-ms', '0', '--seed=tiny', '--iterations', '3', '--duration', '500ms', '--only', 'a,b', '--only=c', '--out', '-', '--gateway', 'in-process', '--no-passthrough', '--no-floors', '--concurrency', '4', '--scales', '1,3']);
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
      skipFloors: true,
      scales: [1, 3],
      skipFaults: false,
      faultsOnly: false,
      scenario: 'queries',
      subscribers: 2000,
      perSocket: 2,
      replicas: 1,
      warm: false,
      snapshots: null,
      semiSpaceMb: null,
      churnSeconds: 0,
    });
    expect(parseArgs(['--semi-space', '64', '--snapshots=/tmp/s', '--churn', '60'])).toMatchObject({ semiSpaceMb: 64, snapshots: '/tmp/s', churnSeconds: 60 });
    expect(() => parseArgs(['--semi-space', '0'])).toThrow();
  });

  it('reads the subscribers scenario\'s sockets and replicas', () => {
    const o = parseArgs(['--scenario', 'subscribers', '--subscribers', '3000', '--per-socket=3', '--replicas', '3']);
    expect({ scenario: o.scenario, subscribers: o.subscribers, perSocket: o.perSocket, replicas: o.replicas }).toEqual({ scenario: 'subscribers', subscribers: 3000, perSocket: 3, replicas: 3 });
    expect(() => parseArgs(['--replicas', '0'])).toThrow(/--replicas/);
    // A warmed gateway's baseline only when asked.
    expect(parseArgs(['--scenario', 'subscribers', '--warm']).warm).toBe(true);
  });

  it('runs the scale series at 1x, 2x and 4x unless --no-scale', () => {
    expect(parseArgs([]).scales).toEqual([1, 2, 4]);
    expect(parseArgs(['--no-scale']).scales).toEqual([]);
    expect(() => parseArgs(['--scales', '2,1'])).toThrow(/--scales: expected increasing/);
    expect(() => parseArgs(['--scales', '1,x'])).toThrow(/--scales/);
    // The defaults object is not shared with a parsed one.
    parseArgs([]).scales.push(8);
    expect(DEFAULT_OPTIONS.scales).toEqual([1, 2, 4]);
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

  it('times two operations in alternating blocks, one at a time, each to its iterations', async () => {
    const order: string[] = [];
    let running = 0;
    let maxRunning = 0;
    const op = (name: string, ms: number) => async (): Promise<void> => {
      order.push(name);
      running++;
      maxRunning = Math.max(maxRunning, running);
      await new Promise((r) => setTimeout(r, ms));
      running--;
    };
    const run = await measurePaired(op('a', 1), op('b', 8), { iterations: 12, maxMs: 10_000, warmup: 1 });
    expect(maxRunning).toBe(1);
    expect([run.a.count, run.b.count]).toEqual([12, 12]);
    // Warm-up a, b; then blocks of PAIR_BLOCK: a×5, b×5, a×5, b×5, a×2, b×2.
    const blocks = order.slice(2).join('').match(/a+|b+/g) ?? [];
    expect(blocks.map((b) => b.length)).toEqual([PAIR_BLOCK, PAIR_BLOCK, PAIR_BLOCK, PAIR_BLOCK, 2, 2]);
    expect(blocks[0]).toMatch(/^a/);
    // Each side's figures are its own: b sleeps 8 ms, so its samples (not a's 1 ms ones) are at
    // least that (a lower bound: a loaded machine only makes them longer).
    expect(run.b.p50Ms).toBeGreaterThanOrEqual(7.5);
  });

  it('stops a pair at the time cap once both sides have a sample', async () => {
    const run = await measurePaired(() => new Promise((r) => setTimeout(r, 5)), () => new Promise((r) => setTimeout(r, 5)), { iterations: 1000, maxMs: 1 });
    expect([run.a.count, run.b.count]).toEqual([PAIR_BLOCK, PAIR_BLOCK]);
    expect(run.a.capped && run.b.capped).toBe(true);
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
      nodeEnv: 'production',
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
          cpuMsPerQuery: 0.712,
          unbatched: { upstreamCalls: 1, p50Ms: 12, rps: 1200, iterations: 50, concurrency: 32, callsByRoute: { 'GET /rest/v1/networks': 1 }, cpuMsPerQuery: 12.5 },
        },
      ],
      failed: [{ name: 'networkGraph', side: 'batched', error: 'endpoints: 3 ids, expected 4' }],
      passthroughRatio: 0.5,
      passthrough: {
        gatewayRps: 1000,
        directRps: 2000,
        gatewayCpuMsPerRequest: 0.6543,
        gatewayP50Ms: 13.1,
        gatewayP50Ratio: 1.31,
        floors: {
          raw: { rps: 1800, ratioToDirect: 0.9, cpuMsPerRequest: 0.241, p50Ms: 11.5, p50Ratio: 1.15 },
          apollo: { rps: 1400, ratioToDirect: 0.7, cpuMsPerRequest: 0.43, p50Ms: 12.2, p50Ratio: 1.22 },
        },
      },
      floors: {
        directGetP50Ms: 11.9,
        directGetP50Ratio: 1.19,
        directGetIterations: 50,
        networkGraph: { upstreamCalls: 190, upstreamBytes: 9_000_000, receiveAndParseCpuMs: 73.2, parseCpuMs: 50.4, answerBytes: 1_400_000, stringifyMs: 11.1, totalMs: 84.3, repetitions: 7 },
        queries: [
          { name: 'networkList', floor: { upstreamCalls: 1, upstreamBytes: 12_000, receiveAndParseCpuMs: 0.31, parseCpuMs: 0.05, answerBytes: 900, stringifyMs: 0.01, totalMs: 0.32, repetitions: 7 }, reason: null, waves: 1, wavesMatchBound: true, p50Ms: 11.44, p50Ratio: 1.14, iterations: 50,
            paired: {
              gatewayP50Ms: 11.87, gatewayP50Ratio: 1.19, gatewayIterations: 50, gapMs: 0.43,
              phases: { gateway: { requests: 50, beforeMs: 0.31, upstreamMs: 10.9, afterMs: 0.52, totalMs: 11.7 }, floor: { requests: 50, beforeMs: 0.18, upstreamMs: 10.91, afterMs: 0.47, totalMs: 11.6 } },
            },
          },
          { name: 'topTalkers', floor: null, reason: 'the gateway sent POST /search/events/_search; only GETs are replayed', waves: 3, wavesMatchBound: false, p50Ms: null, p50Ratio: null, iterations: null, paired: null },
        ],
      },
      skipped: [{ name: 'topTalkers', reason: 'no events area' }],
      scaleSeries: [point(1, 2400, 183, 500, 450), point(2, 4800, 364, 950, 900)],
      scaleGrowth: null,
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
    // CPU columns, the pass-through CPU line and NODE_ENV.
    expect(lines[0]).toMatch(/\| +rps \| CPU ms \| unb\. calls \|.*\| unb\. CPU ms \|$/);
    expect(lines[2]).toMatch(/\| +0\.71 \|/);
    expect(lines[2]).toMatch(/\| +12\.5 \|$/);
    expect(lines.join('\n')).toContain('gateway CPU 0.654 ms per one-call request');
    expect(lines.join('\n')).toContain('NODE_ENV production');
    // The scale series: its own aligned table and the growth line.
    const header = lines.findIndex((l) => l.startsWith('| scale'));
    expect(header).toBeGreaterThan(2);
    expect(lines[header + 2]).toMatch(/^\| 1x +\| +6 \| +2400 \| +183 \|/);
    expect(lines[header + 3]).toMatch(/^\| 2x /);
    expect(new Set(lines.slice(header, header + 4).map((l) => l.length)).size).toBe(1);
    expect(lines.join('\n')).toContain('growth: not measured');
    // The floors: gateway, both floor servers and the direct GET in one aligned table, then the two floor lines.
    const floors = lines.findIndex((l) => l.startsWith('| pass-through (same load)'));
    expect(floors).toBeGreaterThan(2);
    expect(lines.slice(floors + 2, floors + 6)).toEqual([
      expect.stringMatching(/^\| gateway +\| +1000 \| +0\.50 \| +0\.654 \| +13\.1 \| +1\.31 \|$/),
      expect.stringMatching(/^\| floor: node:http \+ undici +\| +1800 \| +0\.90 \| +0\.241 \| +11\.5 \| +1\.15 \|$/),
      expect.stringMatching(/^\| floor: Apollo Server 5 +\| +1400 \| +0\.70 \| +0\.430 \| +12\.2 \| +1\.22 \|$/),
      expect.stringMatching(/^\| direct GET \(no gateway\) +\| +2000 \| +1\.00 \| +– \| +11\.9 \| +1\.19 \|$/),
    ]);
    expect(new Set(lines.slice(floors, floors + 6).map((l) => l.length)).size).toBe(1);
    expect(lines.join('\n')).toContain('floor: direct GET p50 11.9 ms at 10 ms per call = 1.19 × one round trip');
    // Each query's CPU floor beside the gateway's CPU; a query that cannot be replayed says why.
    const perQuery = lines.findIndex((l) => l.startsWith('| CPU floor per query'));
    expect(lines.slice(perQuery + 2, perQuery + 4)).toEqual([
      expect.stringMatching(/^\| networkList +\| +1 \| +12 \| +1 \| +0\.32 \| +0\.71 \|$/),
      expect.stringMatching(/^\| topTalkers +\| +– \| +– \| +– \| not replayed \| +– \|$/),
    ]);
    expect(lines).toContain('topTalkers: not replayed (the gateway sent POST /search/events/_search; only GETs are replayed)');
    // Each query's p50 floor beside the gateway's p50 timed in turns with it (not the latency phase's 12.3), with the gap;
    // waves that differ from the trips are named; a query without a replay falls back to its latency phase.
    const p50 = lines.findIndex((l) => l.startsWith('| p50 floor per query'));
    expect(lines.slice(p50 + 2, p50 + 4)).toEqual([
      expect.stringMatching(/^\| networkList +\| +1 \| +1 \| +10 \| +11\.9 \| +1\.19 \| +11\.4 \| +1\.14 \| +0\.43 \|$/),
      expect.stringMatching(/^\| topTalkers +\| +– \| +3 \| +– \| +– \| +– \| not replayed \| +– \| +– \|$/),
    ]);
    expect(new Set(lines.slice(p50, p50 + 4).map((l) => l.length)).size).toBe(1);
    expect(lines).toContain("waves ≠ trips (the gateway's calls in more or fewer round trips than the bound): topTalkers");
    // Where each server's time went, a row per paired query.
    const phases = lines.findIndex((l) => l.startsWith('| inside each server'));
    expect(lines[phases + 2]).toMatch(/^\| networkList +\| +0\.31 \| +10\.90 \| +0\.52 \| +0\.18 \| +10\.91 \| +0\.47 \|$/);
    expect(lines[phases + 3]).toMatch(/^before: request in/);
    expect(lines.join('\n')).toContain(
      "floor: networkGraph CPU 84.3 ms per query = 190 calls' 9.0 MB received and parsed (73.2 ms, of which JSON.parse 50.4) + 1.40 MB answer stringified (11.1 ms); gateway – ms (rps phase)",
    );
  });

  it('prints no CPU figure in-process and no scale section without a series', () => {
    const results = formatTable({
      date: 'd', seed: 'tiny', latencyMs: 0, concurrency: 4, durationMs: 150, gatewayMode: 'in-process', nodeEnv: null,
      queries: [], failed: [], passthroughRatio: 0.5, passthrough: { gatewayRps: 1, directRps: 2, gatewayCpuMsPerRequest: null, gatewayP50Ms: 1, gatewayP50Ratio: null, floors: null }, floors: null,
      skipped: [], scaleSeries: [], scaleGrowth: null, cpu: { model: 'cpu', cores: 2 }, node: 'v20', loadAverage: { start: 0, end: 0 }, elapsedMs: 1,
    });
    expect(results).toContain('gateway CPU – (in-process) per one-call request');
    expect(results).toContain('NODE_ENV unset');
    expect(results).not.toContain('| scale');
    expect(results).not.toContain('floor');
  });
});

function point(scale: number, endpoints: number, upstreamCalls: number, p50Ms: number, cpuMsPerQuery: number | null): ScalePoint {
  return {
    scale, networks: 6 * scale, endpoints, appWans: 48 * scale, upstreamCalls, lowerBoundCalls: upstreamCalls - 11, roundTrips: 3,
    iterations: 10, p50Ms, p99Ms: p50Ms * 1.2, boundMs: 30, p50Ratio: p50Ms / 30, cpuMsPerQuery, error: null,
  };
}

describe('scaleGrowth', () => {
  it('compares the first and the last answered scale against the records\' growth', () => {
    const g = scaleGrowth([point(1, 2400, 183, 500, 450), point(2, 4800, 364, 950, 900), point(4, 9600, 726, 1900, 1850)]);
    expect(g).toEqual({ fromScale: 1, toScale: 4, recordsRatio: 4, callsRatio: 3.97, p50Ratio: 3.8, cpuRatio: 4.11, tolerance: 1.25, linear: true });
    expect(describeGrowth(g ?? fail())).toBe('scale 1 → 4 (records ×4): calls ×3.97, p50 ×3.8, CPU ×4.11; linear (each within 1.25 × the records\' growth: yes)');
  });

  it('says NOT linear when one figure grows faster than the records beyond the tolerance', () => {
    const g = scaleGrowth([point(1, 2400, 183, 500, null), point(4, 9600, 726, 2600, null)]);
    expect(g).toMatchObject({ p50Ratio: 5.2, cpuRatio: null, linear: false });
    expect(describeGrowth(g ?? fail())).toContain('NOT linear');
  });

  it('leaves out wrong scales, and has no growth with fewer than two answered scales', () => {
    const wrong = { ...point(4, 9600, 726, 0, null), error: 'endpoints: 3 ids, expected 4' };
    expect(scaleGrowth([point(1, 2400, 183, 500, 1), wrong])).toBeNull();
    expect(scaleGrowth([point(1, 2400, 183, 500, 1)])).toBeNull();
    expect(scaleGrowth([])).toBeNull();
  });
});

function fail(): never {
  throw new Error('expected a growth');
}

describe('runBenchmark', () => {
  it('rejects an unknown --only name before starting anything', async () => {
    const lines: string[] = [];
    await expect(runBenchmark({ ...DEFAULT_OPTIONS, only: ['nope'] }, (l) => lines.push(l))).rejects.toThrow(/--only: unknown query nope/);
    expect(lines.filter((l) => l.startsWith('sandbox:'))).toEqual([]);
  });
});
