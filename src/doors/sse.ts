/**
 * The SSE door: operations over Server-Sent Events at `/graphql/stream` (the graphql-sse
 * library's protocol), for clients behind proxies that block WebSockets. The token is the
 * request's `Authorization` header, as for GraphQL over HTTP. Every operation goes through the
 * pipeline in `onSubscribe`.
 *
 * Both of graphql-sse's modes are served. In distinct connections mode (its client's default)
 * each `Accept: text/event-stream` request streams its own operation. In single connection mode
 * a `PUT` reserves a stream and operations are POSTed to it; a reservation:
 * - needs a token the platform accepts (401 without or when refused, 503 when it cannot say),
 *   and its stream token is always made here (crypto);
 * - counts against `SSE_MAX_RESERVATIONS` in all and a share per verified identity (429 past
 *   either), taken before the first await after verification;
 * - expires when nobody opens its stream within `SSE_RESERVATION_TTL_MS`.
 * Every stream buffers at most `SSE_MAX_BUFFERED_BYTES` of events nobody has read: past it its
 * operations end with OPERATION_BUDGET_EXCEEDED (limit `streamBufferedBytes`) and the stream closes.
 * A stream's own operation (distinct connections mode) is cancelled when its client leaves. The
 * door's own refusals are logged and counted like the pipeline's. Methods as on /graphql: a POST
 * a page could forge cross-site is refused (csrf.ts), and a mutation sent by GET is refused by the
 * pipeline (405).
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import { GraphQLError, type ExecutionResult, type FormattedExecutionResult, type GraphQLFormattedError } from 'graphql';
import { createHandler, TOKEN_HEADER_KEY, TOKEN_QUERY_KEY, type Request as SseRequest } from 'graphql-sse';
import { ErrorCode, GatewayError, type LimitExceededError } from '../errors/codes';
import { Cancellation } from '../core/cancellation';
import type { CallerFactory } from '../core/caller';
import type { Hold, SharedLimit } from '../core/shares';
import { isStream, type Caller, type Connection, type Pipeline } from '../pipeline';
import { csrfRefusal } from './csrf';
import { BodyTooLargeError, MAX_BODY_BYTES, readBody } from './http';
import { SerializedOnce } from './serialized-once';
import { StreamFrames } from './sse-shared-frames';

export interface SseLimits {
  /** `SSE_RESERVATION_TTL_MS`: how long a reserved stream may stay unopened. */
  reservationTtlMs: number;
  /** `SSE_MAX_BUFFERED_BYTES`: event bytes one stream may hold unread. */
  maxBufferedBytes: number;
}

export interface SseDoorOptions {
  pipeline: Pipeline;
  /** Reservations in all and per caller (`SSE_MAX_RESERVATIONS`, `SSE_RESERVATIONS_PER_CALLER`). */
  reservations: SharedLimit;
  limits: SseLimits;
  /** The one way every door builds its caller (src/core/caller.ts). */
  callerOf: CallerFactory;
}

export interface SseDoor {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** End every open event stream and drop every reservation. */
  close(): void;
  /** Reservations, open streams, and results serialized for `next` events (one per result object, however many streams it went to). */
  stats(): { reservations: number; open: number; serializations: number };
}

/** One reserved stream (single connection mode). */
interface Reservation {
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

/** What graphql-sse hands back to onNext: the stream token, to find its reservation (a type alias: graphql-sse wants a Record). */
type SseContext = { token: string | null };

const overflowError = (max: number): FormattedExecutionResult => ({
  errors: [{ message: `this event stream holds more than ${max} bytes nobody has read (SSE_MAX_BUFFERED_BYTES); its operations end`, extensions: { code: ErrorCode.OPERATION_BUDGET_EXCEEDED, limit: 'streamBufferedBytes', max } }],
});

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The stream token a request names (header or `token` query parameter), or null. */
function streamToken(req: { url?: string | undefined; headers: { get(key: string): string | null | undefined } }): string | null {
  const given = req.headers.get(TOKEN_HEADER_KEY);
  if (given) return given;
  const query = new URL(req.url ?? '', 'http://localhost/').searchParams.get(TOKEN_QUERY_KEY);
  return query === null || query === '' ? null : query;
}

/** A node request as graphql-sse reads requests (the door's own requests to it have no node request). */
type Raw = IncomingMessage | null;
type SseCall = SseRequest<Raw, { req: Raw }>;

function nodeHeaders(req: IncomingMessage): { get(key: string): string | undefined } {
  return { get: (key: string) => header(req, key) };
}

/** What a verification failure answers on this door's own routes. */
const VERIFY_STATUS: Partial<Record<string, number>> = { UNAUTHENTICATED: 401, FORBIDDEN: 403, UPSTREAM_UNAVAILABLE: 503 };

function limitError(refused: LimitExceededError): GraphQLFormattedError {
  return { message: refused.message, extensions: { code: refused.code, limit: refused.limit, max: refused.max, scope: refused.scope, retryAfter: refused.retryAfter } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

export function createSseDoor(options: SseDoorOptions): SseDoor {
  const { pipeline, limits } = options;
  const reservations = new Map<string, Reservation>();
  const open = new Set<ServerResponse>();
  // The caller of each request, built once when it arrives (graphql-sse hands the request back in onSubscribe).
  const callers = new WeakMap<IncomingMessage, Caller>();
  // A result shared by many subscriptions (one event, one execution) is serialized once for all their streams.
  const serialized = new SerializedOnce();
  // The waiting bytes of each stream of distinct connections mode (its request is the stream).
  const requestFrames = new WeakMap<IncomingMessage, StreamFrames>();

  function framesOf(req: IncomingMessage): StreamFrames {
    let frames = requestFrames.get(req);
    if (frames === undefined) {
      frames = new StreamFrames();
      requestFrames.set(req, frames);
    }
    return frames;
  }

  function callerOf(req: IncomingMessage, res: ServerResponse | null): Caller {
    let caller = callers.get(req);
    if (caller) return caller;
    const cancellation = new Cancellation();
    // The client went away before its answer ended: its operation stops calling upstream.
    res?.once('close', () => {
      if (!res.writableFinished) cancellation.abort();
    });
    caller = options.callerOf({ authorization: req.headers.authorization, socketAddress: req.socket.remoteAddress, headers: req.headers, cancellation });
    callers.set(req, caller);
    return caller;
  }

  /** A refusal of the door's own, answered and logged and counted like the pipeline's. */
  function refuse(res: ServerResponse, status: number, caller: Caller, errors: readonly GraphQLFormattedError[], headers: Record<string, string> = {}): void {
    pipeline.note(errors, caller, { door: 'sse', statusOf: () => status });
    sendJson(res, status, { errors }, headers);
  }

  const handler = createHandler<Raw, { req: Raw }, SseContext>({
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
      const caller = callerOf(raw, null);
      // An operation posted to a reserved stream lives as long as that stream, not as its POST.
      const answer = await pipeline.handle(params, caller, {
        door: 'sse',
        requestId: caller.requestId,
        connection: reservation?.connection ?? { subscriptions: 0 },
        viaGet: raw.method === 'GET',
        ...(reservation ? {} : { cancellation: caller.cancellation }),
      });
      if (isStream(answer)) return answer as AsyncGenerator<ExecutionResult>;
      // A refusal that names its HTTP status (a mutation by GET: 405) is this request's answer, as on /graphql.
      if (answer.status !== undefined) return [JSON.stringify(answer.result), { status: answer.status, statusText: STATUS_CODES[answer.status] ?? '', headers: { 'content-type': 'application/json; charset=utf-8', ...Object.fromEntries(answer.headers ?? []) } }];
      // graphql-sse takes a single result only when it has `data`; a refusal has none.
      return { data: null, ...answer.result } as ExecutionResult;
    },
    // The pipeline formatted every result already: its bytes are made once per result object and
    // written from there (sse-shared-frames.ts); graphql-sse prints the event around a stand-in.
    onNext(ctx, req, result) {
      const reservation = ctx.token === null ? undefined : reservations.get(ctx.token);
      if (reservation && !reservation.opened && reservation.over) return overflowError(limits.maxBufferedBytes) as ExecutionResult;
      const bytes = serialized.bytesOf(result);
      if (reservation && !reservation.opened) {
        // Not open yet: graphql-sse keeps the event in memory until it is; count what it keeps.
        reservation.pendingBytes += bytes.byteLength;
        if (reservation.pendingBytes > limits.maxBufferedBytes) {
          reservation.over = true;
          return overflowError(limits.maxBufferedBytes) as ExecutionResult;
        }
      }
      const frames = reservation?.frames ?? (req.raw ? framesOf(req.raw) : null);
      return frames?.hold(bytes);
    },
  });

  function drop(token: string): void {
    const reservation = reservations.get(token);
    if (!reservation) return;
    reservations.delete(token);
    if (reservation.expiry) clearTimeout(reservation.expiry);
    reservation.hold.release();
  }

  /** An unopened reservation past its time: graphql-sse frees a stream when it is opened and closed, so that is done here. */
  async function expire(token: string): Promise<void> {
    const reservation = reservations.get(token);
    if (!reservation || reservation.opened) return;
    const opening: SseCall = {
      method: 'GET',
      url: '/',
      headers: { get: (key: string) => (key === 'accept' ? 'text/event-stream' : key === TOKEN_HEADER_KEY ? token : undefined) },
      body: null,
      raw: null,
      context: { req: null },
    };
    const [body] = await handler(opening);
    drop(token);
    if (body && typeof body !== 'string') await body.return(undefined);
  }

  async function reserve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const caller = callerOf(req, res);
    if (caller.authorization === undefined) return refuse(res, 401, caller, [{ message: 'reserving an event stream needs a token (Authorization)', extensions: { code: ErrorCode.UNAUTHENTICATED } }]);
    let identity;
    try {
      // The platform's word on the token first: a refused one reserves nothing.
      identity = await caller.verify();
    } catch (error) {
      if (!(error instanceof GatewayError)) throw error;
      return refuse(res, VERIFY_STATUS[error.code] ?? 500, caller, [{ message: error.message, extensions: { code: error.code } }]);
    }
    if (identity === null) return refuse(res, 401, caller, [{ message: 'reserving an event stream needs a token (Authorization)', extensions: { code: ErrorCode.UNAUTHENTICATED } }]);
    // Taken now, before the next await: reservations of one identity arriving together each count.
    const refused = options.reservations.wouldRefuse(identity.key);
    if (refused) return refuse(res, 429, caller, [limitError(refused)], { 'retry-after': String(refused.retryAfter) });
    const hold = options.reservations.take(identity.key);
    let kept = false;
    try {
      const [body, init] = await handler(toSseRequest(req));
      if (init.status === 201 && typeof body === 'string') {
        const reservation: Reservation = { hold, connection: { subscriptions: 0 }, pendingBytes: 0, opened: false, frames: new StreamFrames(), over: false, expiry: null };
        reservation.expiry = setTimeout(() => void expire(body), limits.reservationTtlMs);
        reservation.expiry.unref();
        reservations.set(body, reservation);
        kept = true;
      }
      await writeAnswer(res, body, init, null, null);
    } finally {
      if (!kept) hold.release();
    }
  }

  function toSseRequest(req: IncomingMessage): SseCall {
    return { method: req.method ?? 'GET', url: req.url ?? '/', headers: nodeHeaders(req), body: () => readBody(req, MAX_BODY_BYTES), raw: req, context: { req } };
  }

  /** Writes graphql-sse's answer (an event from the shared bytes `frames` holds for it); an event stream is watched for what it buffers. */
  async function writeAnswer(res: ServerResponse, body: Awaited<ReturnType<typeof handler>>[0], init: Awaited<ReturnType<typeof handler>>[1], token: string | null, frames: StreamFrames | null): Promise<void> {
    res.writeHead(init.status, init.statusText, init.headers);
    if (!body || typeof body === 'string') {
      res.end(body ?? undefined);
      return;
    }
    const reservation = token === null ? undefined : reservations.get(token);
    if (reservation) {
      reservation.opened = true;
      if (reservation.expiry) clearTimeout(reservation.expiry);
      reservation.expiry = null;
    }
    open.add(res);
    const closed = (): void => {
      open.delete(res);
      void body.return(undefined);
      if (token !== null) drop(token);
    };
    // A client gone while graphql-sse made its answer has closed already: no 'close' is coming,
    // and its reservation and stream would be held for ever.
    if (res.closed || res.destroyed) closed();
    else res.once('close', closed);
    try {
      for await (const chunk of body) {
        if (!res.writable) break;
        for (const part of frames ? frames.partsOf(chunk) : [chunk]) res.write(part);
        if (res.writableLength > limits.maxBufferedBytes) {
          // The client reads slower than events come: end its operations rather than hold more.
          res.end(`event: next\ndata: ${JSON.stringify(overflowError(limits.maxBufferedBytes))}\n\n`);
          await body.return(undefined);
          return;
        }
      }
    } finally {
      if (res.writable) res.end();
    }
  }

  return {
    async handle(req, res) {
      // graphql-sse recognizes an event stream request only by an Accept of exactly
      // `text/event-stream`; take one that lists it among others (or with parameters) as the same.
      if (/text\/event-stream/i.test(req.headers.accept ?? '')) req.headers.accept = 'text/event-stream';
      if (req.method === 'PUT') return reserve(req, res);
      // A POST a page could send cross-site without asking (a form or text/plain body): refused as /graphql refuses it.
      const forged = req.method === 'POST' ? csrfRefusal(req.headers) : null;
      if (forged) return sendJson(res, 400, pipeline.refuse([forged], callerOf(req, null), { door: 'sse', statusOf: () => 400 }).result);
      const token = streamToken({ url: req.url, headers: nodeHeaders(req) });
      const reservation = token === null ? undefined : reservations.get(token);
      const caller = callerOf(req, res);
      if (reservation?.over && req.method === 'POST') return refuse(res, 409, caller, overflowError(limits.maxBufferedBytes).errors ?? []);
      let answer;
      try {
        answer = await handler(toSseRequest(req));
      } catch (error) {
        if (error instanceof BodyTooLargeError) return refuse(res, 413, caller, [{ message: error.message, extensions: { code: ErrorCode.BAD_REQUEST } }]);
        throw error;
      }
      const streamOfReservation = req.headers.accept === 'text/event-stream' && reservation ? token : null;
      await writeAnswer(res, answer[0], answer[1], streamOfReservation, streamOfReservation !== null ? (reservation?.frames ?? null) : framesOf(req));
    },
    close() {
      for (const res of open) res.destroy();
      open.clear();
      for (const token of [...reservations.keys()]) void expire(token);
    },
    stats: () => ({ reservations: reservations.size, open: open.size, serializations: serialized.serializations }),
  };
}
