import { main } from '../../bench/run';
import type { BenchResults } from '../../bench/results';
import { readFacts, type UpstreamFacts } from '../../bench/facts';
import { BENCH_QUERIES } from '../../bench/queries';
import { UpstreamReader } from '../../bench/upstream-reader';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';

describe('bench facts over the tiny sandbox', () => {
  let sandbox: RunningSandbox;
  let facts: UpstreamFacts;

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, seed: 'tiny' });
    facts = await readFacts(sandbox.baseUrl, sandbox.tokens.admin);
  });
  afterAll(() => sandbox.close());

  it('reads every network with its endpoints and AppWAN memberships', () => {
    expect(facts.groupIds.length).toBeGreaterThan(0);
    expect(facts.networks.length).toBeGreaterThan(0);
    for (const n of facts.networks) {
      expect(n.endpointIds.length).toBeGreaterThan(0);
      for (const a of n.appWans) for (const e of a.endpointIds) expect(n.endpointIds).toContain(e);
    }
    expect(facts.sampleEndpoint?.appWanIds.length).toBeGreaterThan(0);
  });

  it('derives AppWAN reach (direct and through endpoint groups) that matches each endpoint\'s own AppWAN list', async () => {
    const reader = new UpstreamReader(sandbox.baseUrl, sandbox.tokens.admin);
    for (const n of facts.networks) {
      for (const endpointId of n.endpointIds) {
        const own = await reader.list(`/rest/v1/networks/${n.id}/endpoints/${endpointId}/appWans`);
        const expected = n.appWans.filter((a) => a.endpointIds.includes(endpointId)).map((a) => a.id);
        expect({ endpointId, appWans: own.items.map((a) => a['id']).sort() }).toEqual({ endpointId, appWans: expected.sort() });
      }
    }
  });

  it('gives every query a positive lower bound and round-trip count', () => {
    for (const q of BENCH_QUERIES) {
      if (q.unavailable(facts) !== null) continue;
      expect(q.lowerBoundCalls(facts).value).toBeGreaterThan(0);
      expect(q.roundTrips(facts).value).toBeGreaterThan(0);
      expect(q.roundTrips(facts).value).toBeLessThanOrEqual(q.lowerBoundCalls(facts).value);
    }
  });
});

describe('bench smoke run (tiny data, latency 0, one iteration, scale series 1x/2x/4x)', () => {
  let results: BenchResults;
  let table = '';
  const lines: string[] = [];

  beforeAll(async () => {
    results = await main(
      ['--seed', 'tiny', '--latency-ms', '0', '--iterations', '1', '--duration', '150ms', '--concurrency', '4', '--gateway', 'in-process', '--out', '-'],
      { log: (line) => lines.push(line), print: (text) => (table = text) },
    );
  }, 120_000);

  it('measures every query that answered correctly, with sane values in every field', () => {
    const names = results.queries.map((q) => q.name);
    expect(names).toEqual(expect.arrayContaining(['endpointDetail', 'networkList', 'authTree', 'networkMap', 'topTalkers', 'v2Reach']));
    for (const q of results.queries) {
      const where = `${q.name}: ${JSON.stringify(q)}`;
      expect({ where, ok: q.lowerBoundCalls > 0 }).toEqual({ where, ok: true });
      expect({ where, ok: q.upstreamCalls >= q.lowerBoundCalls }).toEqual({ where, ok: true });
      expect({ where, ok: q.roundTrips > 0 && q.roundTrips <= q.lowerBoundCalls }).toEqual({ where, ok: true });
      expect({ where, ok: q.p50Ms > 0 && q.p50Ms <= q.p99Ms }).toEqual({ where, ok: true });
      expect({ where, ok: q.rps > 0 && q.unbatched.rps > 0 && q.unbatched.p50Ms > 0 }).toEqual({ where, ok: true });
      expect({ where, ok: q.unbatched.upstreamCalls >= q.lowerBoundCalls }).toEqual({ where, ok: true });
      // The per-route counts add up to the total.
      expect(Object.values(q.callsByRoute).reduce((a, b) => a + b, 0)).toBe(q.upstreamCalls);
      expect(Object.values(q.unbatched.callsByRoute).reduce((a, b) => a + b, 0)).toBe(q.unbatched.upstreamCalls);
      expect(q.boundMs).toBe(0); // latency 0: no bound, no ratio
      expect(q.p50Ratio).toBeNull();
      expect(q.lowerBoundReason).not.toBe('');
      expect(q.roundTripsReason).not.toBe('');
      // In-process, the gateway's CPU cannot be told from the load generator's: no figure rather than a wrong one.
      expect(q.cpuMsPerQuery).toBeNull();
      expect(q.unbatched.cpuMsPerQuery).toBeNull();
    }
    // Every query is either measured or reported wrong: none is silently dropped.
    expect([...names, ...results.failed.map((f) => f.name)].sort()).toEqual(['authTree', 'endpointDetail', 'networkGraph', 'networkList', 'networkMap', 'topTalkers', 'v2Reach']);
  });

  it('reports the pass-through baseline, the machine and the table', () => {
    expect(results.passthrough?.gatewayRps).toBeGreaterThan(0);
    expect(results.passthrough?.directRps).toBeGreaterThan(0);
    expect(results.passthroughRatio).toBeGreaterThan(0);
    expect(results.passthrough?.gatewayCpuMsPerRequest).toBeNull();
    expect(results.nodeEnv).toBe(process.env['NODE_ENV'] ?? null);
    expect(results.cpu.cores).toBeGreaterThan(0);
    expect(results.cpu.model).not.toBe('');
    expect(results.node).toBe(process.version);
    expect(results.gatewayMode).toBe('in-process');
    expect(results.loadAverage.start).toBeGreaterThanOrEqual(0);
    expect(results.skipped).toEqual([]);
    expect(table).toContain('| endpointDetail');
    expect(lines.some((l) => l.startsWith('sandbox:'))).toBe(true);
  });

  it('measures the floors beside the gateway: both pass-through floor servers, the direct GET\'s p50, each query\'s CPU and p50 floors', () => {
    for (const kind of ['raw', 'apollo'] as const) {
      const floor = results.passthrough?.floors?.[kind];
      expect({ kind, ok: (floor?.rps ?? 0) > 0 && (floor?.ratioToDirect ?? 0) > 0 }).toEqual({ kind, ok: true });
      // In-process, like the gateway's, the floor's CPU cannot be told apart.
      expect(floor?.cpuMsPerRequest).toBeNull();
    }
    const floors = results.floors;
    expect(floors?.directGetP50Ms).toBeGreaterThan(0);
    expect(floors?.directGetP50Ratio).toBeNull(); // latency 0: no round-trip bound
    expect(floors?.directGetIterations).toBe(1);
    const graph = floors?.networkGraph;
    // The calls replayed are the batched gateway's own: as many as the networkGraph row counts (whether or not its answer was right).
    const row = results.queries.find((q) => q.name === 'networkGraph');
    if (row) expect(graph?.upstreamCalls).toBe(row.upstreamCalls);
    expect(graph?.upstreamCalls).toBe(results.scaleSeries[0]?.upstreamCalls);
    expect(graph?.upstreamBytes).toBeGreaterThan(0);
    expect(graph?.answerBytes).toBeGreaterThan(0);
    expect(graph?.stringifyMs).toBeGreaterThanOrEqual(0);
    expect(graph?.parseCpuMs).toBeGreaterThanOrEqual(0);
    expect(graph).toMatchObject({ receiveAndParseCpuMs: null, totalMs: null });
    // Every query that ran has its floor (the same measure), or the reason it cannot be replayed: only the search service's calls.
    const ran = [...results.queries.map((q) => q.name), ...results.failed.map((f) => f.name)];
    expect(new Set(floors?.queries.map((q) => q.name))).toEqual(new Set(ran));
    for (const q of floors?.queries ?? []) {
      expect({ name: q.name, replayed: q.floor !== null }).toEqual({ name: q.name, replayed: q.name !== 'topTalkers' });
      if (q.floor) expect(q.floor.upstreamCalls).toBe(results.queries.find((r) => r.name === q.name)?.upstreamCalls ?? q.floor.upstreamCalls);
      // Its p50 floor: the replay timed like the gateway's latency phase (one run here, latency 0: no bound), or nothing with the reason.
      const p50 = q.floor ? { timed: true, iterations: 1 } : { timed: false, iterations: null };
      expect({ name: q.name, timed: q.p50Ms !== null && q.p50Ms > 0, iterations: q.iterations, ratio: q.p50Ratio }).toEqual({ name: q.name, ...p50, ratio: null });
      // The gateway timed in turns with it: as many runs, the gap their difference; in-process, no phases.
      if (q.floor) {
        expect(q.paired).toMatchObject({ gatewayIterations: 1, gatewayP50Ratio: null, phases: { gateway: null, floor: null } });
        expect(q.paired?.gapMs).toBeCloseTo((q.paired?.gatewayP50Ms ?? NaN) - (q.p50Ms ?? NaN), 1);
      } else expect(q.paired).toBeNull();
      expect(q.waves).toBeGreaterThan(0);
    }
    expect(floors?.queries.find((q) => q.name === 'networkGraph')?.floor).toEqual(graph);
    expect(table).toContain('| CPU floor per query');
    expect(table).toContain('| p50 floor per query');
    expect(table).toContain('| floor: node:http + undici');
    expect(table).toContain('floor: networkGraph CPU – (in-process) per query');
  });

  it('runs networkGraph at 1x, 2x and 4x the data, checked at each scale, with calls growing with the records', () => {
    expect(results.scaleSeries.map((p) => p.scale)).toEqual([1, 2, 4]);
    const [one, two, four] = results.scaleSeries;
    if (!one || !two || !four) throw new Error('scale series incomplete');
    for (const p of results.scaleSeries) {
      const where = JSON.stringify(p);
      expect({ where, error: p.error }).toEqual({ where, error: null });
      expect({ where, ok: p.networks === one.networks * p.scale && p.endpoints === one.endpoints * p.scale && p.appWans === one.appWans * p.scale }).toEqual({ where, ok: true });
      expect({ where, ok: p.upstreamCalls >= p.lowerBoundCalls && p.iterations === 1 && p.p50Ms > 0 && p.cpuMsPerQuery === null }).toEqual({ where, ok: true });
    }
    // The 1x point is the main run's data: the same calls as the networkGraph row.
    const graph = results.queries.find((q) => q.name === 'networkGraph');
    if (graph) expect(one.upstreamCalls).toBe(graph.upstreamCalls);
    expect(two.upstreamCalls).toBeGreaterThan(one.upstreamCalls);
    expect(four.upstreamCalls).toBeGreaterThan(two.upstreamCalls);
    expect(results.scaleGrowth).toMatchObject({ fromScale: 1, toScale: 4, recordsRatio: 4, cpuRatio: null });
    expect(results.scaleGrowth?.callsRatio).toBeLessThanOrEqual(4);
    expect(table).toMatch(/^\| 4x +\| +8 \|/m);
    expect(table).toContain('growth: scale 1 → 4 (records ×4)');
  });

  // KNOWN BUG (gateway, src/upstream/network): with batching on, Endpoint.appWans is answered from
  // the AppWANs' direct member lists only, while the sandbox (and the unbatched per-endpoint plan)
  // also count endpoints reached through an AppWAN's endpoint groups, so the batched networkGraph
  // misses AppWANs and the bench reports it as a wrong result. That one failure is tolerated here
  // (README "Performance" states it); any other wrong answer fails the test, and once it is fixed
  // the call-count comparison below runs.
  it('answers correctly on both gateways (but the known bug), and networkGraph costs more calls unbatched', () => {
    const knownBug = (f: { name: string; side: string; error: string }): boolean =>
      f.name === 'networkGraph' && f.side === 'batched' && /\.appWans: \d+ ids, expected \d+; missing /.test(f.error);
    expect(results.failed.filter((f) => !knownBug(f))).toEqual([]);
    const graph = results.queries.find((q) => q.name === 'networkGraph');
    if (graph) expect(graph.unbatched.upstreamCalls).toBeGreaterThan(graph.upstreamCalls);
    else expect(results.failed.map((f) => f.name)).toEqual(['networkGraph']);
  });
});
