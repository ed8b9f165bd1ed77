/**
 * The HTTP door: GraphQL over HTTP (POST and GET `/graphql`), with Apollo Server 5 as its front.
 * Apollo reads the request (GET parameters or JSON body, CSRF prevention, `GET` only for queries,
 * automatic persisted queries over the pipeline's lookup) and frames the answer (content type by
 * `Accept`, status, compact JSON). Everything GraphQL is the pipeline's: the source Apollo
 * resolves is prepared by the pipeline (Apollo's document store reads the prepared document, so
 * Apollo never parses or validates), and the plugin's `responseForOperation` hands the operation to
 * `pipeline.run`. Errors Apollo words itself go through the pipeline's formatter.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApolloServer, HeaderMap, type ApolloServerPlugin, type HTTPGraphQLResponse } from '@apollo/server';
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from '@apollo/server/plugin/disabled';
import { GraphQLError, Kind, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import { ErrorCode } from '../errors/codes';
import { isStream, type Answer, type AnswerStream, type Caller, type GraphQLParams, type Pipeline, type PreparedDocument, type RunOptions } from '../pipeline';
import type { ErrorFormatter } from '../pipeline/format';
import Negotiator from 'negotiator';
import { Cancellation } from '../core/cancellation';
import type { CallerFactory } from '../core/caller';
import { endWith } from './answer-body';

/** Largest request body accepted (queries plus variables); WebSocket messages share it. */
export const MAX_BODY_BYTES = 1024 * 1024;

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

/** A POST body that is one plain GraphQL request (no persisted query, no batch): the pipeline takes it as it is. */
function plainRequest(body: unknown): GraphQLParams | null {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return null;
  const { query, operationName, variables, extensions } = body as Record<string, unknown>;
  if (typeof query !== 'string') return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  if (variables !== undefined && variables !== null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
  if (extensions !== undefined && extensions !== null && (typeof extensions !== 'object' || Array.isArray(extensions) || 'persistedQuery' in extensions)) return null;
  return {
    query,
    operationName: operationName ?? null,
    variables: (variables ?? null) as Record<string, unknown> | null,
    extensions: (extensions ?? null) as Record<string, unknown> | null,
  };
}

/** One HTTP request as Apollo carries it to the plugin (Apollo shallow-copies it: state lives in `slot`). */
interface HttpCall {
  caller: Caller;
  options: RunOptions;
  slot: { prepared: PreparedDocument | null; answered: boolean };
}

/** Apollo's document store reads this for a refused document, so Apollo never parses it; the plugin answers the refusal. */
const REFUSED_DOCUMENT: DocumentNode = { kind: Kind.DOCUMENT, definitions: [] };

const HTTP_ACCEPTS: ReadonlySet<'query' | 'mutation' | 'subscription'> = new Set(['query', 'mutation']);

export interface HttpDoorOptions {
  schema: GraphQLSchema;
  pipeline: Pipeline;
  formatErrors: ErrorFormatter;
  /** The one way every door builds its caller (src/core/caller.ts). */
  callerOf: CallerFactory;
}

export interface HttpDoor {
  serve(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void>;
  stop(): Promise<void>;
}

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
  const plugin: ApolloServerPlugin<HttpCall> = {
    async requestDidStart() {
      return {
        async didResolveSource({ source, queryHash, contextValue }) {
          contextValue.slot.prepared = pipeline.prepare(source, queryHash);
        },
        async responseForOperation({ request, contextValue }) {
          const prepared = contextValue.slot.prepared;
          if (prepared === null) return null;
          contextValue.slot.answered = true;
          const answer = await pipeline.run(prepared, request, contextValue.caller, contextValue.options);
          const result = single(answer);
          const status = contextValue.options.statusOf?.(result) ?? 200;
          return { http: { status, headers: new HeaderMap() }, body: { kind: 'single', singleResult: result.result } };
        },
      };
    },
  };
  const apqCache = pipeline.apolloPersistedQueries();
  const apollo = new ApolloServer<HttpCall>({
    schema: options.schema,
    // The pipeline prepares every document; Apollo reads the prepared one by its hash.
    documentStore: {
      get: async (key: string) => pipeline.peek(key.slice(-64))?.document ?? REFUSED_DOCUMENT,
      set: async () => undefined,
      delete: async () => undefined,
    },
    // Compact JSON: Apollo's default pretty-prints every response.
    stringifyResult: (result) => JSON.stringify(result),
    formatError: (_formatted: GraphQLFormattedError, error: unknown) => options.formatErrors([error]).formatted[0] ?? { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } },
    csrfPrevention: true,
    introspection: true,
    stopOnTerminationSignals: false,
    persistedQueries: apqCache ? { cache: apqCache } : false,
    plugins: [ApolloServerPluginLandingPageDisabled(), ApolloServerPluginCacheControlDisabled(), plugin],
  });
  await apollo.start();
  const contentTypeFor = createContentTypes();

  async function serve(req: IncomingMessage, res: ServerResponse, requestId: string): Promise<void> {
    const cancellation = new Cancellation();
    // The client went away before we answered: cancel its upstream calls.
    res.on('close', () => {
      if (!res.writableFinished) cancellation.abort();
    });
    const accept = req.headers.accept;
    const caller: Caller = options.callerOf({ authorization: req.headers.authorization, socketAddress: req.socket.remoteAddress, headers: req.headers, cancellation, requestId });
    const runOptions: RunOptions = {
      door: 'http',
      requestId,
      cancellation,
      wantsCost: /^(1|true)$/i.test(header(req.headers[COST_HEADER]) ?? ''),
      accepts: HTTP_ACCEPTS,
      viaGet: req.method === 'GET',
      statusOf: (answer: Answer) => (answer.requestError ? requestErrorStatus(accept, answer.status ?? 400) : (answer.status ?? 200)),
    };
    let text: string;
    try {
      text = req.method === 'POST' ? await readBody(req) : '';
    } catch (error) {
      const message = error instanceof Error ? error.message : 'cannot read the request body';
      return sendRefusal(res, pipeline.refuse([badRequest(message)], caller, { ...runOptions, statusOf: () => (error instanceof BodyTooLargeError ? 413 : 400) }), error instanceof BodyTooLargeError ? 413 : 400, contentTypeFor(accept));
    }
    const parsed = parseBody(text, req.headers['content-type']);
    if (!parsed.ok) return sendRefusal(res, pipeline.refuse([badRequest('the request body is not valid JSON')], caller, { ...runOptions, statusOf: () => 400 }), 400, contentTypeFor(accept));
    // A plain JSON POST is what Apollo would hand the pipeline as it is: it goes there directly,
    // and is framed as every answer of this door is (contentTypeFor, statusOf). A JSON content
    // type is never a CSRF risk (browsers preflight it); anything else goes through Apollo.
    const params = req.method === 'POST' && typeof parsed.body === 'object' ? plainRequest(parsed.body) : null;
    const type = params ? contentTypeFor(accept) : null;
    if (params && type) {
      const answer = await pipeline.handle(params, caller, runOptions);
      const result = single(answer);
      res.writeHead(runOptions.statusOf?.(result) ?? 200, { 'content-type': type });
      endWith(res, JSON.stringify(result.result));
      return;
    }
    const call: HttpCall = { caller, options: runOptions, slot: { prepared: null, answered: false } };
    const response = await apollo.executeHTTPGraphQLRequest({
      httpGraphQLRequest: { method: req.method ?? 'GET', headers: headerMap(req), search: searchOf(req.url), body: parsed.body },
      context: async () => call,
    });
    // Apollo answered without the pipeline (a malformed request, CSRF, an unknown persisted query, GET for a
    // change): its errors are logged and counted like any refusal.
    if (!call.slot.answered) pipeline.note(errorsOf(response), caller, { ...runOptions, statusOf: () => response.status ?? 200 });
    await writeResponse(res, response, contentTypeFor(accept));
  }

  return {
    serve,
    stop: () => apollo.stop(),
  };
}

/** HTTP accepts no subscription (HTTP_ACCEPTS): a pipeline answer here is never a stream. */
function single(answer: Answer | AnswerStream): Answer {
  return isStream(answer) ? { result: {}, requestError: true } : answer;
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

function badRequest(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: ErrorCode.BAD_REQUEST } });
}

/** The formatted errors of an answer Apollo wrote itself. */
function errorsOf(response: HTTPGraphQLResponse): GraphQLFormattedError[] {
  if (response.body.kind !== 'complete') return [];
  try {
    const body: unknown = JSON.parse(response.body.string);
    if (typeof body !== 'object' || body === null || !('errors' in body) || !Array.isArray(body.errors)) return [];
    return body.errors.filter((e): e is GraphQLFormattedError => typeof e === 'object' && e !== null && typeof (e as { message?: unknown }).message === 'string');
  } catch {
    return [];
  }
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

/** A request the door could not read as GraphQL: the pipeline's refusal, as GraphQL over HTTP frames it. */
function sendRefusal(res: ServerResponse, answer: Answer, status: number, contentType: string | null): void {
  res.writeHead(status, { 'content-type': contentType ?? NO_ACCEPT_TYPE });
  res.end(JSON.stringify(answer.result));
}
