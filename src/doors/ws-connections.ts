/**
 * graphql-ws's server (`makeServer`) on `ws` sockets: what graphql-ws's own `useServer` does, with
 * two differences for a follower's memory. Each message is offered to the door first (`take`: the
 * door runs a subscription's `subscribe` itself, ws-subscriptions.ts) and only what it leaves goes
 * to graphql-ws (connection_init, ping/pong, queries, mutations, complete). And the keep-alive is
 * one timer for every socket (a ping each interval; a socket that has not answered the previous
 * one by the next is terminated) instead of an interval and a listener per socket.
 */
import type { IncomingMessage } from 'node:http';
import type { CallerInput } from '../core/caller';
import { CloseCode, makeServer, type ServerOptions } from 'graphql-ws';
import type { WebSocket, WebSocketServer } from 'ws';

/**
 * What the door needs later of a socket's upgrade request, to build its callers: the socket's
 * address (the client's, once worked out through the trusted proxies) and the few headers a
 * caller reads (request id, trace context). Made once at the upgrade and frozen, so the request
 * (its headers, its parser's leftovers) goes as soon as the handshake is done.
 */
export type Peer = Readonly<Pick<CallerInput, 'socketAddress' | 'headers'>>;

/** The headers a caller reads besides the client's address (src/core/caller.ts). */
const PEER_HEADERS = ['x-request-id', 'traceparent', 'tracestate'] as const;

/** `request`'s peer, with `clientAddress` (already worked out from the socket and the trusted proxies) as its address. */
export function peerOf(request: IncomingMessage, clientAddress: string | undefined): Peer {
  let headers: Record<string, string | string[] | undefined> | null = null;
  for (const name of PEER_HEADERS) {
    const value = request.headers[name];
    if (value !== undefined) (headers ??= {})[name] = value;
  }
  // Most clients send none of them: their peers share one empty object.
  return Object.freeze({ socketAddress: clientAddress, headers: headers === null ? NO_HEADERS : Object.freeze(headers) });
}

const NO_HEADERS: Peer['headers'] = Object.freeze({});

/** What graphql-ws's context carries for each socket (`ctx.extra`): the socket and its peer, not the upgrade request. */
export interface SocketExtra {
  readonly socket: WebSocket;
  readonly peer: Peer;
}

/** graphql-ws's keep-alive interval (`useServer`'s default). */
export const KEEP_ALIVE_MS = 12_000;

/** One timer pinging every open socket; a socket that did not answer the previous ping goes. */
class KeepAlive {
  private readonly sockets = new Set<WebSocket>();
  private readonly unanswered = new Set<WebSocket>();
  private readonly timer: NodeJS.Timeout;
  /** One listener for every socket (ws calls it with its socket as `this`): no closure per socket. */
  private readonly onPong: (this: WebSocket) => void;

  constructor(intervalMs: number) {
    const unanswered = this.unanswered;
    this.onPong = function (this: WebSocket): void {
      unanswered.delete(this);
    };
    this.timer = setInterval(() => this.tick(), intervalMs);
    this.timer.unref();
  }

  add(socket: WebSocket): void {
    this.sockets.add(socket);
    socket.on('pong', this.onPong);
  }

  delete(socket: WebSocket): void {
    this.sockets.delete(socket);
    this.unanswered.delete(socket);
  }

  stop(): void {
    clearInterval(this.timer);
  }

  private tick(): void {
    for (const socket of this.sockets) {
      if (socket.readyState !== socket.OPEN) continue;
      if (this.unanswered.has(socket)) {
        socket.terminate();
        continue;
      }
      this.unanswered.add(socket);
      socket.ping();
    }
  }
}

function onSocketError(this: WebSocket, error: Error): void {
  // A frame `ws` refused (too large, malformed): it closes the socket with the protocol's code
  // itself, and the door notes that close; a client's mistake is not the server's error.
  if ('code' in error && typeof error.code === 'string' && error.code.startsWith('WS_ERR_')) return;
  console.error('Internal error emitted on a WebSocket socket.', error);
  this.close(CloseCode.InternalServerError, 'Internal server error');
}

/** A send graphql-ws awaits: resolved once queued (a closed socket sends nothing, as `useServer` does). */
function sendOn(socket: WebSocket, data: string): Promise<void> {
  return new Promise((resolve, reject) => {
    if (socket.readyState !== socket.OPEN) return resolve();
    socket.send(data, (err) => (err ? reject(err) : resolve()));
  });
}

type Take = (socket: WebSocket, text: string) => boolean;
type OnMessage = (data: string) => Promise<void>;

/**
 * A socket as graphql-ws's server sees it (`protocol`, `send`, `close`, `onMessage`): methods of
 * one class, not four closures per socket. Its messages and its close come through one listener
 * each for every socket (`serveConnections`), which finds the socket's wire.
 */
class Wire {
  /** graphql-ws's handler of the socket's messages, once it gave one. */
  handle: OnMessage | null = null;
  /** graphql-ws's "the socket closed", once it opened the socket. */
  closed: ((code: number, reason: string) => Promise<void>) | null = null;

  constructor(readonly socket: WebSocket) {}

  get protocol(): string {
    return this.socket.protocol;
  }

  send(data: string): Promise<void> {
    return sendOn(this.socket, data);
  }

  close(code: number, reason: string): void {
    this.socket.close(code, reason);
  }

  onMessage(handle: OnMessage): void {
    this.handle = handle;
  }
}

/**
 * Serves graphql-transport-ws on the sockets handed to `open` (with their peer); `take` is
 * offered each text message first (true: the door handled it). `dispose` closes every socket and
 * the server.
 */
export function serveConnections<P extends Record<string, unknown> | undefined>(
  wss: WebSocketServer,
  options: ServerOptions<P, SocketExtra>,
  take: Take,
  keepAliveMs = KEEP_ALIVE_MS,
): { open(socket: WebSocket, peer: Peer): void; dispose(): Promise<void> } {
  const server = makeServer<P, SocketExtra>(options);
  const keepAlive = new KeepAlive(keepAliveMs);
  const wires = new WeakMap<WebSocket, Wire>();

  // One listener of each kind for every socket (ws calls it with its socket as `this`).
  function onSocketMessage(this: WebSocket, data: Buffer): void {
    const text = String(data);
    if (take(this, text)) return;
    const handle = wires.get(this)?.handle;
    handle?.(text).catch((err: unknown) => {
      console.error('Internal error occurred during message handling.', err);
      this.close(CloseCode.InternalServerError, 'Internal server error');
    });
  }

  function onSocketClose(this: WebSocket, code: number, reason: Buffer): void {
    keepAlive.delete(this);
    const closed = wires.get(this)?.closed;
    wires.delete(this);
    if (closed) void closed(code, String(reason));
  }

  function open(socket: WebSocket, peer: Peer): void {
    // `on` for events that come once: `once` wraps each listener for the socket's whole life.
    socket.on('error', onSocketError);
    keepAlive.add(socket);
    const wire = new Wire(socket);
    wires.set(socket, wire);
    socket.on('message', onSocketMessage);
    wire.closed = server.opened(wire, { socket, peer });
    socket.on('close', onSocketClose);
  }
  return {
    open,
    async dispose() {
      keepAlive.stop();
      for (const client of wss.clients) client.close(1001, 'Going away');
      wss.removeAllListeners();
      await new Promise<void>((resolve, reject) => wss.close((err) => (err ? reject(err) : resolve())));
    },
  };
}
