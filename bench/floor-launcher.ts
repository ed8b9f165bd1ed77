/**
 * Starts a floor (floor-instance.ts) for the benchmark the way gateway-launcher.ts starts a
 * gateway: in a child process (floor-child.js: production mode, the gateway's V8 flags, its CPU
 * clock over IPC) or, for the smoke test and runs from sources, in this process, where its CPU
 * cannot be told apart and reads null.
 */
import type { GatewayMode } from './args';
import { NO_PHASES, startChild, type PhaseReader } from './child-launcher';
import { compiledChild } from './compiled-child';
import { startFloorInstance } from './floor-instance';
import type { FloorKind } from './floor-kind';
import { readGraphFloorMeasure, type GraphFloorMeasure, type GraphFloorRequest } from './graph-floor';
import { REPLAY_PATH, type ReplayScript } from './wave-replay';

export interface FloorHandle {
  kind: FloorKind;
  /** The pass-through query's endpoint. */
  url: string;
  /** The p50 floor's replay route (wave-replay.ts): POST replays the script last set. */
  replayUrl: string;
  mode: GatewayMode;
  /** The floor process's CPU time so far (user + system, µs); null in-process. */
  cpuMicros(): Promise<number | null>;
  /** Where its requests' time went (phase-clock.ts); reads null in-process. */
  phases: PhaseReader;
  /** A query's CPU floor, measured where the floor runs (graph-floor.ts). */
  measureGraph(request: GraphFloorRequest): Promise<GraphFloorMeasure>;
  /** Sets what the replay route replays (resolves once the floor has it). */
  setReplay(script: ReplayScript): Promise<void>;
  close(): Promise<void>;
}

function replayUrl(url: string): string {
  return new URL(REPLAY_PATH, url).href;
}

export async function startFloorProcess(mode: GatewayMode, kind: FloorKind, upstreamOrigin: string): Promise<FloorHandle> {
  const script = compiledChild('floor-child');
  if (mode === 'child' && script !== null) return startFloorChild(script, kind, upstreamOrigin);
  const floor = await startFloorInstance(kind, upstreamOrigin);
  return {
    kind,
    url: floor.url,
    replayUrl: replayUrl(floor.url),
    mode: 'in-process',
    cpuMicros: () => Promise.resolve(null),
    phases: NO_PHASES,
    measureGraph: (request) => floor.measureGraph(request),
    setReplay: async (replay) => floor.setReplay(replay),
    close: () => floor.close(),
  };
}

/** A floor server in a child process running `script` (the compiled floor-child.ts; tests pass a bundle of it). */
export async function startFloorChild(script: string, kind: FloorKind, upstreamOrigin: string): Promise<FloorHandle> {
  const child = await startChild(script, { FLOOR_KIND: kind, FLOOR_UPSTREAM: upstreamOrigin }, `${kind} floor child`);
  return {
    kind,
    url: child.url,
    replayUrl: replayUrl(child.url),
    mode: 'child',
    cpuMicros: () => child.cpuMicros(),
    phases: child.phases,
    measureGraph: async (request) => readGraphFloorMeasure(await child.ask('network-graph-floor', { ...request })),
    setReplay: async (replay) => void (await child.ask('replay-script', { ...replay })),
    close: () => child.close(),
  };
}
