/**
 * The WebSocket door's graphql-ws glue (ws-connections.ts) on real sockets: one keep-alive timer
 * pings every socket; a client that answers stays, one that does not is terminated at the next
 * ping; a message the door takes never reaches graphql-ws, the others do.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildSchema } from 'graphql';
import { WebSocket, WebSocketServer } from 'ws';
import { peerOf, serveConnections, type Peer } from '../../../src/doors/ws-connections';
import { waitUntil } from '../../helpers/wait';

const schema = buildSchema('type Query { hello: String }');
let server: Server;
let wss: WebSocketServer;
let dispose: () => Promise<void>;
const taken: string[] = [];
const peers: Peer[] = [];

beforeAll(async () => {
  server = createServer();
  wss = new WebSocketServer({ server });
  const served = serveConnections(
    wss,
    {
      schema,
      onConnect: (ctx) => {
        peers.push(ctx.extra.peer);
        return true;
      },
    },
    (_socket, text) => {
      if (!text.includes('"taken"')) return false;
      taken.push(text);
      return true;
    },
    50,
  );
  wss.on('connection', (socket: WebSocket, request: IncomingMessage) => served.open(socket, peerOf(request, request.socket.remoteAddress)));
  dispose = served.dispose;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await dispose();
  await new Promise((resolve) => server.close(resolve));
});

function open(autoPong: boolean, headers: Record<string, string> = {}): Promise<{ socket: WebSocket; messages: string[]; closed: { code: number | null } }> {
  const { port } = server.address() as AddressInfo;
  const socket = new WebSocket(`ws://127.0.0.1:${port}`, 'graphql-transport-ws', { autoPong, headers });
  const messages: string[] = [];
  const closed: { code: number | null } = { code: null };
  socket.on('message', (data: Buffer) => messages.push(data.toString()));
  socket.on('close', (code: number) => (closed.code = code));
  return new Promise((resolve) => socket.once('open', () => resolve({ socket, messages, closed })));
}

it('a socket that answers pings stays; one that does not is terminated', async () => {
  const answering = await open(true);
  const silent = await open(false);
  let pings = 0;
  answering.socket.on('ping', () => (pings += 1));
  await waitUntil(() => silent.closed.code !== null, 'the silent socket closed');
  // Terminated, not closed with a code: the close is abnormal (1006) on the client's side.
  expect(silent.closed.code).toBe(1006);
  await waitUntil(() => pings >= 3, 'three pings answered');
  expect(answering.closed.code).toBeNull();
  answering.socket.close();
});

it('graphql-ws answers what the door leaves; what the door takes it never sees', async () => {
  const { socket, messages } = await open(true);
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await waitUntil(() => messages.some((m) => m.includes('connection_ack')), 'connection_ack');
  socket.send(JSON.stringify({ id: 'taken', type: 'subscribe', payload: { query: '{ hello }' } }));
  socket.send(JSON.stringify({ id: 'q', type: 'subscribe', payload: { query: '{ hello }' } }));
  await waitUntil(() => messages.some((m) => m.includes('"id":"q"') && m.includes('complete')), 'the query answered');
  expect(taken).toHaveLength(1);
  expect(messages.filter((m) => m.includes('"taken"'))).toEqual([]);
  socket.close();
});

it("keeps of the upgrade request only the socket's address and the headers a caller reads", async () => {
  const { socket, messages } = await open(true, { 'x-request-id': 'req-7', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01', cookie: 'session=secret', 'x-large': 'x'.repeat(4096) });
  socket.send(JSON.stringify({ type: 'connection_init' }));
  await waitUntil(() => messages.some((m) => m.includes('connection_ack')), 'connection_ack');
  const peer = peers[peers.length - 1];
  expect(peer?.socketAddress).toBe('127.0.0.1');
  expect(peer?.headers).toEqual({ 'x-request-id': 'req-7', traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' });
  expect(Object.isFrozen(peer) && Object.isFrozen(peer?.headers)).toBe(true);
  socket.close();
});
