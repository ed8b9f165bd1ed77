/** Which handler answers a request, by path: GraphQL and its stream, the IDE, MCP, the map, health and metrics. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_PATH } from '../doors/mcp/handler';
import { requestIdFrom } from '../core/caller';
import { GRAPHQL_PATH, STREAM_PATH, type GatewayParts } from './compose';
import { sendJson } from './health';

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export function createRoutes(parts: Pick<GatewayParts, 'httpDoor' | 'metrics' | 'sse' | 'ide' | 'mcp' | 'map' | 'health'>): Handler {
  const { httpDoor, metrics, sse, ide, mcp, map, health } = parts;

  async function serveGraphQL(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const started = performance.now();
    const requestId = requestIdFrom(req.headers);
    res.setHeader('x-request-id', requestId);
    await httpDoor.serve(req, res, requestId);
    metrics.observeRequest(res.statusCode, (performance.now() - started) / 1000);
  }

  return async function handle(req, res) {
    const target = req.url ?? '/';
    const query = target.indexOf('?');
    const path = query < 0 ? target : target.slice(0, query);
    if (path === GRAPHQL_PATH || path.startsWith(`${GRAPHQL_PATH}/`)) {
      if (path === STREAM_PATH) return sse.handle(req, res);
      if (ide(req, res)) return;
      if (path === GRAPHQL_PATH) return serveGraphQL(req, res);
    }
    if (path === MCP_PATH) return mcp(req, res);
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
