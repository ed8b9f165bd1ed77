/**
 * One floor, wherever it runs (the floor child, floor-child.ts, or this process for the smoke
 * test and runs from sources, floor-launcher.ts): the floor server of a kind over its own upstream
 * Pool, serving the p50 floor's replay route beside the pass-through query, and the CPU floor's
 * measurement over the same Pool.
 */
import type { ChildServer } from './child-ipc';
import type { FloorKind } from './floor-kind';
import { createFloorUpstream, startFloorServer } from './floor-servers';
import { measureGraphFloor, type GraphFloorMeasure, type GraphFloorRequest } from './graph-floor';
import { createWaveReplay, REPLAY_PATH, type ReplayScript } from './wave-replay';

export interface FloorInstance extends ChildServer {
  /** A query's CPU floor (graph-floor.ts). */
  measureGraph(request: GraphFloorRequest): Promise<GraphFloorMeasure>;
  /** What REPLAY_PATH replays from now on (wave-replay.ts). */
  setReplay(script: ReplayScript): void;
}

/** The floor server of `kind` against the sandbox at `upstreamOrigin`; close() also closes its Pool. */
export async function startFloorInstance(kind: FloorKind, upstreamOrigin: string): Promise<FloorInstance> {
  const upstream = createFloorUpstream(upstreamOrigin);
  const replay = createWaveReplay(upstream);
  const server = await startFloorServer(kind, upstream, { [REPLAY_PATH]: replay.handle });
  return {
    url: server.url,
    close: () => server.close().then(() => upstream.close()),
    measureGraph: (request) => measureGraphFloor(upstream, request),
    setReplay: (script) => replay.set(script),
  };
}
