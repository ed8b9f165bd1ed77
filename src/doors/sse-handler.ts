/**
 * The SSE door's graphql-sse handler over the one pipeline: stream tokens are only made here (a
 * `PUT`), every operation goes to the pipeline in `onSubscribe`, and every event is written from
 * its result's shared bytes (sse-shared-frames.ts). What the door keeps of its streams (their
 * reservations, their frames, the caller of each request) is the door's `SseScope`.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { GraphQLError, type ExecutionResult, type FormattedExecutionResult } from 'graphql';
import { createHandler, TOKEN_HEADER_KEY, TOKEN_QUERY_KEY, type Request as SseRequest } from 'graphql-sse';
import { ErrorCode } from '../errors/codes';
import { Cancellation } from '../core/cancellation';
import type { CallerFactory } from '../core/caller';
import type { Hold } from '../core/shares';
import { isStream, type Caller, type Connection, type Pipeline } from '../pipeline';
import type { SerializedOnce } from './serialized-once';
import { StreamFrames } from './sse-shared-frames';

/** One reserved stream (single connection mode). */
export interface Reservation {
  hold: Hold;
  connection: Connection;
  /** Bytes of events produced while the stream was not open yet (graphql-sse keeps them until it opens). */
  pendingBytes: number;
  opened: boolean;
  /** Its events' shared bytes waiting to be written. */
  frames: StreamFrames;
  /** Past its buffer: its operations end, new ones are refused. */
  over: boolean;
  expiry: NodeJS.Timeout | null;
}

/** What the door's parts share. */
export interface SseScope {
  pipeline: Pipeline;
  /** `SSE_MAX_BUFFERED_BYTES`. */
  maxBufferedBytes: number;
  reservations: Map<string, Reservation>;
  /** Results serialized once for every stream they go to. */
  serialized: SerializedOnce;
  /** The caller of each request, built once when it arrives (graphql-sse hands the request back in onSubscribe). */
  callers: WeakMap<IncomingMessage, Caller>;
  /** The waiting bytes of each stream of distinct connections mode (its request is the stream). */
  requestFrames: WeakMap<IncomingMessage, StreamFrames>;
  /** Requests answered by the pipeline with a status of its own (logged by it already), not by graphql-sse. */
  answeredByPipeline: WeakSet<IncomingMessage>;
  /** The one way every door builds its caller (src/core/caller.ts). */
  callerFactory: CallerFactory;
}

/** A node request as graphql-sse reads requests (the door's own requests to it have no node request). */
export type Raw = IncomingMessage | null;
export type SseCall = SseRequest<Raw, { req: Raw }>;
/** What graphql-sse hands back to onNext: the stream token, to find its reservation (a type alias: graphql-sse wants a Record). */
type SseContext = { token: string | null };

export const overflowError = (max: number): FormattedExecutionResult => ({
  errors: [{ message: `this event stream holds more than ${max} bytes nobody has read (SSE_MAX_BUFFERED_BYTES); its operations end`, extensions: { code: ErrorCode.OPERATION_BUDGET_EXCEEDED, limit: 'streamBufferedBytes', max } }],
});

/** The stream token a request names (header or `token` query parameter), or null. */
export function streamToken(req: { url?: string | undefined; headers: { get(key: string): string | null | undefined } }): string | null {
  const given = req.headers.get(TOKEN_HEADER_KEY);
  if (given) return given;
  const query = new URL(req.url ?? '', 'http://localhost/').searchParams.get(TOKEN_QUERY_KEY);
  return query === null || query === '' ? null : query;
}

export function nodeHeaders(req: IncomingMessage): { get(key: string): string | undefined } {
  return {
    get: (key: string) => {
      const value = req.headers[key];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

export function framesOf(scope: SseScope, req: IncomingMessage): StreamFrames {
  let frames = scope.requestFrames.get(req);
  if (frames === undefined) {
    frames = new StreamFrames();
    scope.requestFrames.set(req, frames);
  }
  return frames;
}

/** The request's caller, built once; with `res`, its cancellation aborts when the client leaves before the answer ends. */
export function callerOf(scope: SseScope, req: IncomingMessage, res: ServerResponse | null): Caller {
  let caller = scope.callers.get(req);
  if (caller) return caller;
  const cancellation = new Cancellation();
  // The client went away before its answer ended: its operation stops calling upstream.
  res?.once('close', () => {
    if (!res.writableFinished) cancellation.abort();
  });
  caller = scope.callerFactory({ authorization: req.headers.authorization, socketAddress: req.socket.remoteAddress, headers: req.headers, cancellation });
  scope.callers.set(req, caller);
  return caller;
}

export type SseHandler = ReturnType<typeof createSseHandler>;

export function createSseHandler(scope: SseScope) {
  const { pipeline, reservations, maxBufferedBytes } = scope;
  return createHandler<Raw, { req: Raw }, SseContext>({
    // Tokens are only ever made here (a PUT): whoever holds one reads that stream's events.
    authenticate: (req) => {
      const token = streamToken(req);
      return req.method === 'PUT' ? randomUUID() : token !== null && reservations.has(token) ? token : undefined;
    },
    context: (req) => ({ token: streamToken(req) }),
    async onSubscribe(req, params) {
      const raw = req.raw;
      const token = streamToken(req);
      const reservation = token === null ? undefined : reservations.get(token);
      if (raw === null) return { data: null, errors: [new GraphQLError('no request')] };
      const caller = callerOf(scope, raw, null);
      // An operation posted to a reserved stream lives as long as that stream, not as its POST.
      const answer = await pipeline.handle(params, caller, {
        door: 'sse',
        requestId: caller.requestId,
        connection: reservation?.connection ?? { subscriptions: 0 },
        viaGet: raw.method === 'GET',
        // An answer in parts (@defer/@stream): each part its own `next` event.
        incremental: true,
        ...(reservation ? {} : { cancellation: caller.cancellation }),
      });
      if (isStream(answer)) return answer as AsyncGenerator<ExecutionResult>;
      // A refusal that names its HTTP status (a mutation by GET: 405) is this request's answer, as on /graphql.
      if (answer.status !== undefined) {
        scope.answeredByPipeline.add(raw);
        return [JSON.stringify(answer.result), { status: answer.status, statusText: STATUS_CODES[answer.status] ?? '', headers: { 'content-type': 'application/json; charset=utf-8', ...Object.fromEntries(answer.headers ?? []) } }];
      }
      // graphql-sse takes a single result only when it has `data`; a refusal has none.
      return { data: null, ...answer.result } as ExecutionResult;
    },
    // The pipeline formatted every result already: its bytes are made once per result object and
    // written from there (sse-shared-frames.ts); graphql-sse prints the event around a stand-in.
    onNext(ctx, req, result) {
      const reservation = ctx.token === null ? undefined : reservations.get(ctx.token);
      if (reservation && !reservation.opened && reservation.over) return overflowError(maxBufferedBytes) as ExecutionResult;
      const bytes = scope.serialized.bytesOf(result);
      if (reservation && !reservation.opened) {
        // Not open yet: graphql-sse keeps the event in memory until it is; count what it keeps.
        reservation.pendingBytes += bytes.byteLength;
        if (reservation.pendingBytes > maxBufferedBytes) {
          reservation.over = true;
          return overflowError(maxBufferedBytes) as ExecutionResult;
        }
      }
      const frames = reservation?.frames ?? (req.raw ? framesOf(scope, req.raw) : null);
      return frames?.hold(bytes);
    },
  });
}
