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
 * door's own refusals, and graphql-sse's answers of its own words (a stream not found, a request
 * it cannot read: its 4xx), are logged and counted like the pipeline's. Methods as on /graphql: a POST
 * a page could forge cross-site is refused (csrf.ts), and a mutation sent by GET is refused by the
 * pipeline (405).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLFormattedError } from 'graphql';
import { TOKEN_HEADER_KEY } from 'graphql-sse';
import { ErrorCode, GatewayError, type LimitExceededError } from '../errors/codes';
import type { CallerFactory } from '../core/caller';
import type { SharedLimit } from '../core/shares';
import type { Caller, Pipeline } from '../pipeline';
import { csrfRefusal } from './csrf';
import { edgeNotes, type GatewayDoor } from './door';
import { BodyTooLargeError, MAX_BODY_BYTES, readBody } from './http';
import { SerializedOnce } from './serialized-once';
import { callerOf, createSseHandler, framesOf, nodeHeaders, overflowError, streamToken, type Reservation, type SseCall, type SseHandler, type SseScope } from './sse-handler';
import { StreamFrames } from './sse-shared-frames';

export interface SseLimits {
  /** `SSE_RESERVATION_TTL_MS`: how long a reserved stream may stay unopened. */
  reservationTtlMs: number;
  /** `SSE_MAX_BUFFERED_BYTES`: event bytes one stream may hold unread. */
  maxBufferedBytes: number;
}

export interface SseDoorOptions {
  /** Where it answers (`/graphql/stream`). */
  path: string;
  pipeline: Pipeline;
  /** Reservations in all and per caller (`SSE_MAX_RESERVATIONS`, `SSE_RESERVATIONS_PER_CALLER`). */
  reservations: SharedLimit;
  limits: SseLimits;
  /** The one way every door builds its caller (src/core/caller.ts). */
  callerOf: CallerFactory;
}

/**
 * Its stop ends every open event stream and drops every reservation. Its stats: reservations,
 * open streams, results serialized for `next` events (one per result object, however many streams
 * it went to), and the refusals noted at its edge.
 */
export type SseDoor = GatewayDoor<{ reservations: number; open: number; serializations: number; refused: number }>;

type HandlerAnswer = Awaited<ReturnType<SseHandler>>;

/** What a verification failure answers on this door's own routes. */
const VERIFY_STATUS: Partial<Record<string, number>> = { UNAUTHENTICATED: 401, FORBIDDEN: 403, UPSTREAM_UNAVAILABLE: 503 };
/** The code of a status graphql-sse answers in its own words. */
const LIBRARY_CODES: Partial<Record<number, string>> = { 401: ErrorCode.UNAUTHENTICATED, 404: ErrorCode.NOT_FOUND, 409: ErrorCode.CONFLICT };

function limitError(refused: LimitExceededError): GraphQLFormattedError {
  return { message: refused.message, extensions: { code: refused.code, limit: refused.limit, max: refused.max, scope: refused.scope, retryAfter: refused.retryAfter } };
}

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
}

/** graphql-sse's own refusal as formatted errors: its messages (a JSON body's `errors`) with a code by status. */
function libraryErrors([body, init]: HandlerAnswer): GraphQLFormattedError[] {
  const code = LIBRARY_CODES[init.status] ?? (init.status >= 500 ? ErrorCode.INTERNAL_SERVER_ERROR : ErrorCode.BAD_REQUEST);
  let messages: string[] = [];
  if (typeof body === 'string') {
    try {
      const parsed: unknown = JSON.parse(body);
      const errors = typeof parsed === 'object' && parsed !== null && 'errors' in parsed && Array.isArray(parsed.errors) ? (parsed.errors as unknown[]) : [];
      messages = errors.map((e) => (typeof e === 'object' && e !== null && 'message' in e && typeof e.message === 'string' ? e.message : '')).filter((m) => m !== '');
    } catch {
      // Not JSON: the status says it.
    }
  }
  if (messages.length === 0) messages = [`event stream request refused: ${init.status} ${init.statusText}`];
  return messages.map((message) => ({ message, extensions: { code } }));
}

function toSseRequest(req: IncomingMessage, bodyError: { error?: unknown }): SseCall {
  const body = (): Promise<string> =>
    readBody(req, MAX_BODY_BYTES).catch((error: unknown) => {
      // graphql-sse answers any body error 400 in its words; the door keeps it to answer a body too large as 413.
      bodyError.error = error;
      throw error;
    });
  return { method: req.method ?? 'GET', url: req.url ?? '/', headers: nodeHeaders(req), body, raw: req, context: { req } };
}

export function createSseDoor(options: SseDoorOptions): SseDoor {
  const { pipeline, limits } = options;
  const scope: SseScope = {
    pipeline,
    maxBufferedBytes: limits.maxBufferedBytes,
    reservations: new Map<string, Reservation>(),
    serialized: new SerializedOnce(),
    callers: new WeakMap(),
    requestFrames: new WeakMap(),
    answeredByPipeline: new WeakSet(),
    callerFactory: options.callerOf,
  };
  const { reservations } = scope;
  const open = new Set<ServerResponse>();
  const handler = createSseHandler(scope);
  const edge = edgeNotes(pipeline, 'sse');
  const streams = { open, reservations, handler, maxBufferedBytes: limits.maxBufferedBytes };

  /** A refusal of the door's own, answered and logged and counted like the pipeline's. */
  const refuse = (res: ServerResponse, status: number, caller: Caller, errors: readonly GraphQLFormattedError[], headers: Record<string, string> = {}): void => {
    edge.note(errors, caller, status);
    sendJson(res, status, { errors }, headers);
  };

  /** graphql-sse's answer to a request; one it refused in its own words (its 4xx) is noted. */
  async function answerOf(req: IncomingMessage, res: ServerResponse, caller: Caller): Promise<HandlerAnswer | null> {
    const bodyError: { error?: unknown } = {};
    const answer = await handler(toSseRequest(req, bodyError));
    if (bodyError.error instanceof BodyTooLargeError) {
      refuse(res, 413, caller, [{ message: bodyError.error.message, extensions: { code: ErrorCode.BAD_REQUEST } }]);
      return null;
    }
    if (answer[1].status >= 400 && !scope.answeredByPipeline.has(req)) edge.note(libraryErrors(answer), caller, answer[1].status);
    return answer;
  }

  async function reserve(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const caller = callerOf(scope, req, res);
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
      const answer = await answerOf(req, res, caller);
      if (answer === null) return;
      const [body, init] = answer;
      if (init.status === 201 && typeof body === 'string') {
        const reservation: Reservation = { hold, connection: { subscriptions: 0 }, pendingBytes: 0, opened: false, frames: new StreamFrames(), over: false, expiry: null };
        reservation.expiry = setTimeout(() => void expire(streams, body), limits.reservationTtlMs);
        reservation.expiry.unref();
        reservations.set(body, reservation);
        kept = true;
      }
      await writeAnswer(streams, res, answer, null, null);
    } finally {
      if (!kept) hold.release();
    }
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // graphql-sse recognizes an event stream request only by an Accept of exactly
    // `text/event-stream`; take one that lists it among others (or with parameters) as the same.
    if (/text\/event-stream/i.test(req.headers.accept ?? '')) req.headers.accept = 'text/event-stream';
    if (req.method === 'PUT') return reserve(req, res);
    // A POST a page could send cross-site without asking (a form or text/plain body): refused as /graphql refuses it.
    const forged = req.method === 'POST' ? csrfRefusal(req.headers) : null;
    if (forged) return sendJson(res, 400, edge.refuse([forged], callerOf(scope, req, null), 400).result);
    const token = streamToken({ url: req.url, headers: nodeHeaders(req) });
    const reservation = token === null ? undefined : reservations.get(token);
    const caller = callerOf(scope, req, res);
    if (reservation?.over && req.method === 'POST') return refuse(res, 409, caller, overflowError(limits.maxBufferedBytes).errors ?? []);
    const answer = await answerOf(req, res, caller);
    if (answer === null) return;
    const streamOfReservation = req.headers.accept === 'text/event-stream' && reservation ? token : null;
    await writeAnswer(streams, res, answer, streamOfReservation, streamOfReservation !== null ? (reservation?.frames ?? null) : framesOf(scope, req));
  }

  return {
    name: 'sse',
    mount: { path: options.path, request: handle },
    stop() {
      for (const res of open) res.destroy();
      open.clear();
      for (const token of [...reservations.keys()]) void expire(streams, token);
    },
    stats: () => ({ reservations: reservations.size, open: open.size, serializations: scope.serialized.serializations, refused: edge.refused() }),
  };
}

/** The door's open streams and reservations, as its writer and its expiry see them. */
interface Streams {
  open: Set<ServerResponse>;
  reservations: Map<string, Reservation>;
  handler: SseHandler;
  maxBufferedBytes: number;
}

function drop(streams: Streams, token: string): void {
  const reservation = streams.reservations.get(token);
  if (!reservation) return;
  streams.reservations.delete(token);
  if (reservation.expiry) clearTimeout(reservation.expiry);
  reservation.hold.release();
}

/** An unopened reservation past its time: graphql-sse frees a stream when it is opened and closed, so that is done here. */
async function expire(streams: Streams, token: string): Promise<void> {
  const reservation = streams.reservations.get(token);
  if (!reservation || reservation.opened) return;
  const opening: SseCall = {
    method: 'GET',
    url: '/',
    headers: { get: (key: string) => (key === 'accept' ? 'text/event-stream' : key === TOKEN_HEADER_KEY ? token : undefined) },
    body: null,
    raw: null,
    context: { req: null },
  };
  const [body] = await streams.handler(opening);
  drop(streams, token);
  if (body && typeof body !== 'string') await body.return(undefined);
}

/** Writes graphql-sse's answer (an event from the shared bytes `frames` holds for it); an event stream is watched for what it buffers. */
async function writeAnswer(streams: Streams, res: ServerResponse, [body, init]: HandlerAnswer, token: string | null, frames: StreamFrames | null): Promise<void> {
  res.writeHead(init.status, init.statusText, init.headers);
  if (!body || typeof body === 'string') {
    res.end(body ?? undefined);
    return;
  }
  const reservation = token === null ? undefined : streams.reservations.get(token);
  if (reservation) {
    reservation.opened = true;
    if (reservation.expiry) clearTimeout(reservation.expiry);
    reservation.expiry = null;
  }
  streams.open.add(res);
  const closed = (): void => {
    streams.open.delete(res);
    void body.return(undefined);
    if (token !== null) drop(streams, token);
  };
  // A client gone while graphql-sse made its answer has closed already: no 'close' is coming,
  // and its reservation and stream would be held for ever.
  if (res.closed || res.destroyed) closed();
  else res.once('close', closed);
  try {
    for await (const chunk of body) {
      if (!res.writable) break;
      for (const part of frames ? frames.partsOf(chunk) : [chunk]) res.write(part);
      if (res.writableLength > streams.maxBufferedBytes) {
        // The client reads slower than events come: end its operations rather than hold more.
        res.end(`event: next\ndata: ${JSON.stringify(overflowError(streams.maxBufferedBytes))}\n\n`);
        await body.return(undefined);
        return;
      }
    }
  } finally {
    if (res.writable) res.end();
  }
}
