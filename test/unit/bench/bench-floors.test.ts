import { callWaves } from '../../../bench/call-waves';
import type { FloorUpstream } from '../../../bench/floor-servers';
import { networkGraphFloor, requestTarget, waveTargets, GRAPH_FLOOR_REPETITIONS } from '../../../bench/floors';
import { isFloorKind } from '../../../bench/floor-kind';
import { readGraphFloorMeasure, readGraphFloorRequest } from '../../../bench/graph-floor';
import { passthroughFloor, rpsRatio } from '../../../bench/passthrough';
import { isCallerCheck, queryCalls } from '../../../bench/query-calls';
import { median } from '../../../bench/stats';
import { createWaveReplay, readReplayScript } from '../../../bench/wave-replay';

describe('requestTarget', () => {
  it('rebuilds a recorded GET as path and query string, a repeated parameter once per value', () => {
    expect(requestTarget({ method: 'GET', path: '/rest/v1/networks', query: {} })).toBe('/rest/v1/networks');
    expect(requestTarget({ method: 'GET', path: '/rest/v1/networks/n%2F1/endpoints', query: { size: '2000', page: '1' } })).toBe(
      '/rest/v1/networks/n%2F1/endpoints?size=2000&page=1',
    );
    expect(requestTarget({ method: 'GET', path: '/x', query: { id: ['a', 'b c'] } })).toBe('/x?id=a&id=b+c');
  });

  it('replays only GETs', () => {
    expect(() => requestTarget({ method: 'POST', path: '/rest/v1/networks', query: {} })).toThrow(/POST \/rest\/v1\/networks/);
  });
});

describe('networkGraphFloor', () => {
  const measured = { upstreamBytes: 9_000_000, receiveAndParseCpuMs: 73.24, parseCpuMs: 50.44, stringifyCpuMs: 11.06 };

  it('adds the receive-and-parse and the stringify CPU into the per-query floor', () => {
    expect(networkGraphFloor(178, 1_400_000, measured, false)).toEqual({
      upstreamCalls: 178,
      upstreamBytes: 9_000_000,
      receiveAndParseCpuMs: 73.2,
      parseCpuMs: 50.4,
      answerBytes: 1_400_000,
      stringifyMs: 11.1,
      totalMs: 84.3,
      repetitions: GRAPH_FLOOR_REPETITIONS,
    });
  });

  it('has no receive figure in-process, where the sandbox shares the CPU clock', () => {
    expect(networkGraphFloor(178, 1_400_000, measured, true)).toMatchObject({ receiveAndParseCpuMs: null, stringifyMs: 11.1, totalMs: null });
  });
});

describe('pass-through floors', () => {
  it('rounds rps and gives its share of the direct GET', () => {
    expect(passthroughFloor({ rps: 2999.94, cpuMsPerRequest: 0.241, p50Ms: 12.345 }, 3667, 10)).toEqual({
      rps: 2999.9,
      ratioToDirect: 0.818,
      cpuMsPerRequest: 0.241,
      p50Ms: 12.35,
      p50Ratio: 1.23,
    });
    expect(passthroughFloor({ rps: 1, cpuMsPerRequest: null, p50Ms: 2 }, 3667, 0).p50Ratio).toBeNull();
    expect(rpsRatio(10, 0)).toBeNull();
  });

  it('knows its two kinds', () => {
    expect(['raw', 'apollo', 'gateway', undefined].map(isFloorKind)).toEqual([true, true, false, false]);
  });
});

describe('graph floor messages', () => {
  it('reads a well-formed request and measure, and names what is wrong in a bad one', () => {
    const request = { type: 'network-graph-floor', id: 3, paths: ['/a', '/b?x=1'], authorization: 'Bearer t', answer: '{"data":{}}', repetitions: 7 };
    expect(readGraphFloorRequest(request)).toEqual({ paths: ['/a', '/b?x=1'], authorization: 'Bearer t', answer: '{"data":{}}', repetitions: 7 });
    expect(() => readGraphFloorRequest({ ...request, paths: ['/a', 1] })).toThrow(/paths/);
    expect(() => readGraphFloorRequest({ ...request, repetitions: 0 })).toThrow(/repetitions/);
    expect(() => readGraphFloorRequest({ ...request, answer: null })).toThrow(/answer/);
    const measure = { upstreamBytes: 1, receiveAndParseCpuMs: 2, parseCpuMs: 1.5, stringifyCpuMs: 3 };
    expect(readGraphFloorMeasure({ ...measure, extra: true })).toEqual(measure);
    expect(() => readGraphFloorMeasure({ upstreamBytes: 1 })).toThrow(/four numbers/);
  });
});

describe('median', () => {
  it('is an observed sample: the middle one, or the lower middle one of an even count', () => {
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2);
  });
});

describe('callWaves (bench)', () => {
  const call = (seq: number, receivedMs: number, answeredMs: number | null) => ({ seq, method: 'GET', route: `/r${seq}`, path: `/r${seq}`, receivedMs, answeredMs });

  it('gives each wave its calls in the order they arrived, so the floor can replay them', () => {
    const waves = callWaves([call(3, 12, 22), call(1, 0, 10), call(4, 9, 30), call(2, 1, 11)]);
    expect(waves.map((wave) => wave.map((c) => c.seq))).toEqual([[1, 2, 4], [3]]);
  });

  it('leaves an unanswered call out of every later wave', () => {
    expect(callWaves([call(1, 0, null), call(2, 5, 8)]).map((wave) => wave.map((c) => c.seq))).toEqual([[1, 2]]);
  });
});

describe('waveTargets', () => {
  const recorded = (seq: number, path: string, query: Record<string, string> = {}) => ({ seq, method: 'GET', route: path, path, query, contentType: null, body: null });

  it('turns each wave into the request targets of its recorded calls, matched by seq', () => {
    const calls = [recorded(1, '/a'), recorded(2, '/b', { page: '1' }), recorded(3, '/c')];
    expect(waveTargets(calls, [[{ seq: 3 }, { seq: 1 }], [{ seq: 2 }]])).toEqual([['/c', '/a'], ['/b?page=1']]);
    expect(() => waveTargets(calls, [[{ seq: 9 }]])).toThrow(/call 9/);
  });
});

describe('the replay script', () => {
  const script = { type: 'replay-script', id: 1, waves: [['/a', '/b?x=1'], ['/c']], authorization: 'Bearer t', answer: '{"data":{"a":1}}' };

  it('reads a well-formed script, leaving the IPC fields out', () => {
    expect(readReplayScript(script)).toEqual({ waves: [['/a', '/b?x=1'], ['/c']], authorization: 'Bearer t', answer: '{"data":{"a":1}}' });
    expect(readReplayScript({ ...script, waves: [] }).waves).toEqual([]);
  });

  it.each([
    ['not an object', 'x', /expected an object/],
    ['waves not a list', { ...script, waves: '/a' }, /waves must be lists/],
    ['a wave not a list', { ...script, waves: ['/a'] }, /waves must be lists/],
    ['a target not a string', { ...script, waves: [['/a', 2]] }, /waves must be lists/],
    ['an empty wave', { ...script, waves: [['/a'], []] }, /wave 2 has no calls/],
    ['no authorization', { ...script, authorization: undefined }, /authorization and answer/],
    ['an answer not text', { ...script, answer: { data: {} } }, /authorization and answer/],
  ])('refuses %s with an error naming what is wrong', (_, value, error) => {
    expect(() => readReplayScript(value)).toThrow(error);
  });

  it('refuses an answer that is not JSON when the script is set', () => {
    const upstream: FloorUpstream = { getBody: () => Promise.resolve('{}'), close: () => Promise.resolve() };
    expect(() => createWaveReplay(upstream).set({ waves: [], authorization: 'x', answer: '{"data":' })).toThrow(/replay-script: the answer is not JSON/);
  });
});

describe('the caller check in a recorded run', () => {
  it('is left out of the calls, the waves and the count alike, whenever its verdict falls due', () => {
    const recorded = [
      { seq: 1, method: 'GET', route: '/rest/v1/networks', path: '/rest/v1/networks' },
      { seq: 2, method: 'GET', route: '/identity/v1/organization', path: '/identity/v1/organization' },
      { seq: 3, method: 'GET', route: '/rest/v1/networks/{networkId}', path: '/rest/v1/networks/n1' },
    ];
    const counts = { total: 3, byRoute: { 'GET /rest/v1/networks': 1, 'GET /identity/v1/organization': 1, 'GET /rest/v1/networks/{networkId}': 1 } };
    const kept = recorded.filter((call) => !isCallerCheck(call));
    expect(kept.map((call) => call.seq)).toEqual([1, 3]);
    expect(queryCalls(counts)).toBe(kept.length);
    expect(isCallerCheck({ method: 'POST', route: '/identity/v1/organization' })).toBe(false);
  });
});
