/**
 * A well-formed GraphQL-over-HTTP request read into the pipeline's parameters: a JSON POST body,
 * or a GET's query string, by Apollo Server's own rules for what it accepts. A request names its
 * document by `query` or by `extensions.persistedQuery`; which document that is, is the pipeline's
 * question (src/pipeline/documents.ts), so nothing here looks inside the persisted query. Anything
 * else (a malformed body or parameter, a batch, another method) reads as null: Apollo Server
 * answers it, in its words.
 */
import type { GraphQLParams } from '../pipeline';

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The parameters when each has its type (absent or null allowed) and a document is named; null otherwise. */
function paramsOf(fields: Fields): GraphQLParams | null {
  const { query, operationName, variables, extensions } = fields;
  if (query !== undefined && query !== null && typeof query !== 'string') return null;
  if (operationName !== undefined && operationName !== null && typeof operationName !== 'string') return null;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return null;
  if (extensions !== undefined && extensions !== null && !isRecord(extensions)) return null;
  // Neither a document nor a persisted query: Apollo's refusal says what a request must carry.
  if (!(typeof query === 'string' && query !== '') && !(isRecord(extensions) && extensions['persistedQuery'])) return null;
  return {
    query: typeof query === 'string' ? query : undefined,
    operationName: operationName ?? null,
    variables: (variables ?? null) as Fields | null,
    extensions: (extensions ?? null) as Fields | null,
  };
}

/** A JSON POST body's parameters. */
export function postParams(body: unknown): GraphQLParams | null {
  return isRecord(body) ? paramsOf(body) : null;
}

/** A parameter given at most once (null: more than once). */
function once(search: URLSearchParams, name: string): string | undefined | null {
  const values = search.getAll(name);
  return values.length > 1 ? null : values[0];
}

/** A JSON-object parameter (null: not one). */
function jsonOnce(search: URLSearchParams, name: string): Fields | undefined | null {
  const text = once(search, name);
  if (text === undefined || text === null) return text;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}

/** A GET's parameters from its query string (`?` included or not); a content type other than JSON reads as null. */
export function getParams(search: string, contentType: string | undefined): GraphQLParams | null {
  if (contentType !== undefined && contentType.split(';')[0]?.trim().toLowerCase() !== 'application/json') return null;
  const params = new URLSearchParams(search);
  const fields = { query: once(params, 'query'), operationName: once(params, 'operationName'), variables: jsonOnce(params, 'variables'), extensions: jsonOnce(params, 'extensions') };
  if (Object.values(fields).some((value) => value === null)) return null;
  return paramsOf(fields);
}
