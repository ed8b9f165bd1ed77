/**
 * The benchmark's floor servers (bench/floor-servers.ts) in their child process (floor-child.ts,
 * bundled first: test/helpers/bench-bundle.ts) and in-process: each answers the pass-through query
 * like the gateway, reports its CPU clock (the child only), and measures networkGraph's floor
 * from a list of calls.
 */
import { FLOOR_KINDS } from '../../bench/floor-kind';
import { startFloorChild, startFloorProcess, type FloorHandle } from '../../bench/floor-launcher';
import { FLOOR_QUERY } from '../../bench/floor-servers';
import { cpuPerRequest, withGatewayCpu } from '../../bench/gateway-cpu';
import { createGraphQLClient } from '../../bench/graphql-client';
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
});
