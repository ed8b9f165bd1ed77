/**
 * The benchmark's floor servers (bench/floor-servers.ts) in their child process (floor-child.ts,
 * bundled first: test/helpers/bench-bundle.ts) and in-process: each answers the pass-through query
 * like the gateway, reports its CPU clock (the child only), measures networkGraph's floor
 * from a list of calls, and replays a script of calls in waves on its replay route (the p50 floor).
 */
import { FLOOR_KINDS } from '../../bench/floor-kind';
import { startFloorChild, startFloorProcess, type FloorHandle } from '../../bench/floor-launcher';
import { FLOOR_QUERY } from '../../bench/floor-servers';
import { cpuPerRequest, withGatewayCpu } from '../../bench/gateway-cpu';
import { createGraphQLClient } from '../../bench/graphql-client';
import { request } from 'undici';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { bundleBenchEntry, type BenchBundle } from '../helpers/bench-bundle';

describe('bench floor servers', () => {
  let bundle: BenchBundle;
  let sandbox: RunningSandbox;
  let network: string;

  beforeAll(async () => {
    bundle = await bundleBenchEntry('floor-child');
    sandbox = await startSandbox({ port: 0, seed: 'tiny' });
    network = sandbox.restFacts().networkIds[0] ?? '';
  }, 60_000);

  afterAll(async () => {
    await sandbox?.close();
    bundle?.remove();
  });

  const withFloor = async (start: () => Promise<FloorHandle>, use: (floor: FloorHandle) => Promise<void>): Promise<void> => {
    const floor = await start();
    try {
      await use(floor);
    } finally {
      await floor.close();
    }
  };

  it.each(FLOOR_KINDS)('%s: answers network(id:) { id name } with the sandbox record, and reports its own CPU time in a child', async (kind) => {
    await withFloor(
      () => startFloorChild(bundle.script, kind, sandbox.baseUrl),
      async (floor) => {
        expect(floor.mode).toBe('child');
        const client = createGraphQLClient(floor.url, sandbox.tokens.admin, 2);
        try {
          const { value: data, cpuMs } = await withGatewayCpu(floor, () => client.execute(FLOOR_QUERY, { id: network }));
          expect(data).toEqual({ network: { id: network, name: expect.any(String) } });
          expect(cpuPerRequest(cpuMs, 1)).toBeGreaterThan(0);
          // The caller's token goes upstream: without one the sandbox refuses and the floor fails.
          const anonymous = createGraphQLClient(floor.url, '', 1);
          await expect(anonymous.execute(FLOOR_QUERY, { id: network })).rejects.toThrow();
          await anonymous.close();
        } finally {
          await client.close();
        }
      },
    );
  });

  it('measures networkGraph\'s floor over the given calls, in the child and in-process', async () => {
    const paths = ['/rest/v1/network-groups', `/rest/v1/networks/${network}`, `/rest/v1/networks/${network}/endpoints?page=0&size=2000`];
    const request = { paths, authorization: `Bearer ${sandbox.tokens.admin}`, answer: JSON.stringify({ data: { a: [1, 2, 3] } }), repetitions: 2 };
    for (const start of [() => startFloorChild(bundle.script, 'raw', sandbox.baseUrl), () => startFloorProcess('in-process', 'raw', sandbox.baseUrl)]) {
      await withFloor(start, async (floor) => {
        sandbox.control.resetCalls();
        const measured = await floor.measureGraph(request);
        expect(measured.upstreamBytes).toBeGreaterThan(100);
        expect(measured.receiveAndParseCpuMs).toBeGreaterThan(0);
        expect(measured.parseCpuMs).toBeGreaterThanOrEqual(0);
        expect(measured.stringifyCpuMs).toBeGreaterThanOrEqual(0);
        // One untimed run and two timed ones, each of every path.
        expect(sandbox.control.calls().total).toBe(3 * paths.length);
      });
    }
  });

  it('reports a failed measurement as an error naming it', async () => {
    await withFloor(
      () => startFloorChild(bundle.script, 'raw', sandbox.baseUrl),
      async (floor) => {
        await expect(floor.measureGraph({ paths: ['/rest/v1/no-such-list'], authorization: 'Bearer x', answer: '{}', repetitions: 1 })).rejects.toThrow(
          /network-graph-floor: GET \/rest\/v1\/no-such-list: the sandbox answered 40\d/,
        );
      },
    );
  });

  it('replays a script wave by wave on its replay route and answers the script\'s answer, in the child and in-process', async () => {
    const first = ['/rest/v1/network-groups', `/rest/v1/networks/${network}`];
    const second = [`/rest/v1/networks/${network}/endpoints?page=0&size=2000`];
    const answer = JSON.stringify({ data: { network: { id: network, endpoints: [1, 2, 3] } } });
    for (const start of [() => startFloorChild(bundle.script, 'raw', sandbox.baseUrl), () => startFloorProcess('in-process', 'raw', sandbox.baseUrl)]) {
      await withFloor(start, async (floor) => {
        await floor.setReplay({ waves: [first, second], authorization: `Bearer ${sandbox.tokens.admin}`, answer });
        sandbox.control.setLatency(50);
        sandbox.control.resetCalls();
        await floor.phases.start();
        try {
          const res = await request(floor.replayUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"query":"{ x }"}' });
          expect({ status: res.statusCode, text: await res.body.text() }).toEqual({ status: 200, text: answer });
        } finally {
          sandbox.control.setLatency(0);
        }
        // Its phase clock saw the request: two waves at 50 ms between its first call and its last body (none in-process).
        const phases = await floor.phases.stop();
        if (floor.mode === 'child') {
          expect(phases?.requests).toBe(1);
          expect(phases?.upstreamMs).toBeGreaterThanOrEqual(99);
          expect(phases?.totalMs).toBeGreaterThanOrEqual(phases?.upstreamMs ?? Infinity);
        } else expect(phases).toBeNull();
        const timings = sandbox.control.timings();
        expect(timings.map((t) => t.path).sort()).toEqual([...first, ...second].map((target) => target.split('?')[0]).sort());
        const inWave = (paths: string[]) => timings.filter((t) => paths.some((p) => p.split('?')[0] === t.path));
        const firstAnswered = Math.max(...inWave(first).map((t) => t.answeredMs ?? Infinity));
        const secondReceived = Math.min(...inWave(second).map((t) => t.receivedMs));
        // The second wave waits for the whole first one; the first wave's calls go side by side.
        expect(secondReceived).toBeGreaterThanOrEqual(firstAnswered);
        // Side by side: each arrived before the other was answered.
        const [a, b] = inWave(first);
        expect((a?.receivedMs ?? Infinity) < (b?.answeredMs ?? -Infinity) && (b?.receivedMs ?? Infinity) < (a?.answeredMs ?? -Infinity)).toBe(true);
      });
    }
  });

  it('refuses a bad replay script over IPC, and answers 500 before any script is set', async () => {
    await withFloor(
      () => startFloorChild(bundle.script, 'raw', sandbox.baseUrl),
      async (floor) => {
        const res = await request(floor.replayUrl, { method: 'POST', body: '{}' });
        expect({ status: res.statusCode, text: await res.body.text() }).toEqual({ status: 500, text: 'replay: no script set' });
        await expect(floor.setReplay({ waves: [['/a'], []], authorization: 'x', answer: '{}' })).rejects.toThrow(/replay-script: wave 2 has no calls/);
        await expect(floor.setReplay({ waves: [['/a']], authorization: 'x', answer: '{' })).rejects.toThrow(/replay-script: the answer is not JSON/);
      },
    );
  });
});
