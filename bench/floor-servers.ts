/**
 * The two pass-through floors: the least a Node gateway on this stack can do for
 * `network(id:) { id name }`, to set the gateway's figures against.
 *
 * - `raw`: node:http + one undici Pool — read the body, JSON.parse it, one GET of the network with
 *   the caller's Authorization, parse the upstream body as the gateway does (its text,
 *   JSON.parse), answer compact JSON. No GraphQL.
 * - `apollo`: the same through Apollo Server 5's `executeHTTPGraphQLRequest` (as
 *   src/server/graphql-http.ts calls it) over a two-type schema: Apollo's HTTP pipeline, no more.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { ApolloServer, HeaderMap } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { Pool } from 'undici';
import { isObject, type JsonObject } from '../src/core/parse';
import type { ChildServer } from './child-ipc';
import type { FloorKind } from './floor-kind';

/** The floors' document: the gateway's pass-through query over the floor schema's `ID`. */
export const FLOOR_QUERY = 'query passthrough($id: ID!) { network(id: $id) { id name } }';

/** The sandbox, as the floors reach it: one keep-alive Pool of 64 connections, like the gateway's per origin. */
export interface FloorUpstream {
  /** GET `path` with the caller's Authorization; the body as the gateway reads it (throws on a non-200 answer). */
  getBody(path: string, authorization: string | undefined): Promise<string>;
  close(): Promise<void>;
}

export function createFloorUpstream(origin: string): FloorUpstream {
  const pool = new Pool(origin, { connections: 64 });
  return {
    async getBody(path, authorization) {
      const headers: Record<string, string> = { accept: 'application/json' };
      if (authorization !== undefined) headers['authorization'] = authorization;
      const res = await pool.request({ method: 'GET', path, headers });
      // As the gateway's HTTP layer reads a body (src/upstream/http.ts).
      const body = await res.body.text();
      if (res.statusCode !== 200) throw new Error(`GET ${path}: the sandbox answered ${res.statusCode}`);
      return body;
    },
    close: () => pool.close(),
  };
}

async function getNetwork(upstream: FloorUpstream, id: unknown, authorization: string | undefined): Promise<JsonObject> {
  if (typeof id !== 'string') throw new Error('variables.id: expected a string');
  const record: unknown = JSON.parse(await upstream.getBody(`/rest/v1/networks/${encodeURIComponent(id)}`, authorization));
  if (!isObject(record)) throw new Error('the network record is not an object');
  return record;
}

/** The request body as text (data events, as graphql-http.ts reads it). */
export function readText(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.once('error', reject);
    req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

function rawHandler(upstream: FloorUpstream): Handler {
  return async (req, res) => {
    const body: unknown = JSON.parse(await readText(req));
    const variables = isObject(body) ? body['variables'] : undefined;
    const record = await getNetwork(upstream, isObject(variables) ? variables['id'] : undefined, req.headers.authorization);
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    res.end(JSON.stringify({ data: { network: { id: record['id'], name: record['name'] } } }));
  };
}

interface FloorContext {
  authorization: string | undefined;
}

async function apolloHandler(upstream: FloorUpstream): Promise<{ handle: Handler; stop(): Promise<void> }> {
  const apollo = new ApolloServer<FloorContext>({
    typeDefs: 'type Query { network(id: ID!): Network } type Network { id: ID! name: String }',
    resolvers: {
      Query: { network: (_: unknown, args: Record<string, unknown>, context: FloorContext) => getNetwork(upstream, args['id'], context.authorization) },
    },
    // As the gateway configures it (src/server/index.ts): compact JSON, CSRF prevention, no landing page, no cache control.
    stringifyResult: (result) => JSON.stringify(result),
    csrfPrevention: true,
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled()],
  });
  await apollo.start();
  const handle: Handler = async (req, res) => {
    const headers = new HeaderMap();
    for (const [key, value] of Object.entries(req.headers)) if (value !== undefined) headers.set(key, Array.isArray(value) ? value.join(', ') : value);
    const body: unknown = JSON.parse(await readText(req));
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method ?? 'POST', headers, search: '', body },
      context: () => Promise.resolve({ authorization: req.headers.authorization }),
    });
    for (const [key, value] of response.headers) res.setHeader(key, value);
    res.statusCode = response.status ?? 200;
    if (response.body.kind !== 'complete') throw new Error('the floor schema has no incremental delivery');
    res.end(response.body.string);
  };
  return { handle, stop: () => apollo.stop() };
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') reject(new Error('floor server: no TCP address'));
      else resolve(`http://127.0.0.1:${address.port}/graphql`);
    });
  });
}

/**
 * A floor server of `kind` on 127.0.0.1 (port 0) over `upstream` (which it does not close); a
 * request to one of `routes`' paths goes to that handler instead (the p50 floor's replay).
 */
export async function startFloorServer(kind: FloorKind, upstream: FloorUpstream, routes: Record<string, Handler> = {}): Promise<ChildServer> {
  const { handle, stop } = kind === 'raw' ? { handle: rawHandler(upstream), stop: () => Promise.resolve() } : await apolloHandler(upstream);
  const server = createServer((req, res) => {
    const route = req.url !== undefined && Object.hasOwn(routes, req.url) ? routes[req.url] : undefined;
    (route ?? handle)(req, res).catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(err instanceof Error ? err.message : String(err));
    });
  });
  const url = await listen(server);
  return {
    url,
    close: async () => {
      const closed = new Promise<void>((done) => server.close(() => done()));
      // Idle keep-alive connections of the load client would hold close() open.
      server.closeAllConnections();
      await closed;
      await stop();
    },
  };
}
