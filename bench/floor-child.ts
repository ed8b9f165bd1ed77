/**
 * Entry of a floor child process (see floor-launcher.ts): the floor server of `FLOOR_KIND`
 * (raw or apollo) against the sandbox at `FLOOR_UPSTREAM`, served over IPC by child-ipc.ts like the
 * gateway child; it also answers `network-graph-floor` (graph-floor.ts) over the same Pool.
 */
import { serveChild } from './child-ipc';
import { isFloorKind } from './floor-kind';
import { createFloorUpstream, startFloorServer } from './floor-servers';
import { measureGraphFloor, readGraphFloorRequest } from './graph-floor';

const kind = process.env['FLOOR_KIND'];
const origin = process.env['FLOOR_UPSTREAM'] ?? '';
const upstream = createFloorUpstream(origin);

serveChild(
  `${String(kind)} floor child`,
  async () => {
    if (!isFloorKind(kind)) throw new Error(`FLOOR_KIND: expected raw or apollo, got ${String(kind)}`);
    const server = await startFloorServer(kind, upstream);
    return { url: server.url, close: () => server.close().then(() => upstream.close()) };
  },
  { 'network-graph-floor': (message) => measureGraphFloor(upstream, readGraphFloorRequest(message)) },
);
