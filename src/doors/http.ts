/**
 * GraphQL over HTTP on node:http through Apollo Server 5's `executeHTTPGraphQLRequest`
 * (Apollo 5 has no built-in framework integration: this file is ours).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type HTTPGraphQLResponse } from '@apollo/server';
import type { GatewayContext } from '../context';
import { CostTooExpensiveError, ErrorCode } from '../errors/codes';
import { toGraphQLError } from '../errors/to-graphql-error';
import { checkDocument, type DocumentLimits } from '../limits/document-check';
import { applyTrustedDocuments, type TrustedDocuments } from '../persisted/trusted-documents';
import { requestErrorStatus } from '../limits/plugin';
import { endWith } from './answer-body';
import type { KnownQueries } from './known-queries';
import { errorCodes, limitsOf, type RequestFacts } from './request-log';

/** What handleGraphQL answered: the status, and the facts of a response it wrote itself (refused before Apollo). */
export interface Handled {
  status: number;
  facts?: RequestFacts;
}

/** Largest request body accepted (queries plus variables). */
export const MAX_BODY_BYTES = 1024 * 1024;

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

/** GET's parameters as a body (query, extensions), for the checks that read a body. */
function getRequestAsBody(url: URL): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  const query = url.searchParams.get('query');
  if (query !== null) body['query'] = query;
  const extensions = url.searchParams.get('extensions');
  if (extensions !== null) {
    try {
      body['extensions'] = JSON.parse(extensions) as unknown;
    } catch {
      // Apollo answers a malformed `extensions` parameter itself.
    }
  }
  return body;
}

export interface HandleOptions {
  documentLimits: DocumentLimits;
  /** The trusted documents manifest, when configured. */
  trusted: TrustedDocuments | null;
  /** Queries answered without Apollo's pipeline once Apollo has run them (known-queries.ts). */
  known: KnownQueries;
}

export async function handleGraphQL(
  apollo: ApolloServer<GatewayContext>,
  req: IncomingMessage,
  res: ServerResponse,
  /** The request's context, made on first call (the same one every call). */
  context: () => GatewayContext,
  { documentLimits, trusted, known }: HandleOptions,
): Promise<Handled> {
  let text: string;
  try {
    text = req.method === 'POST' ? await readBody(req) : '';
  } catch (error) {
    const message = error instanceof Error ? error.message : 'cannot read the request body';
    return sendRequestError(res, error instanceof BodyTooLargeError ? 413 : 400, message, ErrorCode.BAD_REQUEST);
  }
  const parsed = parseBody(text, req.headers['content-type']);
  if (!parsed.ok) return sendRequestError(res, 400, 'the request body is not valid JSON', ErrorCode.BAD_REQUEST);
  // Parsed only when read (GET parameters, trusted documents): a POST's document is in its body.
  let parsedUrl: URL | undefined;
  const url = (): URL => (parsedUrl ??= new URL(req.url ?? '/', 'http://gateway.invalid'));
  let body = parsed.body;
  if (trusted) {
    const isGet = req.method !== 'POST';
    const verdict = applyTrustedDocuments(trusted, isGet ? getRequestAsBody(url()) : body);
    if (!verdict.ok) return sendErrors(res, requestErrorStatus(req.headers.accept), [{ message: verdict.message, extensions: { code: ErrorCode.PERSISTED_QUERY_NOT_IN_LIST } }]);
    const resolved = verdict.body as Record<string, unknown>;
    if (isGet && typeof resolved['query'] === 'string') url().searchParams.set('query', resolved['query']);
    else if (!isGet) body = resolved;
  }
  // Size and token count are checked on the text, before Apollo parses it (document-check.ts).
  const query = documentOf(body, url);
  if (query !== null) {
    try {
      checkDocument(query, documentLimits);
    } catch (error) {
      if (!(error instanceof CostTooExpensiveError)) throw error;
      const formatted = toGraphQLError(error);
      return sendErrors(res, requestErrorStatus(req.headers.accept), [{ message: error.message, extensions: formatted ? { ...formatted.extensions } : { code: error.code } }]);
    }
  }
  if (req.method === 'POST') {
    const answer = await known.serve(body, req.headers, context);
    if (answer !== null) {
      for (const [key, value] of answer.headers) res.setHeader(key, value);
      res.statusCode = answer.status;
      endWith(res, answer.body);
      return { status: answer.status, facts: answer.facts };
    }
  }
  const response = await apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: req.method ?? 'GET', headers: headerMap(req), search: parsedUrl?.search ?? searchOf(req.url), body },
    context: async () => context(),
  });
  await writeResponse(res, response);
  return { status: res.statusCode };
}

/** Request errors that GraphQL over HTTP answers 200 to a client that accepts only `application/json`. */
const DOCUMENT_ERROR_CODES = new Set(['GRAPHQL_PARSE_FAILED', 'GRAPHQL_VALIDATION_FAILED', 'BAD_USER_INPUT']);

/**
 * GraphQL over HTTP: with `application/json`, a well-formed request whose document does not parse,
 * validate, or whose variables do not coerce SHOULD get 200 (Apollo answers 400 whatever the media
 * type); `application/graphql-response+json` keeps 400.
 */
function statusFor(response: HTTPGraphQLResponse): number {
  const status = response.status ?? 200;
  if (status !== 400 || response.body.kind !== 'complete') return status;
  if (!/^application\/json/i.test(response.headers.get('content-type') ?? '')) return status;
  try {
    const body = JSON.parse(response.body.string) as { data?: unknown; errors?: Array<{ extensions?: { code?: unknown } }> };
    const codes = (body.errors ?? []).map((e) => e.extensions?.code);
    return body.data === undefined && codes.length > 0 && codes.every((c) => typeof c === 'string' && DOCUMENT_ERROR_CODES.has(c)) ? 200 : status;
  } catch {
    return status;
  }
}

async function writeResponse(res: ServerResponse, response: HTTPGraphQLResponse): Promise<void> {
  for (const [key, value] of response.headers) res.setHeader(key, value);
  res.statusCode = statusFor(response);
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

/** The document of a request, from a JSON body's `query` or GET's `query` parameter; null when none. */
function documentOf(body: unknown, url: () => URL): string | null {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const query = (body as Record<string, unknown>)['query'];
    return typeof query === 'string' ? query : null;
  }
  return url().searchParams.get('query');
}

/** The query string of a request target, `?` included ('' when none): a POST's, which nothing parses (a GET's URL is always parsed by then). */
function searchOf(target: string | undefined): string {
  const at = target?.indexOf('?') ?? -1;
  return target === undefined || at < 0 || at === target.length - 1 ? '' : target.slice(at);
}

/** A request that is not a GraphQL request the gateway can read: a GraphQL error response with a code. */
function sendRequestError(res: ServerResponse, status: number, message: string, code: ErrorCode): Handled {
  // Malformed bodies are 400 for either media type (GraphQL over HTTP); a body over the size cap is 413.
  return sendErrors(res, status, [{ message, extensions: { code } }]);
}

function sendErrors(res: ServerResponse, status: number, errors: ReadonlyArray<{ message: string; extensions: Record<string, unknown> }>): Handled {
  const accept = res.req.headers.accept ?? '';
  const type = /application\/graphql-response\+json/i.test(accept) || !/application\/json/i.test(accept) ? 'application/graphql-response+json' : 'application/json';
  res.writeHead(status, { 'content-type': `${type}; charset=utf-8` });
  res.end(JSON.stringify({ errors }));
  return { status, facts: { operationName: null, errorCodes: errorCodes(errors), limits: limitsOf(errors) } };
}

export function sendPlain(res: ServerResponse, status: number, text: string): number {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
  return status;
}
