/**
 * GraphQL over HTTP on node:http through Apollo Server 5's `executeHTTPGraphQLRequest`
 * (Apollo 5 has no built-in framework integration: this file is ours).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { HeaderMap, type ApolloServer, type HTTPGraphQLResponse } from '@apollo/server';
import type { GatewayContext } from '../context';

/** Largest request body accepted (queries plus variables). */
export const MAX_BODY_BYTES = 1024 * 1024;

export class BodyTooLargeError extends Error {}

export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
    size += buf.length;
    if (size > limit) throw new BodyTooLargeError(`request body exceeds ${limit} bytes`);
    chunks.push(buf);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function headerMap(req: IncomingMessage): HeaderMap {
  const headers = new HeaderMap();
  for (const [key, value] of Object.entries(req.headers)) {
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

export async function handleGraphQL(
  apollo: ApolloServer<GatewayContext>,
  req: IncomingMessage,
  res: ServerResponse,
  context: () => Promise<GatewayContext>,
): Promise<number> {
  let text: string;
  try {
    text = req.method === 'POST' ? await readBody(req) : '';
  } catch (error) {
    return sendPlain(res, error instanceof BodyTooLargeError ? 413 : 400, error instanceof Error ? error.message : 'cannot read the request body');
  }
  const parsed = parseBody(text, req.headers['content-type']);
  if (!parsed.ok) return sendPlain(res, 400, 'the request body is not valid JSON');
  const url = new URL(req.url ?? '/', 'http://gateway.invalid');
  const response = await apollo.executeHTTPGraphQLRequest({
    httpGraphQLRequest: { method: req.method ?? 'GET', headers: headerMap(req), search: url.search, body: parsed.body },
    context,
  });
  await writeResponse(res, response);
  return response.status ?? 200;
}

async function writeResponse(res: ServerResponse, response: HTTPGraphQLResponse): Promise<void> {
  for (const [key, value] of response.headers) res.setHeader(key, value);
  res.statusCode = response.status ?? 200;
  if (response.body.kind === 'complete') {
    res.end(response.body.string);
    return;
  }
  for await (const chunk of response.body.asyncIterator) {
    if (res.destroyed) break;
    res.write(chunk);
  }
  res.end();
}

export function sendPlain(res: ServerResponse, status: number, text: string): number {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(`${text}\n`);
  return status;
}
