/**
 * Starts a floor server (floor-servers.ts) for the benchmark the way gateway-launcher.ts starts a
 * gateway: in a child process (floor-child.js: production mode, the gateway's V8 flags, its CPU
 * clock over IPC) or, for the smoke test and runs from sources, in this process, where its CPU
 * cannot be told apart and reads null.
 */
import type { GatewayMode } from './args';
import { startChild } from './child-launcher';
import { compiledChild } from './compiled-child';
import type { FloorKind } from './floor-kind';
import { createFloorUpstream, startFloorServer } from './floor-servers';
import { measureGraphFloor, readGraphFloorMeasure, type GraphFloorMeasure, type GraphFloorRequest } from './graph-floor';

export interface FloorHandle {
  kind: FloorKind;
  url: string;
  mode: GatewayMode;
  /** The floor process's CPU time so far (user + system, µs); null in-process. */
  cpuMicros(): Promise<number | null>;
  /** networkGraph's floor, measured where the floor runs (graph-floor.ts). */
  measureGraph(request: GraphFloorRequest): Promise<GraphFloorMeasure>;
  close(): Promise<void>;
}

export async function startFloorProcess(mode: GatewayMode, kind: FloorKind, upstreamOrigin: string): Promise<FloorHandle> {
  const script = compiledChild('floor-child');
  if (mode === 'child' && script !== null) return startFloorChild(script, kind, upstreamOrigin);
  const upstream = createFloorUpstream(upstreamOrigin);
  const server = await startFloorServer(kind, upstream);
  return {
    kind,
    url: server.url,
    mode: 'in-process',
    cpuMicros: () => Promise.resolve(null),
    measureGraph: (request) => measureGraphFloor(upstream, request),
    close: () => server.close().then(() => upstream.close()),
  };
}

/** A floor server in a child process running `script` (the compiled floor-child.ts; tests pass a bundle of it). */
export async function startFloorChild(script: string, kind: FloorKind, upstreamOrigin: string): Promise<FloorHandle> {
  const child = await startChild(script, { FLOOR_KIND: kind, FLOOR_UPSTREAM: upstreamOrigin }, `${kind} floor child`);
  return {
    kind,
    url: child.url,
    mode: 'child',
    cpuMicros: () => child.cpuMicros(),
    measureGraph: async (request) => readGraphFloorMeasure(await child.ask('network-graph-floor', { ...request })),
    close: () => child.close(),
  };
}
