/**
 * The pass-through baseline: `network(id:) { id name }` (one upstream call) through the batched
 * gateway, the same record by a plain GET straight from the sandbox, and the same load on the two
 * floor servers (floor-servers.ts: node:http + undici, and Apollo Server's pipeline), so the
 * gateway's rps and CPU per request stand next to what this stack allows.
 */
import type { RunningSandbox } from '../src/sandbox';
import type { BenchOptions } from './args';
import { directGet } from './direct-get';
import type { UpstreamFacts } from './facts';
import { startFloorProcess } from './floor-launcher';
import type { FloorKind } from './floor-kind';
import { FLOOR_QUERY } from './floor-servers';
import { cpuPerRequest, withGatewayCpu } from './gateway-cpu';
import type { GatewayHandle } from './gateway-launcher';
import { createGraphQLClient, type GraphQLHttpClient } from './graphql-client';
import { measureLatency, measureThroughput } from './load';
import type { PassthroughFloor, PassthroughResult } from './results';
import { ratioToBound, round } from './stats';

export const PASSTHROUGH_QUERY = 'query passthrough($id: UUID!) { network(id: $id) { id name } }';

type Log = (line: string) => void;

interface PassthroughFigures {
  rps: number;
  cpuMsPerRequest: number | null;
  /** One round trip at the latency phase's per-call latency, sequential (p50, ms). */
  p50Ms: number;
}

/** The one-trip latency runs stop here (the sequential latency at 10 ms per call takes ~0.6 s for 50). */
const LATENCY_CAP_MS = 10_000;

/**
 * A fresh floor server needs seconds of this load before V8 has optimized its hot paths (its CPU
 * per request falls by half over the first ~3 s). The gateway has run the bench's earlier queries,
 * but not this one: its resolver and this load's path are as cold. So every server measured here
 * gets the same untimed run of the same load first, this long at most.
 */
export const WARMUP_MS = 4000;

/** Checks one answer, then (after `warmupMs` of untimed load) the throughput phase with the server's CPU clock read around it. */
async function passthroughLoad(
  server: Pick<GatewayHandle, 'cpuMicros'>,
  client: GraphQLHttpClient,
  request: { document: string; id: string; warmupMs: number; sandbox: RunningSandbox },
  options: BenchOptions,
  who: string,
): Promise<PassthroughFigures> {
  const { document, id, warmupMs } = request;
  const data = await client.execute(document, { id });
  const answered = data['network'];
  if (typeof answered !== 'object' || answered === null || !('id' in answered) || answered.id !== id) {
    throw new Error(`pass-through: ${who} answered ${JSON.stringify(data)} for network ${id}`);
  }
  const op = (): Promise<void> => client.executeUnchecked(document, { id });
  if (warmupMs > 0) await measureThroughput(op, { concurrency: options.concurrency, durationMs: warmupMs });
  const { value, cpuMs } = await withGatewayCpu(server, () => measureThroughput(op, options));
  // The same one-call query one at a time at the per-call latency: its p50/bound beside the direct GET's (floors).
  request.sandbox.control.setLatency(options.latencyMs);
  const latency = await measureLatency(op, { iterations: options.iterations, maxMs: LATENCY_CAP_MS, warmup: Math.min(2, options.iterations) }).finally(() =>
    request.sandbox.control.setLatency(0),
  );
  return { rps: value.rps, cpuMsPerRequest: cpuPerRequest(cpuMs, value.completed), p50Ms: latency.p50Ms };
}

/** The ratio of two rps figures (null when the reference completed nothing). */
export function rpsRatio(rps: number, directRps: number): number | null {
  return directRps > 0 ? round(rps / directRps, 3) : null;
}

export function passthroughFloor(figures: PassthroughFigures, directRps: number, latencyMs: number): PassthroughFloor {
  return {
    rps: round(figures.rps, 1),
    ratioToDirect: rpsRatio(figures.rps, directRps),
    cpuMsPerRequest: figures.cpuMsPerRequest,
    p50Ms: round(figures.p50Ms),
    p50Ratio: ratioToBound(figures.p50Ms, latencyMs),
  };
}

async function floorFigures(kind: FloorKind, sandbox: RunningSandbox, id: string, options: BenchOptions): Promise<PassthroughFigures> {
  const floor = await startFloorProcess(options.gateway, kind, new URL(sandbox.baseUrl).origin);
  const client = createGraphQLClient(floor.url, sandbox.tokens.admin, options.concurrency);
  try {
    const warmupMs = Math.min(options.durationMs, WARMUP_MS);
    return await passthroughLoad(floor, client, { document: FLOOR_QUERY, id, warmupMs, sandbox }, options, `the ${kind} floor`);
  } finally {
    await client.close();
    await floor.close();
  }
}

function cpuText(who: string, cpuMsPerRequest: number | null): string {
  return cpuMsPerRequest === null ? '' : `, ${who} CPU ${cpuMsPerRequest.toFixed(3)} ms per request`;
}

export async function benchPassthrough(
  facts: UpstreamFacts,
  sandbox: RunningSandbox,
  gateway: { handle: GatewayHandle; client: GraphQLHttpClient },
  options: BenchOptions,
  log: Log,
): Promise<PassthroughResult> {
  const network = facts.networks[0];
  if (!network) throw new Error('pass-through: no network');
  sandbox.control.setLatency(0);

  const warmupMs = Math.min(options.durationMs, WARMUP_MS);
  const viaGateway = await passthroughLoad(gateway.handle, gateway.client, { document: PASSTHROUGH_QUERY, id: network.id, warmupMs, sandbox }, options, 'the gateway');
  const direct = directGet(sandbox, network.id, options.concurrency);
  const directRun = await measureThroughput(direct.get, options).finally(() => direct.close());
  log(
    `pass-through: gateway ${viaGateway.rps.toFixed(0)} rps, direct ${directRun.rps.toFixed(0)} rps${cpuText('gateway', viaGateway.cpuMsPerRequest)}` +
      `, p50 ${viaGateway.p50Ms.toFixed(1)} ms at ${options.latencyMs} ms per call`,
  );

  const measureFloor = async (kind: FloorKind): Promise<PassthroughFloor> => {
    const floor = passthroughFloor(await floorFigures(kind, sandbox, network.id, options), directRun.rps, options.latencyMs);
    log(
      `pass-through floor (${kind}): ${floor.rps.toFixed(0)} rps, ${String(floor.ratioToDirect)} of the direct GET${cpuText(kind, floor.cpuMsPerRequest)}` +
        `, p50 ${floor.p50Ms.toFixed(1)} ms at ${options.latencyMs} ms per call`,
    );
    return floor;
  };
  const floors = options.skipFloors ? null : { raw: await measureFloor('raw'), apollo: await measureFloor('apollo') };
  return {
    gatewayRps: round(viaGateway.rps, 1),
    directRps: round(directRun.rps, 1),
    gatewayCpuMsPerRequest: viaGateway.cpuMsPerRequest,
    gatewayP50Ms: round(viaGateway.p50Ms),
    gatewayP50Ratio: ratioToBound(viaGateway.p50Ms, options.latencyMs),
    floors,
  };
}
