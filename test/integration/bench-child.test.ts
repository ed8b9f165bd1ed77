/**
 * The benchmark's gateway child process (bench/gateway-child.ts): production mode and its CPU
 * clock over IPC. ts-jest cannot fork a .ts file, so the child is bundled first (test/helpers/bench-bundle.ts).
 */
import { cpuPerRequest, withGatewayCpu } from '../../bench/gateway-cpu';
import { benchGatewayEnv, startGatewayChild, startGatewayProcess, type GatewayHandle } from '../../bench/gateway-launcher';
import { UNBATCHED } from '../../bench/gateway-start';
import { createGraphQLClient, type GraphQLHttpClient } from '../../bench/graphql-client';
import { PASSTHROUGH_QUERY } from '../../bench/passthrough';
import { startSandbox, type RunningSandbox } from '../../src/sandbox';
import { bundleBenchEntry, type BenchBundle } from '../helpers/bench-bundle';

describe('bench gateway child', () => {
  let bundle: BenchBundle;
  let sandbox: RunningSandbox;
  let gateway: GatewayHandle;
  let client: GraphQLHttpClient;

  beforeAll(async () => {
    bundle = await bundleBenchEntry('gateway-child');
    sandbox = await startSandbox({ port: 0, seed: 'tiny' });
    gateway = await startGatewayChild(bundle.script, benchGatewayEnv(sandbox));
    client = createGraphQLClient(gateway.url, sandbox.tokens.admin, 2);
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await gateway?.close();
    await sandbox?.close();
    bundle?.remove();
  });

  it('runs in production mode', () => {
    expect(gateway.mode).toBe('child');
    expect(gateway.nodeEnv).toBe('production');
  });

  it('reports its own CPU time, which grows with the requests it serves', async () => {
    const network = sandbox.restFacts().networkIds[0] ?? '';
    const first = await gateway.cpuMicros();
    expect(first).toBeGreaterThan(0);
    const { value: completed, cpuMs } = await withGatewayCpu(gateway, async () => {
      for (let i = 0; i < 20; i++) await client.execute(PASSTHROUGH_QUERY, { id: network });
      return 20;
    });
    expect(cpuMs).toBeGreaterThan(0);
    const perRequest = cpuPerRequest(cpuMs, completed);
    // Positive, and far below a whole second per one-call request.
    expect(perRequest).toBeGreaterThan(0);
    expect(perRequest).toBeLessThan(1000);
    // Questions in flight together each get their own answer.
    const [a, b] = await Promise.all([gateway.cpuMicros(), gateway.cpuMicros()]);
    expect(a).toBeGreaterThanOrEqual(first ?? 0);
    expect(b).toBeGreaterThanOrEqual(first ?? 0);
  });

  it('has no CPU clock of its own in-process', async () => {
    const inProcess = await startGatewayProcess('in-process', benchGatewayEnv(sandbox));
    try {
      expect(inProcess.mode).toBe('in-process');
      expect(await inProcess.cpuMicros()).toBeNull();
      expect(await withGatewayCpu(inProcess, () => Promise.resolve(1))).toEqual({ value: 1, cpuMs: null });
      expect(cpuPerRequest(null, 10)).toBeNull();
    } finally {
      await inProcess.close();
    }
  });

  it('runs unbatched when told so on its command line, with no environment variable', async () => {
    const unbatched = await startGatewayChild(bundle.script, benchGatewayEnv(sandbox), UNBATCHED);
    const unbatchedClient = createGraphQLClient(unbatched.url, sandbox.tokens.admin, 1);
    try {
      const network = sandbox.restFacts().networks.find((n) => n.endpointIds.length >= 2);
      if (network === undefined) throw new Error('the tiny seed has no network with two endpoints');
      const query = 'query ($id: UUID!) { network(id: $id) { endpoints { nodes { id appWans { totalCount } } } } }';
      const callsOf = async (c: GraphQLHttpClient): Promise<number> => {
        sandbox.control.resetCalls();
        await c.execute(query, { id: network.id });
        return sandbox.control.calls().byRoute['GET /rest/v1/networks/{networkId}/endpoints/{endpointId}/appWans'] ?? 0;
      };
      // Batched: the AppWANs come from one membership index, never per endpoint; unbatched: one call each.
      expect(await callsOf(client)).toBe(0);
      expect(await callsOf(unbatchedClient)).toBe(network.endpointIds.length);
    } finally {
      await unbatchedClient.close();
      await unbatched.close();
    }
  });
});
