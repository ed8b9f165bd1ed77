/**
 * The `dashboard` scenario: what sharing and caching upstream reads across requests save. A
 * dashboard of one credential — a few widgets, each its own query — is opened by many clients at
 * once (in-flight sharing), then refreshed again and again (the cache). The sandbox sends
 * `Cache-Control: private, max-age=60` and ETags (its caching mode), as a platform that allows
 * caching would. Two gateways run the same load: one with the defaults (sharing on, the cache on),
 * one with both off (`UPSTREAM_SHARING=off`, `UPSTREAM_CACHE_MAX_BYTES=0`); the figure is upstream
 * calls per query, from the sandbox's call log.
 */
import type { RunningSandbox } from '../src/sandbox';
import type { BenchOptions } from './args';
import { benchGatewayEnv, startGatewayProcess } from './gateway-launcher';
import { createGraphQLClient } from './graphql-client';
import { queryCalls } from './query-calls';

/** The dashboard's widgets: each its own query, as separate components of a page send them. */
const WIDGETS: ReadonlyArray<{ name: string; document: string; variables: (networkId: string) => Record<string, unknown> }> = [
  { name: 'networks', document: '{ networks { totalCount nodes { id name statusName } } }', variables: () => ({}) },
  { name: 'network', document: 'query($id: UUID!) { network(id: $id) { id name statusName } }', variables: (id) => ({ id }) },
  { name: 'endpoints', document: 'query($id: UUID!) { network(id: $id) { endpoints(first: 50) { totalCount nodes { id name statusName } } } }', variables: (id) => ({ id }) },
  { name: 'regions', document: '{ geoRegions { totalCount } }', variables: () => ({}) },
  { name: 'dataCenters', document: '{ dataCenters { totalCount } }', variables: () => ({}) },
];

export interface DashboardSide {
  /** `cache` (the defaults) or `none` (sharing and cache off). */
  readonly label: 'cache' | 'none';
  /** `clients` clients open the dashboard at the same moment. */
  readonly concurrent: { queries: number; upstreamCalls: number; callsPerQuery: number };
  /** One client refreshes it `refreshes` times in a row. */
  readonly repeated: { queries: number; upstreamCalls: number; callsPerQuery: number };
}

export interface DashboardResult {
  readonly widgets: number;
  readonly clients: number;
  readonly refreshes: number;
  readonly maxAgeS: number;
  readonly sides: DashboardSide[];
}

const MAX_AGE_S = 60;
/** The scenario's name for `--only`. */
export const DASHBOARD = 'dashboard';

export async function runDashboard(sandbox: RunningSandbox, options: Pick<BenchOptions, 'gateway' | 'latencyMs'>, log: (line: string) => void, sizes = { clients: 50, refreshes: 20 }): Promise<DashboardResult> {
  const networkId = sandbox.restFacts().networks[0]?.id;
  if (networkId === undefined) throw new Error('dashboard: the sandbox has no network');
  const sides: DashboardSide[] = [];
  sandbox.control.setCaching([{ route: '/rest/v1/**', maxAgeS: MAX_AGE_S }]);
  sandbox.control.setLatency(options.latencyMs);
  try {
    for (const label of ['none', 'cache'] as const) {
      const env = { ...benchGatewayEnv(sandbox), ...(label === 'none' ? { UPSTREAM_SHARING: 'off', UPSTREAM_CACHE_MAX_BYTES: '0' } : {}) };
      const gateway = await startGatewayProcess(options.gateway, env);
      const client = createGraphQLClient(gateway.url, sandbox.tokens.admin, sizes.clients * WIDGETS.length);
      try {
        const open = (): Promise<void[]> => Promise.all(WIDGETS.map((w) => client.executeUnchecked(w.document, w.variables(networkId))));
        const measure = async (run: () => Promise<number>): Promise<{ queries: number; upstreamCalls: number; callsPerQuery: number }> => {
          sandbox.control.resetCalls();
          const queries = await run();
          const upstreamCalls = queryCalls(sandbox.control.calls());
          return { queries, upstreamCalls, callsPerQuery: Math.round((upstreamCalls / queries) * 1000) / 1000 };
        };
        const concurrent = await measure(async () => {
          await Promise.all(Array.from({ length: sizes.clients }, open));
          return sizes.clients * WIDGETS.length;
        });
        const repeated = await measure(async () => {
          for (let i = 0; i < sizes.refreshes; i += 1) await open();
          return sizes.refreshes * WIDGETS.length;
        });
        sides.push({ label, concurrent, repeated });
        log(`dashboard (${label}): ${concurrent.callsPerQuery} calls/query for ${sizes.clients} clients at once, ${repeated.callsPerQuery} over ${sizes.refreshes} refreshes`);
      } finally {
        await client.close();
        await gateway.close();
      }
    }
  } finally {
    sandbox.control.clearCaching();
    sandbox.control.setLatency(0);
  }
  return { widgets: WIDGETS.length, clients: sizes.clients, refreshes: sizes.refreshes, maxAgeS: MAX_AGE_S, sides };
}
