/**
 * The HTTP door: GraphQL over HTTP (POST and GET `/graphql`). A well-formed request (a JSON POST,
 * or a GET no page could have forged: the CSRF rule) is read here (http-params.ts) and handed to
 * the pipeline whole: which document it names (`query`, or a persisted query by hash: the
 * pipeline's one implementation of that protocol, for every door), preparing, running. Its answer
 * is framed by one function (`send`: status, the headers its errors asked for, content type by
 * `Accept`). Apollo Server 5 is the front for everything else: it answers, in its words, a request
 * a page could have forged (its CSRF prevention), a malformed body or parameter, a batch, another
 * method; it has no persisted queries and runs no operation, and the errors it words are logged
 * as it formats them (the pipeline's formatter), never read back from its answer. The
 * `Idempotency-Key` header is handed on as `extensions.idempotencyKey` (the pipeline's idempotency
 * stage decides; a replayed answer carries `Idempotent-Replayed: true` among its headers). A
 * client whose `Accept` takes `multipart/mixed` gets an operation with an active `@defer`/`@stream`
 * in parts (multipart.ts); any other gets the whole result in one JSON body.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { AsyncLocalStorage } from 'node:async_hooks';
import { ApolloServer, HeaderMap, type ApolloServerPlugin, type BaseContext, type HTTPGraphQLResponse } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { ErrorCode } from '../errors/codes';
import { isStream, type Answer, type AnswerStream, type Caller, type GraphQLParams, type Pipeline, type RunOptions } from '../pipeline';
import type { ErrorFormatter } from '../pipeline/format';
import Negotiator from 'negotiator';
import { Cancellation } from '../core/cancellation';
import type { CallerFactory } from '../core/caller';
import { requestIdFrom } from '../core/caller';
import { endWith } from './answer-body';
import { csrfRefusal } from './csrf';
import type { GatewayDoor } from './door';
import { getParams, postParams } from './http-params';
import { acceptsParts, writeParts } from './multipart';

/** Largest request body accepted (queries plus variables); WebSocket messages share it. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Header of a mutation's idempotency key (src/idempotency; a replay answers `Idempotent-Replayed: true`). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

/** Header a client sets to get `extensions.cost` (the IDE sets it). */
export const COST_HEADER = 'netgraph-cost';

export class BodyTooLargeError extends Error {}
/** A body that is not valid UTF-8: refused, never decoded to U+FFFD and run (a write would store corrupted text). */
export class InvalidUtf8Error extends Error {}

/** Stateless between calls (no `stream` option), so one serves every request. */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** The body as text; data events rather than `for await`, whose async iterator costs more than the read itself on small bodies. */
export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer | string): void => {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk);
      size += buf.length;
      if (size > limit) {
        // Stop keeping it, let the rest drain: the 413 answer still goes out on this connection.
        req.off('data', onData).resume();
        reject(new BodyTooLargeError(`request body exceeds ${limit} bytes`));
        return;
      }
      chunks.push(buf);
    };
    req.on('data', onData);
    req.once('error', reject);
    req.once('end', () => {
      if (size > limit) return;
      try {
        resolve(utf8.decode(chunks.length === 1 && chunks[0] !== undefined ? chunks[0] : Buffer.concat(chunks)));
      } catch {
        reject(new InvalidUtf8Error('the request body is not valid UTF-8'));
      }
    });
  });
}

/**
 * Status of a request error (no data) by the GraphQL-over-HTTP spec: a client that accepts
 * `application/graphql-response+json` gets 4xx, one that accepts only `application/json` gets 200.
 */
export function requestErrorStatus(accept: string | undefined, status = 400): number {
  if (accept === undefined || accept.trim() === '' || /application\/graphql-response\+json|\*\/\*/i.test(accept)) return status;
  return /application\/json/i.test(accept) ? 200 : status;
}

/** The media types of a single GraphQL answer, in Apollo Server's order of preference. */
const SINGLE_RESULT_TYPES = ['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8', 'application/json; callbackSpec=1.0; charset=utf-8'];
/** What a request without `Accept` gets. */
const NO_ACCEPT_TYPE = 'application/json; charset=utf-8';

/**
 * The content type of a single answer for this `Accept` (null: nothing acceptable, 406), as Apollo
 * Server chooses it: every JSON answer of this door is framed with it. Clients send the same few
 * `Accept` values again and again, so each is negotiated once.
 */
function createContentTypes(): (accept: string | undefined) => string | null {
  const known = new Map<string, string | null>();
  return (accept) => {
    if (!accept) return NO_ACCEPT_TYPE;
    let type = known.get(accept);
    if (type === undefined) {
      type = new Negotiator({ headers: { accept } }).mediaType(SINGLE_RESULT_TYPES) ?? null;
      if (known.size >= 64) known.clear();
      known.set(accept, type);
    }
    return type;
  };
}

const HTTP_ACCEPTS: ReadonlySet<'query' | 'mutation' | 'subscription'> = new Set(['query', 'mutation']);

/**
 * How GraphQL over HTTP frames a persisted-query miss (Apollo's protocol, which clients follow): 200
 * and never cached, so the client's next request (the document with its hash) is not answered from
 * a cache on the way.
 */
const PERSISTED_QUERY_MISS = new Set(['PERSISTED_QUERY_NOT_FOUND', 'PERSISTED_QUERY_NOT_SUPPORTED']);
const UNCACHED: ReadonlyArray<readonly [string, string]> = [['cache-control', 'private, no-cache, must-revalidate']];

function firstCode(answer: Answer): unknown {
  return answer.result.errors?.[0]?.extensions?.['code'];
}

function isPersistedQueryMiss(answer: Answer): boolean {
  const code = firstCode(answer);
  return answer.requestError && typeof code === 'string' && PERSISTED_QUERY_MISS.has(code);
}

/**
 * An answer's status. A refusal of the request's form that names its status (a mutation by GET:
 * 405; a persisted-query extension it cannot take: 400) keeps it whatever the `Accept`, as Apollo
 * Server answers them; a persisted-query miss is 200; other request errors go by `Accept`.
 */
function statusOf(answer: Answer, accept: string | undefined): number {
  if (!answer.requestError) return answer.status ?? 200;
  if (isPersistedQueryMiss(answer)) return 200;
  if (answer.status !== undefined && firstCode(answer) === ErrorCode.BAD_REQUEST) return answer.status;
  return requestErrorStatus(accept, answer.status ?? 400);
}

export interface HttpDoorOptions {
  /** Where it answers (`/graphql`). */
  path: string;
  schema: GraphQLSchema;
  pipeline: Pipeline;
  formatErrors: ErrorFormatter;
  /** The one way every door builds its caller (src/core/caller.ts). */
  callerOf: CallerFactory;
  /** Told each answer's status and duration in seconds (the gateway's request-duration histogram). */
  observe?(status: number, seconds: number): void;
}

/** The HTTP door's stats: the refusals it answered at its edge (a body it cannot read, an `Accept` with no JSON, Apollo's answers). */
export type HttpDoor = GatewayDoor<{ refused: number }>;

function headerMap(req: IncomingMessage): HeaderMap {
  const headers = new HeaderMap();
  const incoming = req.headers;
  for (const key in incoming) {
    const value = incoming[key];
    if (value === undefined) continue;
    headers.set(key, Array.isArray(value) ? value.join(', ') : value);
  }
  return headers;
}

/** Body as Apollo expects it: parsed JSON for JSON requests, the text otherwise (Apollo then refuses it). */
function parseBody(text: string, contentType: string | undefined): { ok: true; body: unknown } | { ok: false } {
  if (text === '') return { ok: true, body: undefined };
  if (contentType !== undefined && /^application\/(graphql-response\+)?json\b/i.test(contentType.trim())) {
    try {
      return { ok: true, body: JSON.parse(text) };
    } catch {
      return { ok: false };
    }
  }
  return { ok: true, body: text };
}

/** The query string of a request target, `?` included ('' when none). */
function searchOf(target: string | undefined): string {
  const at = target?.indexOf('?') ?? -1;
  return target === undefined || at < 0 || at === target.length - 1 ? '' : target.slice(at);
}

export async function createHttpDoor(options: HttpDoorOptions): Promise<HttpDoor> {
  const { pipeline } = options;
  /** The errors Apollo words itself for the request it is answering (formatted by the pipeline's formatter), to log them. */
  const apolloRefusals = new AsyncLocalStorage<GraphQLFormattedError[]>();
  const apollo = new ApolloServer<BaseContext>({
    schema: options.schema,
    // Apollo answers only requests the door does not read (refusals): it keeps no documents and
    // has no persisted queries of its own (the pipeline's are the only ones).
    documentStore: null,
    persistedQueries: false,
    stringifyResult: (result) => JSON.stringify(result),
    formatError: (_formatted: GraphQLFormattedError, error: unknown) => {
      const formatted = options.formatErrors([error]).formatted[0] ?? { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
      apolloRefusals.getStore()?.push(formatted);
      return formatted;
    },
    csrfPrevention: true,
    introspection: true,
    stopOnTerminationSignals: false,
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), NOTHING_RUNS_IN_APOLLO],
  });
  await apollo.start();
  const contentTypeFor = createContentTypes();
  let refused = 0;

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const cancellation = new Cancellation();
    // The client went away before we answered: cancel its upstream calls.
    res.on('close', () => {
      if (!res.writableFinished) cancellation.abort();
    });
    const accept = req.headers.accept;
    // `multipart/mixed` accepted: an operation with an active @defer/@stream answers in parts.
    const parts = acceptsParts(accept);
    const caller: Caller = options.callerOf({ authorization: req.headers.authorization, socketAddress: req.socket.remoteAddress, headers: req.headers, cancellation, requestId });
    const runOptions: RunOptions = {
      door: 'http',
      requestId,
      cancellation,
      accepts: HTTP_ACCEPTS,
      viaGet: req.method === 'GET',
      incremental: parts,
      statusOf: (answer: Answer) => statusOf(answer, accept),
    };
    const refuse = (error: GraphQLError, status: number): void => {
      refused += 1;
      const answer = pipeline.refuse([error], caller, { ...runOptions, statusOf: () => status });
      send(res, answer, status, contentTypeFor(accept) ?? NO_ACCEPT_TYPE);
    };
    let text: string;
    try {
      text = req.method === 'POST' ? await readBody(req) : '';
    } catch (error) {
      const tooLarge = error instanceof BodyTooLargeError;
      return refuse(badRequest(error instanceof Error ? error.message : 'cannot read the request body'), tooLarge ? 413 : 400);
    }
    const parsed = parseBody(text, req.headers['content-type']);
    if (!parsed.ok) return refuse(badRequest('the request body is not valid JSON'), 400);
    // A well-formed request (a JSON POST, which browsers always preflight, or a GET a page could not
    // have sent: the CSRF rule) goes to the pipeline, which resolves its document (persisted queries
    // included), runs it, and is framed here. Apollo answers everything else, in its words.
    const read = req.method === 'POST' ? (typeof parsed.body === 'object' ? postParams(parsed.body) : null) : req.method === 'GET' && csrfRefusal(req.headers) === null ? getParams(searchOf(req.url), req.headers['content-type']) : null;
    const key = read ? idempotencyKeyOf(req, read) : null;
    if (key instanceof GraphQLError) return refuse(key, 400);
    const params = read && key !== null ? { ...read, extensions: { ...read.extensions, idempotencyKey: key } } : read;
    if (params) {
      // A client taking parts gets its JSON answers (refusals, operations that defer nothing) as JSON.
      const type = contentTypeFor(accept) ?? (parts ? NO_ACCEPT_TYPE : null);
      if (type === null) return refuse(notAcceptable(), 406);
      // The IDE's (or a client's) `netgraph-cost` header is this door's spelling of the request extension `"cost": true`.
      const wantsCost = /^(1|true)$/i.test(header(req.headers[COST_HEADER]) ?? '');
      const outcome = await pipeline.handle(wantsCost ? withCost(params) : params, caller, runOptions);
      if (isStream(outcome) && outcome.incremental) return writeParts(res, outcome);
      const answer = await single(outcome);
      send(res, answer, statusOf(answer, accept), type);
      return;
    }
    const refusals: GraphQLFormattedError[] = [];
    const response = await apolloRefusals.run(refusals, () =>
      apollo.executeHTTPGraphQLRequest({
        httpGraphQLRequest: { method: req.method ?? 'GET', headers: headerMap(req), search: searchOf(req.url), body: parsed.body },
        context: async () => ({}),
      }),
    );
    // Apollo refused the request (malformed, CSRF, a batch, another method): logged and counted like any refusal.
    refused += 1;
    pipeline.note(refusals, caller, { ...runOptions, statusOf: () => response.status ?? 200 });
    await writeResponse(res, response, contentTypeFor(accept));
  }

  return {
    name: 'http',
    mount: {
      path: options.path,
      async request(req, res) {
        const started = performance.now();
        const requestId = requestIdFrom(req.headers);
        res.setHeader('x-request-id', requestId);
        await serve(req, res, requestId);
        options.observe?.(res.statusCode, (performance.now() - started) / 1000);
      },
    },
    // Nothing of its own outlives a request; Apollo goes once the requests in flight have drained.
    stop: () => undefined,
    release: () => apollo.stop(),
    stats: () => ({ refused }),
  };
}

/** The parameters with the request extension `"cost": true` (the pipeline's one way to ask for the cost report). */
function withCost(params: GraphQLParams): GraphQLParams {
  return { ...params, extensions: { ...params.extensions, cost: true } };
}

/**
 * Apollo never runs an operation: every request it would run is one the door reads and hands to the
 * pipeline. Should one reach it all the same, it is refused rather than run outside the pipeline's limits.
 */
const NOTHING_RUNS_IN_APOLLO: ApolloServerPlugin<BaseContext> = {
  async requestDidStart() {
    return {
      async didResolveOperation() {
        throw new GraphQLError('this request is not one the gateway reads', { extensions: { code: ErrorCode.BAD_REQUEST, http: { status: 400, headers: new HeaderMap() } } });
      },
    };
  },
};

/** HTTP accepts no subscription (HTTP_ACCEPTS), and parts are written by writeParts: any other stream is ended, unanswered. */
async function single(answer: Answer | AnswerStream): Promise<Answer> {
  if (!isStream(answer)) return answer;
  await answer.return(undefined);
  return { result: {}, requestError: true };
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/**
 * The `Idempotency-Key` header, which the pipeline reads as `extensions.idempotencyKey` (checked
 * there, for mutations only): null when absent. Sent twice, or with another key in the body's
 * extension, it is refused (BAD_USER_INPUT): which key protects the create must never be a guess.
 */
function idempotencyKeyOf(req: IncomingMessage, params: GraphQLParams): string | null | GraphQLError {
  const sent = req.headersDistinct[IDEMPOTENCY_KEY_HEADER];
  if (sent === undefined) return null;
  const [value] = sent;
  if (sent.length !== 1 || value === undefined) return badUserInput('Idempotency-Key was sent more than once: send one key');
  const inBody = params.extensions?.['idempotencyKey'];
  if (inBody !== undefined && inBody !== null && inBody !== value) return badUserInput('Idempotency-Key and extensions.idempotencyKey differ: send the key once (either is enough)');
  return value;
}

function badUserInput(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.BAD_USER_INPUT, field: 'Idempotency-Key' } });
}

function badRequest(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.BAD_REQUEST } });
}

/** Apollo Server's words for an `Accept` that takes no JSON. */
function notAcceptable(): GraphQLError {
  return new GraphQLError("An 'accept' header was provided for this request which does not accept application/json or application/graphql-response+json", { extensions: { code: ErrorCode.BAD_REQUEST } });
}

async function writeResponse(res: ServerResponse, response: HTTPGraphQLResponse, contentType: string | null): Promise<void> {
  for (const [key, value] of response.headers) res.setHeader(key, value);
  // A single JSON answer: the door's one choice of content type (the same rule as Apollo's).
  if (contentType !== null && response.body.kind === 'complete' && /json/i.test(response.headers.get('content-type') ?? '')) res.setHeader('content-type', contentType);
  res.statusCode = response.status ?? 200;
  if (response.body.kind === 'complete') {
    endWith(res, response.body.string);
    return;
  }
  for await (const chunk of response.body.asyncIterator) {
    if (res.destroyed) break;
    res.write(chunk);
  }
  res.end();
}

/** The one framing of a pipeline answer on this door: its status, the headers its errors asked for, the content type by `Accept`. */
function send(res: ServerResponse, answer: Answer, status: number, contentType: string): void {
  const headers: Record<string, string> = { 'content-type': contentType };
  for (const [name, value] of answer.headers ?? []) headers[name] = value;
  if (isPersistedQueryMiss(answer)) for (const [name, value] of UNCACHED) headers[name] = value;
  res.writeHead(status, headers);
  endWith(res, JSON.stringify(answer.result));
}
