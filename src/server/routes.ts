/**
 * Which handler answers a request, by path: the IDE for browsers at the GraphQL path, then the
 * doors (each at its own path, from the one list), the map, health and metrics. Upgrades go to the
 * door mounted at their path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { GatewayDoor, RequestHandler, UpgradeHandler } from '../doors/door';
import { GRAPHQL_PATH, type GatewayParts } from './compose';
import { sendJson } from './health';

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

/** The doors' handlers of one kind by path; two doors at one path for one kind is a wiring mistake. */
function byPath<H>(doors: readonly GatewayDoor[], kind: 'request' | 'upgrade'): Map<string, H> {
  const at = new Map<string, H>();
  for (const door of doors) {
    const handler = door.mount[kind];
    if (handler === undefined) continue;
    if (at.has(door.mount.path)) throw new Error(`two doors take ${kind}s at ${door.mount.path}`);
    at.set(door.mount.path, handler as H);
  }
  return at;
}

export function createRoutes(parts: Pick<GatewayParts, 'doors' | 'ide' | 'map' | 'health'>): Handler {
  const { ide, map, health } = parts;
  const doorAt = byPath<RequestHandler>(parts.doors, 'request');

  return async function handle(req, res) {
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const path = query < 0 ? target : target.slice(0, query);
    // A browser at the GraphQL path gets the IDE (its assets under it), before the HTTP door.
    if ((path === GRAPHQL_PATH || path.startsWith(`${GRAPHQL_PATH}/`)) && ide(req, res)) return;
    const door = doorAt.get(path);
    if (door) return door(req, res);
    if (await map(req, res)) return;
    const route = health[path];
    if (route && (req.method === 'GET' || req.method === 'HEAD')) {
      await route(req, res);
      return;
    }
    if (path === '/') {
      res.writeHead(302, { location: GRAPHQL_PATH });
      res.end();
      return;
    }
    sendJson(res, 404, { error: `no route for ${req.method ?? 'GET'} ${path}` });
  };
}

/** The server's upgrades: each to the door mounted at its path; one at a path no door takes is dropped. */
export function createUpgrades(doors: readonly GatewayDoor[]): UpgradeHandler {
  const doorAt = byPath<UpgradeHandler>(doors, 'upgrade');
  return (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const door = doorAt.get((req.url ?? '/').split('?')[0] ?? '/');
    if (door) door(req, socket, head);
    else socket.destroy();
  };
}
