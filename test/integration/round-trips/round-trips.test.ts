/**
 * Each small bench query makes exactly its bound of sequential upstream round trips
 * (bench/README.md "The bounds"): the bench's own documents and variables run through the real
 * gateway against the sandbox with a per-call latency, and the sandbox's call timings are
 * grouped into waves (bench/call-waves.ts, via test/helpers/round-trips.ts). Structure only: how long a wave takes is
 * the benchmark's business.
 */
import { WAVE_LATENCY_MS } from '../../../bench/call-waves';
import { readFacts, type UpstreamFacts } from '../../../bench/facts';
import { BENCH_QUERIES } from '../../../bench/queries';
import type { BenchQuery } from '../../../bench/queries/types';
import { callWaves, type Wave } from '../../helpers/round-trips';
import { startStack, type Stack } from '../../helpers/stack';

const NAMES = ['endpointDetail', 'networkList', 'authTree', 'topTalkers', 'v2Reach', 'networkMap'];

function benchQuery(name: string): BenchQuery {
  const q = BENCH_QUERIES.find((x) => x.name === name);
  if (q === undefined) throw new Error(`no bench query ${name}`);
  return q;
}

let stack: Stack;
let facts: UpstreamFacts;

beforeAll(async () => {
  stack = await startStack({ seed: 'demo' });
  const { sandbox } = stack;
  facts = await readFacts(sandbox.baseUrl, sandbox.tokens.admin, { url: sandbox.searchUrl, ...sandbox.searchCredentials });
}, 60_000);
afterAll(() => stack.close());

async function waves(q: BenchQuery): Promise<{ waves: Wave[]; errors: unknown }> {
  const { control } = stack.sandbox;
  control.setLatency(WAVE_LATENCY_MS);
  control.resetCalls();
  try {
    const res = await stack.gql(q.document, q.variables(facts));
    if (res.body.data) q.check(res.body.data, facts);
    return { waves: callWaves(control.timings()), errors: res.body.errors ?? null };
  } finally {
    control.setLatency(0);
  }
}

describe.each(NAMES)('%s', (name) => {
  it('makes exactly its bound of sequential upstream round trips, on a first and a repeated run', async () => {
    const q = benchQuery(name);
    expect(q.unavailable(facts)).toBeNull();
    const bound = q.roundTrips(facts);
    for (const run of ['first', 'repeated']) {
      const got = await waves(q);
      // The whole picture on failure: which calls went in which wave.
      const picture = [
        `${name}, ${run} run: ${got.waves.length} round trips, bound ${bound.value} (${bound.reason})`,
        ...got.waves.map((w) => `  wave ${w.wave}: ${w.calls.join(', ')}`),
        `  errors: ${JSON.stringify(got.errors)}`,
      ].join('\n');
      expect({ ok: got.errors === null && got.waves.length === bound.value, picture }).toEqual({ ok: true, picture });
    }
  });
});

describe('callWaves', () => {
  const call = (seq: number, receivedMs: number, answeredMs: number | null) => ({ seq, method: 'GET', route: `/r${seq}`, path: `/r${seq}`, receivedMs, answeredMs });

  it('puts overlapping calls in one wave and a call sent after an answer in the next', () => {
    expect(callWaves([call(1, 0, 10), call(2, 1, 11), call(3, 12, 22), call(4, 9, 30)]).map((w) => w.calls)).toEqual([
      ['GET /r1', 'GET /r2', 'GET /r4'],
      ['GET /r3'],
    ]);
  });

  it('counts the longest chain, not the number of distinct start times', () => {
    expect(callWaves([call(1, 0, 10), call(2, 11, 20), call(3, 21, 30), call(4, 15, 40)]).length).toBe(3);
    expect(callWaves([])).toEqual([]);
  });
});
