/**
 * Subscriptions (and any operation) over Server-Sent Events at `/graphql/stream`, the graphql-sse
 * library's protocol, for clients behind proxies that block WebSockets. The token is the
 * request's `Authorization` header, as for GraphQL over HTTP. The operation life cycle is
 * operations.ts's, shared with the WebSocket transport.
 *
 * What a "connection" is, for the per-connection bound: in graphql-sse's single connection mode
 * (PUT reserves a stream token, one event stream carries every operation POSTed with that token)
 * it is the reserved stream; in distinct connections mode (each request with
 * `Accept: text/event-stream` streams its own operation) it is that request.
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getOperationAST, GraphQLError, parse, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { createHandler } from 'graphql-sse/lib/use/http';
import { TOKEN_HEADER_KEY, TOKEN_QUERY_KEY } from 'graphql-sse';
import type { GatewayContext } from '../context';
import type { Connection, OperationRunner } from './operations';

export interface SseHandlerOptions {
  schema: GraphQLSchema;
  runner: OperationRunner;
}

export interface SseHandler {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** End every open event stream (their operations complete, their pollers are released). */
  close(): void;
}

/** An operation on a reserved stream: its count is the stream's, shared by every operation on it. */
class ReservedStream implements Connection {
  readonly transport = 'sse';
  constructor(
    private readonly running: Map<string, number>,
    private readonly token: string,
  ) {}

  get subscriptions(): number {
    return this.running.get(this.token) ?? 0;
  }

  set subscriptions(count: number) {
    if (count > 0) this.running.set(this.token, count);
    else this.running.delete(this.token);
  }
}

export function createSseHandler(options: SseHandlerOptions): SseHandler {
  const { runner } = options;
  // Subscriptions running per reserved stream (single connection mode), by stream token; a
  // stream without any is not listed. Each operation gets its own view of its stream's count.
  const running = new Map<string, number>();
  const open = new Set<ServerResponse>();

  function connectionFor(req: IncomingMessage): Connection {
    const token = streamToken(req);
    // A request that is itself the event stream (distinct connections mode) is its own connection.
    if (token === null || (req.headers.accept ?? '') === 'text/event-stream') return { transport: 'sse', subscriptions: 0 };
    return new ReservedStream(running, token);
  }

  const handler = createHandler<GatewayContext>({
    schema: options.schema,
    // As graphql-sse's default, except that new stream tokens come from crypto, not Math.random:
    // whoever holds a token reads that stream's events.
    authenticate: (req) => streamToken(req.raw) ?? randomUUID(),
    context: (req, params) => runner.start(connectionFor(req.raw), req.raw.headers.authorization, operationName(params.query, params.operationName), req.raw.headers),
    // The document's size and tokens, before graphql-sse parses and validates it. A refusal is
    // streamed as the operation's one result (graphql-sse takes a result only with `data`), and
    // logged when it completes, as any operation.
    onSubscribe: (_req, params) => {
      const refused = runner.checkDocument(params.query);
      return refused === null ? undefined : { data: null, errors: refused };
    },
    execute: (args) => runner.execute(args),
    subscribe: (args) => runner.subscribe(args),
    onNext: (context, _req, result) => (result.errors ? { ...result, errors: runner.formatErrors(context, result.errors).map(wireError) } : result),
    onComplete: (context) => runner.complete(context),
  });

  return {
    async handle(req, res) {
      // graphql-sse recognizes an event stream request only by an Accept of exactly
      // `text/event-stream`; take one that lists it among others (or with parameters) as the same.
      if (/text\/event-stream/i.test(req.headers.accept ?? '')) req.headers.accept = 'text/event-stream';
      open.add(res);
      res.once('close', () => open.delete(res));
      await handler(req, res);
    },
    close() {
      // graphql-sse returns every operation of a stream when its response closes.
      for (const res of open) res.destroy();
      open.clear();
    },
  };
}

/** The stream token of a single-connection-mode request (header or `token` query parameter). */
function streamToken(req: IncomingMessage): string | null {
  const header = req.headers[TOKEN_HEADER_KEY];
  if (typeof header === 'string' && header !== '') return header;
  const query = new URL(req.url ?? '', 'http://localhost/').searchParams.get(TOKEN_QUERY_KEY);
  return query === null || query === '' ? null : query;
}

/** For the log line only: the named operation, or the document's single one. */
function operationName(query: string | undefined, name: string | null | undefined): string | null {
  if (name) return name;
  try {
    return getOperationAST(parse(query ?? ''), null)?.name?.value ?? null;
  } catch {
    return null;
  }
}

/** graphql-sse wants GraphQLError objects and serializes them with toJSON: this one serializes to the formatted (masked) error. */
function wireError(formatted: GraphQLFormattedError): GraphQLError {
  const error = new GraphQLError(formatted.message, { ...(formatted.path ? { path: formatted.path } : {}), ...(formatted.extensions ? { extensions: formatted.extensions } : {}) });
  error.toJSON = () => formatted;
  return error;
}
