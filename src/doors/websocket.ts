/**
 * The WebSocket door: `graphql-transport-ws` (the graphql-ws library) at the GraphQL path. The
 * token comes in the `connection_init` payload `{ authorization: "Bearer …" }`; a connection is
 * one socket. Every operation goes through the pipeline: a subscription given as text is run by
 * the door itself (ws-subscriptions.ts: a follower is a small record, not graphql-ws's loop), the
 * rest in graphql-ws's `onSubscribe` (ws-connections.ts serves graphql-ws). A refusal is the
 * protocol's `error` message, a query's or mutation's answer one `next`, a subscription's events
 * each a `next`. The door's own limits: a message is at most the HTTP body limit (larger closes
 * the socket, 1009), connections in all and per client address (through the trusted proxies, IPv6
 * by /64), an optional Origin allowlist, and the bytes a socket may hold unsent (past them it
 * closes, 1013: ws-backpressure.ts), and the operations one socket has in flight (past them the
 * operation is refused, the socket stays). Every edge refusal (403, 429, a handshake `ws` refuses,
 * a protocol close such as 4401 or 4403: ws-refusals.ts) is logged and counted like the
 * pipeline's. A connection's slot is given back when its TCP socket closes, whether or not the
 * upgrade completed: `ws` never calls the upgrade callback for a handshake it refuses. A
 * subscription's slots (per socket, per verified identity) are taken by the pipeline before its
 * first await, so a burst of subscribe messages in one chunk counts each one.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, type WebSocket } from 'ws';
import { GraphQLError, parse, type ExecutionResult, type FormattedExecutionResult, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { Hold, SharedLimit } from '../core/shares';
import type { CallerFactory } from '../core/caller';
import { isStream, type AnswerStream, type Caller, type GraphQLParams, type Pipeline } from '../pipeline';
import { Cancellation } from '../core/cancellation';
import { edgeNotes, type GatewayDoor } from './door';
import { MAX_BODY_BYTES } from './http';
import { DoorSocket, type DoorSocketHooks } from './ws-backpressure';
import { handshakeRefusal, LEFT_BEFORE_HANDSHAKE, operationsRefusal, type EdgeRefusal } from './ws-refusals';
import { SerializedOnce } from './serialized-once';
import { nextMessage, SharedFrames, sharedPayloadReplacer } from './ws-shared-frames';
import { peerOf, serveConnections, type SocketExtra } from './ws-connections';
import { doorSubscriptions, InFlight, type FollowedSocket } from './ws-subscriptions';

export interface WebSocketDoorOptions {
  /** Where it takes upgrades (`/graphql`). */
  path: string;
  schema: GraphQLSchema;
  pipeline: Pipeline;
  /** WebSocket connections in all and per client address. */
  connections: SharedLimit;
  /** Origins allowed to open a socket (`WS_ALLOWED_ORIGINS`); null: any (a non-browser client sends none). */
  allowedOrigins: ReadonlySet<string> | null;
  /** The one way every door builds its caller (src/core/caller.ts). */
  callerOf: CallerFactory;
  /** `WS_MAX_BUFFERED_BYTES`: bytes a socket may hold unsent; a message past them closes it (1013). */
  maxBufferedBytes: number;
  /** `WS_MAX_OPERATIONS_PER_CONNECTION`: operations one socket may have in flight; past it one is refused (RATE_LIMITED). */
  maxOperationsPerConnection: number;
}

/**
 * Its stop closes every socket (1001 going away) and takes no more upgrades. Its stats: open
 * sockets, the bytes they hold unsent, how many were closed for reading too slowly, the results
 * serialized for `next` messages (one per result object, however many sockets it went to), and
 * the refusals noted at its edge.
 */
export type WebSocketDoor = GatewayDoor<{ sockets: number; bufferedBytes: number; maxBufferedBytes: number; closedSlow: number; serializations: number; refused: number }>;

/** The token from `connection_init`; `null` means the payload is unusable (reject), undefined means none. */
export function tokenFromConnectionParams(params: unknown): string | undefined | null {
  if (params === undefined || params === null) return undefined;
  if (typeof params !== 'object' || Array.isArray(params)) return null;
  const entry = Object.entries(params).find(([key]) => key.toLowerCase() === 'authorization');
  if (!entry) return undefined;
  const value: unknown = entry[1];
  return typeof value === 'string' && /^\S+\s+\S+$/.test(value.trim()) ? value.trim() : null;
}

/**
 * A socket's upgrade: its connection slot (given back when the TCP socket closes) and, until `ws`
 * took or refused the handshake, its caller (for the log line of a handshake that never ends).
 */
interface Upgrade {
  caller: Caller | null;
  readonly hold: Hold;
}

/** An acknowledged socket: its caller, its connection's counts, its operations in flight and streams, graphql-ws's context. */
type SocketState = FollowedSocket;

/** What `onSubscribe` hands graphql-ws to "execute": the pipeline's answer, already made. */
interface Precomputed {
  answer: FormattedExecutionResult | AnswerStream;
}

// graphql-ws needs a document to tell a subscription from a query; the pipeline has run it already.
const AS_QUERY = parse('query{__typename}');
const AS_SUBSCRIPTION = parse('subscription{__typename}');
const NOT_RUN: ExecutionResult = { errors: [new GraphQLError('not run by the pipeline')] };

/** graphql-ws sends `error` payloads by calling toJSON on GraphQLErrors: these give the formatted error. */
function wireErrors(formatted: readonly GraphQLFormattedError[]): GraphQLError[] {
  return formatted.map((f) => {
    const error = new GraphQLError(f.message);
    error.toJSON = () => f;
    return error;
  });
}

function isPrecomputed(value: unknown): value is Precomputed {
  return typeof value === 'object' && value !== null && 'answer' in value;
}

function isAnswerStream(answer: Precomputed['answer']): answer is AnswerStream {
  return Symbol.asyncIterator in answer;
}

function refuseUpgrade(socket: Duplex, status: number, reason: string, headers: Record<string, string> = {}): void {
  const lines = [`HTTP/1.1 ${status} ${reason}`, 'Connection: close', 'Content-Type: text/plain; charset=utf-8', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${reason}\n`);
}

/**
 * A handshake `ws` refuses (no or a bad Sec-WebSocket-Key, a bad version, a bad subprotocol
 * header…): answered here as `ws` would, and noted; the slot goes back when the socket closes.
 */
function answerRefusedHandshakes(wss: WebSocketServer, upgrades: WeakMap<Duplex, Upgrade>, note: (refusal: EdgeRefusal, caller: Caller) => void): void {
  wss.on('wsClientError', (error: Error, socket: Duplex) => {
    const refusal = handshakeRefusal(error.message);
    const upgrade = upgrades.get(socket);
    if (upgrade?.caller) {
      note(refusal, upgrade.caller);
      upgrade.caller = null;
    }
    refuseUpgrade(socket, refusal.status, error.message, refusal.headers);
  });
}

/** The open sockets and the bytes queued on them, in all and at most on one. */
function bufferedOf(open: ReadonlySet<WebSocket>): { sockets: number; bufferedBytes: number; maxBufferedBytes: number } {
  let bufferedBytes = 0;
  let maxBufferedBytes = 0;
  for (const ws of open) {
    bufferedBytes += ws.bufferedAmount;
    maxBufferedBytes = Math.max(maxBufferedBytes, ws.bufferedAmount);
  }
  return { sockets: open.size, bufferedBytes, maxBufferedBytes };
}

/** The pipeline's word on the operation's kind, asked only past the bound (a persisted query, not at hand here, counts as not one). */
function isSubscription(pipeline: Pipeline, payload: GraphQLParams): boolean {
  return typeof payload.query === 'string' && pipeline.checkText(payload.query, payload).type === 'subscription';
}

/** A socket whose `connection_init` was accepted: its caller (with the token), its slots; what it runs ends when it closes (`socketGone`). */
function acceptedSocket(ctx: SocketState['ctx'] & { extra: SocketExtra }, token: string | undefined, callerOf: CallerFactory): SocketState {
  return {
    ctx,
    caller: callerOf({ ...ctx.extra.peer, authorization: token, cancellation: new Cancellation() }),
    connection: { subscriptions: 0 },
    running: new InFlight(),
  };
}

/** An accepted socket closed: its caller's cancellation fires, and its operations in flight stop. */
function socketGone(state: SocketState): void {
  state.caller.cancellation.abort();
  state.running.abortAll();
}

/** A socket closed for reading slowly: its operations in flight and its subscriptions (graphql-ws's table of them) end now. */
function endOperations(state: SocketState): void {
  state.running.abortAll();
  for (const operation of Object.values(state.ctx.subscriptions)) {
    if (operation !== null && 'return' in operation) void operation.return(undefined);
  }
}

/**
 * What a socket's close does, as one listener for every socket of each kind (Node calls it with
 * the socket as `this`): no closure per socket. `tcp`: the upgrade's connection slot goes back, and
 * a handshake that never ended is noted. `ws`: an accepted socket's caller and operations stop.
 */
function closeListeners(upgrades: WeakMap<Duplex, Upgrade>, sockets: WeakMap<object, SocketState>, open: Set<WebSocket>, note: (refusal: EdgeRefusal, caller: Caller) => void): { tcp(this: Duplex): void; ws(this: WebSocket): void } {
  return {
    tcp(this: Duplex): void {
      const upgrade = upgrades.get(this);
      if (!upgrade) return;
      upgrades.delete(this);
      upgrade.hold.release();
      // `ws` destroys a half-closed socket without a word: still a refused handshake.
      if (upgrade.caller) note(LEFT_BEFORE_HANDSHAKE, upgrade.caller);
    },
    ws(this: WebSocket): void {
      open.delete(this);
      const state = sockets.get(this);
      if (state) socketGone(state);
    },
  };
}

export function createWebSocketDoor(options: WebSocketDoorOptions): WebSocketDoor {
  const { pipeline } = options;
  // A message over the HTTP body limit closes the socket (1009): no larger document arrives another way.
  // Every socket is a DoorSocket: its bounded sends and noted closes are methods, not closures per socket.
  const wss = new WebSocketServer<typeof DoorSocket>({ noServer: true, maxPayload: MAX_BODY_BYTES, WebSocket: DoorSocket });
  const sockets = new WeakMap<object, SocketState>();
  const open = new Set<WebSocket>();
  const upgrades = new WeakMap<Duplex, Upgrade>();
  let closedSlow = 0;
  let stopped = false;
  const edge = edgeNotes(pipeline, 'ws');
  // A result shared by many subscriptions (one event, one execution) is serialized once for all their sockets.
  const serialized = new SerializedOnce();
  const frames = new SharedFrames();

  /** An edge refusal, logged and counted like the pipeline's. */
  function note(refusal: EdgeRefusal, caller: Caller): void {
    edge.note([refusal.error], caller, refusal.status);
  }

  function onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    // Stopped: no new socket while the open ones are closing.
    if (stopped) return void socket.destroy();
    // The upgrade's caller: its address (and request id) for the connection cap and the log line.
    // It lets go of the request's headers once its address is worked out (for the cap).
    const caller = options.callerOf({ authorization: undefined, socketAddress: req.socket.remoteAddress, headers: req.headers });
    const origin = req.headers.origin;
    if (options.allowedOrigins && origin !== undefined && !options.allowedOrigins.has(origin)) {
      edge.note([{ message: 'this origin may not open a WebSocket here (WS_ALLOWED_ORIGINS)', extensions: { code: 'FORBIDDEN' } }], caller, 403);
      return refuseUpgrade(socket, 403, 'Forbidden');
    }
    const refused = options.connections.wouldRefuse(caller.addressKey);
    if (refused) {
      edge.note([{ message: refused.message, extensions: { code: refused.code, limit: refused.limit, scope: refused.scope, retryAfter: refused.retryAfter } }], caller, 429);
      return refuseUpgrade(socket, 429, 'Too Many Requests', { 'Retry-After': String(refused.retryAfter) });
    }
    // Given back when the TCP socket closes, on every path: an open WebSocket's close, a handshake
    // `ws` refuses (it answers and destroys the socket, never calling back), a client gone already.
    const hold = options.connections.take(caller.addressKey);
    if (socket.destroyed) hold.release();
    else {
      upgrades.set(socket, { caller, hold });
      socket.on('close', closed.tcp);
    }
    // What the socket's callers need later of the request; the request itself is not kept.
    const peer = peerOf(req, caller.clientAddress);
    wss.handleUpgrade(req, socket, head, (ws) => {
      const upgrade = upgrades.get(socket);
      if (upgrade) upgrade.caller = null; // settled: the socket's callers come from its peer now
      ws.hooks = hooks;
      ws.peer = peer;
      open.add(ws);
      ws.on('close', closed.ws);
      connections.open(ws, peer);
    });
  }

  const closed = closeListeners(upgrades, sockets, open, note);
  answerRefusedHandshakes(wss, upgrades, note);

  const hooks: DoorSocketHooks = {
    maxBufferedBytes: options.maxBufferedBytes,
    fragmentsOf: (ws, data) => frames.fragmentsOf(ws, data),
    // Closed for reading slowly: its operations end now, not when its close handshake does.
    slowReader(ws) {
      closedSlow += 1;
      const state = sockets.get(ws);
      if (state) endOperations(state);
    },
    closing: (ws, refusal) => note(refusal, sockets.get(ws)?.caller ?? options.callerOf({ socketAddress: ws.peer?.socketAddress, headers: ws.peer?.headers ?? {}, authorization: undefined })),
  };

  // A subscription's `subscribe` is run by the door (ws-subscriptions.ts); the rest by graphql-ws.
  const take = doorSubscriptions({
    pipeline,
    stateOf: (socket) => sockets.get(socket),
    sendNext(socket, id, result) {
      frames.hold(socket, id, serialized.bytesOf(result));
      if (socket.readyState === socket.OPEN) socket.send(nextMessage(id));
    },
  });

  const connections = serveConnections<Record<string, unknown> | undefined>(
    wss,
    {
      schema: options.schema,
      onConnect(ctx) {
        const token = tokenFromConnectionParams(ctx.connectionParams);
        if (token === null) return false; // closes with 4403 Forbidden
        // The payload (the token in clear among it) is read here only: graphql-ws sets it and never
        // reads it again, so the socket does not keep it for its life (the caller holds the token).
        Reflect.set(ctx, 'connectionParams', undefined); // set, not deleted: a delete makes the object a dictionary
        sockets.set(ctx.extra.socket, acceptedSocket(ctx, token, options.callerOf));
        return true;
      },
      async onSubscribe(ctx, _id, payload) {
        const state = sockets.get(ctx.extra.socket);
        if (!state) {
          const refusal: EdgeRefusal = { status: 401, error: { message: 'connection not initialised', extensions: { code: 'UNAUTHENTICATED' } } };
          note(refusal, options.callerOf({ ...ctx.extra.peer, authorization: undefined }));
          return wireErrors([refusal.error]);
        }
        // Counted before the first await: a burst of subscribe messages in one chunk counts each one.
        // Past the bound only a subscription goes on (its own bound is the pipeline's, per connection).
        if (state.running.size >= options.maxOperationsPerConnection && !isSubscription(pipeline, payload)) {
          const refusal = operationsRefusal(options.maxOperationsPerConnection);
          note(refusal, state.caller);
          return wireErrors([refusal.error]);
        }
        const cancellation = new Cancellation();
        state.running.add(cancellation);
        try {
          const answer = await pipeline.handle(payload, state.caller, { door: 'ws', cancellation, connection: state.connection, incremental: true });
          if (isStream(answer)) return { schema: options.schema, document: AS_SUBSCRIPTION, contextValue: { answer } satisfies Precomputed };
          // A document refused before anything ran is the protocol's `error` message; any other answer is a `next`.
          if (answer.documentRefused) return wireErrors(answer.result.errors ?? []);
          return { schema: options.schema, document: AS_QUERY, contextValue: { answer: answer.result } satisfies Precomputed };
        } finally {
          state.running.delete(cancellation);
        }
      },
      // graphql-ws types results with GraphQLError objects; the pipeline's are formatted already, and
      // onNext below sends them as they are.
      execute: (args) => (isPrecomputed(args.contextValue) && !isAnswerStream(args.contextValue.answer) ? (args.contextValue.answer as ExecutionResult) : NOT_RUN),
      subscribe: (args) => (isPrecomputed(args.contextValue) && isAnswerStream(args.contextValue.answer) ? (args.contextValue.answer as AsyncGenerator<ExecutionResult>) : NOT_RUN),
      // The pipeline formatted every result already: its bytes are made once per result object
      // and sent from there (ws-shared-frames.ts); graphql-ws builds the message around a stand-in.
      onNext: (ctx, id, _payload, _args, result) => frames.hold(ctx.extra.socket, id, serialized.bytesOf(result)),
      jsonMessageReplacer: sharedPayloadReplacer,
    },
    take,
  );

  return {
    name: 'ws',
    mount: { path: options.path, upgrade: onUpgrade },
    async stop() {
      stopped = true;
      await connections.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
    stats: () => ({ ...bufferedOf(open), closedSlow, serializations: serialized.serializations, refused: edge.refused() }),
  };
}

