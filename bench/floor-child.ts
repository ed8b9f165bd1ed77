/**
 * Entry of a floor child process (see floor-launcher.ts): the floor (floor-instance.ts) of
 * `FLOOR_KIND` (raw or apollo) against the sandbox at `FLOOR_UPSTREAM`, served over IPC by
 * child-ipc.ts like the gateway child; it also answers `network-graph-floor` (a query's CPU floor,
 * graph-floor.ts) and `replay-script` (what its replay route replays, wave-replay.ts).
 */
import { serveChild } from './child-ipc';
import { startFloorInstance, type FloorInstance } from './floor-instance';
import { isFloorKind } from './floor-kind';
import { readGraphFloorRequest } from './graph-floor';
import { readReplayScript } from './wave-replay';

const kind = process.env['FLOOR_KIND'];
const origin = process.env['FLOOR_UPSTREAM'] ?? '';
let floor: FloorInstance | null = null;

/** Questions come only after `ready`, so the floor has started by then. */
function started(): FloorInstance {
  if (floor === null) throw new Error('the floor has not started');
  return floor;
}

serveChild(
  `${String(kind)} floor child`,
  async () => {
    if (!isFloorKind(kind)) throw new Error(`FLOOR_KIND: expected raw or apollo, got ${String(kind)}`);
    floor = await startFloorInstance(kind, origin);
    return floor;
  },
  {
    // Async, so a bad message is a refused question, never an exception in the message handler.
    'network-graph-floor': async (message) => started().measureGraph(readGraphFloorRequest(message)),
    'replay-script': async (message) => {
      started().setReplay(readReplayScript(message));
      return null;
    },
  },
);
