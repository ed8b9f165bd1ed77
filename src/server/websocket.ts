/**
 * Subscriptions over WebSocket (`graphql-transport-ws`, the graphql-ws library) at the GraphQL path.
 * The token comes in the `connection_init` payload `{ authorization: "Bearer …" }`. Each operation
 * gets its own AbortSignal (aborted on complete or socket close), and each subscription event is
 * executed with a fresh context, so DataLoader caches never span events.
 */
import { setMaxListeners } from 'node:events';
import type { Server as HttpServer } from 'node:http';
import { WebSocketServer } from 'ws';
import { useServer } from 'graphql-ws/use/ws';
import {
  createSourceEventStream,
  execute,
  getOperationAST,
  GraphQLError,
  type ExecutionArgs,
  type ExecutionResult,
  type FormattedExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import type { GatewayContext } from '../context';
import { errorCodes, formatRequestLine, type LogFn } from './request-log';

/** Listeners allowed on one request's AbortSignal: each running or queued upstream call adds one. */
export const SIGNAL_LISTENERS = 10_000;

export interface SubscriptionServerOptions {
  httpServer: HttpServer;
  path: string;
  schema: GraphQLSchema;
  /** A context for one operation or one event of a subscription. */
  createContext(authorization: string | undefined, signal: AbortSignal, calls: { count: number }): GatewayContext;
  formatError(formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError;
  log: LogFn;
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

interface OperationState {
  controller: AbortController;
  calls: { count: number };
  started: number;
  operationName: string | null;
  codes: string[];
}

export function startSubscriptionServer(options: SubscriptionServerOptions): SubscriptionServer {
  const wss = new WebSocketServer({ server: options.httpServer, path: options.path });
  // Per socket: its token and its running operations.
  const tokens = new WeakMap<object, string | undefined>();
  const operations = new Map<string, OperationState>();
  const renew = new WeakMap<GatewayContext, Renewal>();
  const key = (socket: object, id: string): string => `${socketIds.get(socket) ?? 0}:${id}`;
  const socketIds = new WeakMap<object, number>();
  let nextSocketId = 1;

  const disposable = useServer<Record<string, unknown> | undefined, { token?: string }>(
    {
      schema: options.schema,
      async onConnect(ctx) {
        const token = tokenFromConnectionParams(ctx.connectionParams);
        if (token === null) return false; // closes with 4403 Forbidden
        socketIds.set(ctx.extra.socket, nextSocketId++);
        tokens.set(ctx.extra.socket, token);
        return true;
      },
      context(ctx, id, _payload, args) {
        const controller = new AbortController();
        setMaxListeners(SIGNAL_LISTENERS, controller.signal);
        const state: OperationState = {
          controller,
          calls: { count: 0 },
          started: performance.now(),
          operationName: getOperationAST(args.document, args.operationName)?.name?.value ?? null,
          codes: [],
        };
        operations.set(key(ctx.extra.socket, id), state);
        const token = tokens.get(ctx.extra.socket);
        const make = (): GatewayContext => options.createContext(token, state.controller.signal, state.calls);
        const context = make();
        renew.set(context, { make, abort: () => state.controller.abort() });
        return context;
      },
      subscribe: (args) => subscribeWithFreshContexts(args, renew),
      onNext(ctx, id, _payload, _args, result) {
        const formatted = formatResult(result, options.formatError);
        operations.get(key(ctx.extra.socket, id))?.codes.push(...errorCodes(formatted.errors));
        return formatted;
      },
      onError(ctx, id, _payload, errors) {
        const formatted = errors.map((e) => options.formatError(e.toJSON(), e));
        operations.get(key(ctx.extra.socket, id))?.codes.push(...errorCodes(formatted));
        return formatted;
      },
      onComplete(ctx, id) {
        const k = key(ctx.extra.socket, id);
        const state = operations.get(k);
        if (!state) return;
        operations.delete(k);
        state.controller.abort();
        options.log(
          formatRequestLine({
            transport: 'ws',
            operationName: state.operationName,
            durationMs: performance.now() - state.started,
            upstreamCalls: state.calls.count,
            errorCodes: state.codes,
          }),
        );
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

function formatResult(result: ExecutionResult, formatError: SubscriptionServerOptions['formatError']): FormattedExecutionResult {
  return {
    ...(result.data !== undefined ? { data: result.data } : {}),
    ...(result.errors ? { errors: result.errors.map((e) => formatError(e.toJSON(), e)) } : {}),
    ...(result.extensions ? { extensions: result.extensions } : {}),
  };
}

interface Renewal {
  /** A fresh context for the next event (same caller, same signal). */
  make(): GatewayContext;
  /** Abort the operation's signal (its pollers and timers stop at once). */
  abort(): void;
}

/**
 * graphql-js `subscribe`, except that each event runs with a fresh context, and that `return()`
 * (client complete, socket closed) aborts the operation's signal first, so a source waiting for its
 * next event stops now instead of at its next tick.
 */
async function subscribeWithFreshContexts(args: ExecutionArgs, renew: WeakMap<GatewayContext, Renewal>): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult> {
  const source = await createSourceEventStream(args);
  if (!isAsyncIterable(source)) return source;
  // graphql-ws hands us the context it got from our `context` option, so the lookup finds it.
  const renewal = renew.get(args.contextValue as GatewayContext);
  const events = mapEvents(source, (payload) => execute({ ...args, rootValue: payload, contextValue: renewal ? renewal.make() : args.contextValue }));
  if (!renewal) return events;
  const wrapped: AsyncGenerator<ExecutionResult> = {
    next: (...rest) => events.next(...rest),
    return: (value) => {
      renewal.abort();
      return events.return(value);
    },
    throw: (error: unknown) => {
      renewal.abort();
      return events.throw(error);
    },
    [Symbol.asyncIterator]: () => wrapped,
  };
  return wrapped;
}

async function* mapEvents(source: AsyncIterable<unknown>, run: (payload: unknown) => ExecutionResult | Promise<ExecutionResult>): AsyncGenerator<ExecutionResult> {
  try {
    for await (const payload of source) yield await run(payload);
  } catch (error) {
    // An error from the event source ends the stream with that error as a result.
    yield { errors: [error instanceof GraphQLError ? error : new GraphQLError(error instanceof Error ? error.message : String(error), { originalError: error instanceof Error ? error : null })] };
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
