/**
 * The fault scenario: the sandbox answers half the rest/v1 GETs with 503 (at the latency phase's
 * per-call latency), and one-network queries run at a fixed concurrency for a fixed count. It
 * reports the amplification (upstream calls per query: 1.0 would be no retry at all) and the
 * latency of the answers, whatever they carry: the retry budget bounds the calls, the breaker and
 * the budget keep callers from waiting on retries one by one.
 */
import { startSandbox } from '../src/sandbox';
import type { BenchOptions } from './args';
import { benchGatewayEnv, startGatewayProcess } from './gateway-launcher';
import { BATCHED } from './gateway-start';
import { createGraphQLClient } from './graphql-client';
import { round, summarize } from './stats';

export interface FaultScenarioResult {
  /** Share of rest/v1 GETs the sandbox answered with 503. */
  errorRate: number;
  latencyMs: number;
  queries: number;
  concurrency: number;
  upstreamCalls: number;
  /** Upstream calls per query (one call each without faults). */
  callsPerQuery: number;
  /** Share of queries answered without an error. */
  answeredShare: number;
  p50Ms: number;
  p99Ms: number;
}

const QUERY = 'query FaultNetwork($id: UUID!) { network(id: $id) { id name } }';

export async function runFaultScenario(options: Pick<BenchOptions, 'seed' | 'latencyMs' | 'gateway' | 'iterations'>, log: (line: string) => void, concurrency = 16): Promise<FaultScenarioResult> {
  // 1,000 queries in a full run (50 iterations); fewer in a smoke run.
  const queries = Math.min(1000, options.iterations * 20);
  const errorRate = 0.5;
  const sandbox = await startSandbox({ port: 0, host: '127.0.0.1', seed: options.seed, latencyMs: 0 });
  try {
    // Every query its own calls: the scenario measures what retries add, not what sharing saves.
    const gateway = await startGatewayProcess(options.gateway, { ...benchGatewayEnv(sandbox), UPSTREAM_SHARING: 'off', UPSTREAM_CACHE_MAX_BYTES: '0' }, BATCHED);
    const client = createGraphQLClient(gateway.url, sandbox.tokens.admin, concurrency);
    try {
      const network = sandbox.restFacts().networks[0];
      if (!network) throw new Error('the seed has no network');
      // The answer is right before any fault (throws otherwise): an error below is the fault's.
      await client.execute(QUERY, { id: network.id });
      sandbox.control.setFaults([{ method: 'GET', route: '/rest/v1/**', latencyMs: options.latencyMs, errorRate, status: 503 }]);
      sandbox.control.resetCalls();
      log(`faults: ${queries} one-network queries, ${concurrency} at once, ${errorRate * 100}% of rest/v1 GETs answered 503`);
      const samples: number[] = [];
      let answered = 0;
      let next = 0;
      const worker = async (): Promise<void> => {
        while (next < queries) {
          next += 1;
          const started = performance.now();
          try {
            await client.execute(QUERY, { id: network.id });
            answered += 1;
          } catch {
            // An error answer is a measured answer too.
          }
          samples.push(performance.now() - started);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));
      const upstreamCalls = Object.entries(sandbox.control.calls().byRoute)
        .filter(([route]) => route.includes('/rest/v1/'))
        .reduce((sum, [, n]) => sum + n, 0);
      const latency = summarize(samples);
      return {
        errorRate,
        latencyMs: options.latencyMs,
        queries,
        concurrency,
        upstreamCalls,
        callsPerQuery: round(upstreamCalls / queries, 3),
        answeredShare: round(answered / queries, 3),
        p50Ms: round(latency.p50Ms),
        p99Ms: round(latency.p99Ms),
      };
    } finally {
      await client.close();
      await gateway.close();
    }
  } finally {
    await sandbox.close();
  }
}
