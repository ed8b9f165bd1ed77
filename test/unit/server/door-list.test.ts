/**
 * The server knows its doors only as one list of `GatewayDoor`s: requests and upgrades go to the
 * door mounted at their path, every door stops before the requests in flight drain and releases
 * what it held after, in the list's order.
 */
import { EventEmitter } from 'node:events';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { GatewayDoor } from '../../../src/doors/door';
import { closer, doorReleases, doorStops } from '../../../src/server/lifecycle';
import { createRoutes, createUpgrades } from '../../../src/server/routes';

interface FakeDoor extends GatewayDoor<{ requests: number; upgrades: number }> {
  readonly seen: { requests: number; upgrades: number };
}

function fakeDoor(name: GatewayDoor['name'], path: string, kinds: { request?: boolean; upgrade?: boolean; release?: boolean }, events: string[]): FakeDoor {
  const seen = { requests: 0, upgrades: 0 };
  return {
    name,
    seen,
    mount: {
      path,
      ...(kinds.request ? { request: async () => void (seen.requests += 1) } : {}),
      ...(kinds.upgrade ? { upgrade: () => void (seen.upgrades += 1) } : {}),
    },
    stop: () => void events.push(`stop ${name}`),
    ...(kinds.release ? { release: () => void events.push(`release ${name}`) } : {}),
    stats: () => ({ ...seen }),
  };
}

const request = (url: string, method = 'POST'): IncomingMessage => ({ url, method, headers: {} }) as IncomingMessage;

/** A response that records its status (the router's own answers: 404, the redirect). */
function response(): ServerResponse & { status: number | null } {
  const res = Object.assign(new EventEmitter(), {
    status: null as number | null,
    writeHead(status: number) {
      res.status = status;
      return res;
    },
    setHeader: () => res,
    end: () => res,
  });
  return res as unknown as ServerResponse & { status: number | null };
}

function doors(events: string[] = []): FakeDoor[] {
  return [
    fakeDoor('http', '/graphql', { request: true, release: true }, events),
    fakeDoor('ws', '/graphql', { upgrade: true }, events),
    fakeDoor('sse', '/graphql/stream', { request: true }, events),
    fakeDoor('mcp', '/mcp', { request: true }, events),
  ];
}

const parts = (list: readonly GatewayDoor[]) => ({ doors: list, ide: () => false, map: async () => false, health: {} });

describe('routing by the door list', () => {
  it('sends each request to the door mounted at its path, whatever its query string, and nothing else to any door', async () => {
    const list = doors();
    const handle = createRoutes(parts(list));
    await handle(request('/graphql?query=%7Ba%7D', 'GET'), response());
    await handle(request('/graphql/stream'), response());
    await handle(request('/mcp'), response());
    const unknown = response();
    await handle(request('/graphql/other'), unknown);
    expect(unknown.status).toBe(404);
    expect(list.map((d) => [d.name, d.seen])).toEqual([
      ['http', { requests: 1, upgrades: 0 }],
      ['ws', { requests: 0, upgrades: 0 }],
      ['sse', { requests: 1, upgrades: 0 }],
      ['mcp', { requests: 1, upgrades: 0 }],
    ]);
  });

  it('sends an upgrade to the door taking upgrades at its path, and drops one at a path no door takes', () => {
    const list = doors();
    const upgrade = createUpgrades(list);
    const destroyed: string[] = [];
    const socket = (url: string): Duplex => ({ destroy: () => void destroyed.push(url) }) as unknown as Duplex;
    upgrade(request('/graphql?x=1', 'GET'), socket('/graphql'), Buffer.alloc(0));
    upgrade(request('/mcp', 'GET'), socket('/mcp'), Buffer.alloc(0));
    expect(list.find((d) => d.name === 'ws')?.seen.upgrades).toBe(1);
    expect(destroyed).toEqual(['/mcp']);
  });

  it('refuses two doors answering requests at one path (a wiring mistake, found at start-up)', () => {
    const events: string[] = [];
    expect(() => createRoutes(parts([fakeDoor('http', '/graphql', { request: true }, events), fakeDoor('sse', '/graphql', { request: true }, events)]))).toThrow(/two doors/);
  });
});

describe('stopping the door list', () => {
  it('stops every door before the drain and releases after it, in the list order', async () => {
    const events: string[] = [];
    const list = doors(events);
    const close = closer(() => [{ name: 'listening', close: () => void events.push('listening') }, ...doorStops(list), { name: 'drain', close: () => void events.push('drain') }, ...doorReleases(list)]);
    await close();
    expect(events).toEqual(['listening', 'stop http', 'stop ws', 'stop sse', 'stop mcp', 'drain', 'release http']);
  });
});
