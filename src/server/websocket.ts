/**
 * Subscriptions (and any operation) over WebSocket (`graphql-transport-ws`, the graphql-ws
 * library) at the GraphQL path. The token comes in the `connection_init` payload
 * `{ authorization: "Bearer …" }`; a connection is one socket. The operation life cycle (signal,
 * fresh context per event, per-connection bound, log line) is operations.ts's, shared with SSE.
 */
import type { Server as HttpServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import { getOperationAST, type GraphQLSchema } from 'graphql';
import type { GatewayContext } from '../context';
import type { Connection, OperationRunner } from './operations';

export interface WebSocketServerOptions {
  httpServer: HttpServer;
  path: string;
  schema: GraphQLSchema;
  runner: OperationRunner;
}

export interface SubscriptionServer {
  /** Close every socket (1001 going away) and stop accepting upgrades. */
  close(): Promise<void>;
}

/** The token from `connection_init`; `null` means the payload is unusable (reject), undefined means none. */
export function tokenFromConnectionParams(params: unknown): string | undefined | null {
  if (params === undefined || params === null) return undefined;
  if (typeof params !== 'object' || Array.isArray(params)) return null;
  const entry = Object.entries(params).find(([key]) => key.toLowerCase() === 'authorization');
  if (!entry) return undefined;
  const value: unknown = entry[1];
  return typeof value === 'string' && /^\S+\s+\S+$/.test(value.trim()) ? value.trim() : null;
}

interface SocketState {
  token: string | undefined;
  connection: Connection;
  /** Running operations by graphql-ws operation id: onError/onComplete get the id, not the context. */
  operations: Map<string, GatewayContext>;
}

export function startWebSocketServer(options: WebSocketServerOptions): SubscriptionServer {
  const { runner } = options;
  const wss = new WebSocketServer({ server: options.httpServer, path: options.path });
  const sockets = new WeakMap<object, SocketState>();

  const disposable = useServer<Record<string, unknown> | undefined>(
    {
      schema: options.schema,
      onConnect(ctx) {
        const token = tokenFromConnectionParams(ctx.connectionParams);
        if (token === null) return false; // closes with 4403 Forbidden
        sockets.set(ctx.extra.socket, { token, connection: { transport: 'ws', subscriptions: 0 }, operations: new Map() });
        return true;
      },
      // The document's size and tokens, before graphql-ws parses and validates it (no context is
      // made for a refused one, so its log line is made here).
      onSubscribe(_ctx, _id, payload) {
        const refused = runner.checkDocument(payload.query);
        if (refused === null) return undefined;
        runner.refusedBeforeStart('ws', refused);
        return refused;
      },
      context(ctx, id, _payload, args) {
        const socket = sockets.get(ctx.extra.socket);
        const operationName = getOperationAST(args.document, args.operationName)?.name?.value ?? null;
        const context = runner.start(socket?.connection ?? { transport: 'ws', subscriptions: 0 }, socket?.token, operationName, ctx.extra.request.headers);
        socket?.operations.set(id, context);
        return context;
      },
      execute: (args) => runner.execute(args),
      subscribe: (args) => runner.subscribe(args),
      onNext: (_ctx, _id, _payload, args, result) => runner.formatResult(args.contextValue, result),
      onError: (ctx, id, _payload, errors) => runner.formatErrors(sockets.get(ctx.extra.socket)?.operations.get(id), errors),
      onComplete(ctx, id) {
        const operations = sockets.get(ctx.extra.socket)?.operations;
        runner.complete(operations?.get(id));
        operations?.delete(id);
      },
    },
    wss,
  );

  return {
    async close() {
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
