/**
 * Which document a request means: its `query`, or a persisted query named by
 * `extensions.persistedQuery.sha256Hash` (automatic persisted queries, and the trusted documents
 * manifest). The protocol lives here once, for every door (`resolveDocument`): HTTP's Apollo Server
 * has no persisted queries of its own.
 */
import { GraphQLError } from 'graphql';
import { ErrorCode } from '../errors/codes';
import { sha256 as sha256Hex, type TrustedDocuments } from '../persisted/trusted-documents';
import type { PersistedQueryStore } from '../persisted/store';
import type { GraphQLParams } from './types';

export interface DocumentSources {
  apq: PersistedQueryStore | null;
  trusted: TrustedDocuments | null;
}

/** The request's document text and its hash, and whether it is to be registered once it proves valid. */
export interface ResolvedDocument {
  text: string;
  hash: string | undefined;
  register: boolean;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A persisted query's hash, spelt one way: exactly 64 lowercase hexadecimal digits, used verbatim.
 * Any other spelling (upper case, a prefix) names no document on any door (PERSISTED_QUERY_NOT_FOUND
 * by hash alone, "provided sha does not match query" with the document), so every lookup of one
 * request finds the same document, or none.
 */
export function isSha256Hex(hash: unknown): hash is string {
  return typeof hash === 'string' && /^[0-9a-f]{64}$/.test(hash);
}

const notFound = (): GraphQLError => new GraphQLError('PersistedQueryNotFound', { extensions: { code: 'PERSISTED_QUERY_NOT_FOUND' } });

/** The document of a request, or the errors refusing it (the same words and codes as Apollo Server's on HTTP). */
export async function resolveDocument(params: GraphQLParams, sources: DocumentSources): Promise<ResolvedDocument | GraphQLError> {
  const persisted = params.extensions?.['persistedQuery'];
  const query = typeof params.query === 'string' && params.query !== '' ? params.query : null;
  if (persisted === undefined || persisted === null) {
    if (query === null) return new GraphQLError('GraphQL operations must contain a non-empty `query` or a `persistedQuery` extension.', { extensions: { code: ErrorCode.BAD_REQUEST } });
    return { text: query, hash: undefined, register: false };
  }
  if (!sources.apq && !sources.trusted) return new GraphQLError('PersistedQueryNotSupported', { extensions: { code: 'PERSISTED_QUERY_NOT_SUPPORTED' } });
  if (!isRecord(persisted) || persisted['version'] !== 1) return new GraphQLError('Unsupported persisted query version', { extensions: { code: ErrorCode.BAD_REQUEST, http: { status: 400 } } });
  const hash = typeof persisted['sha256Hash'] === 'string' ? persisted['sha256Hash'] : '';
  if (query === null) {
    if (!isSha256Hex(hash)) return notFound();
    const text = sources.trusted?.get(hash) ?? (sources.apq ? await sources.apq.get(hash) : null);
    // Whatever store answered (memory, Redis, a manifest), the text runs only if it is the one named.
    return text && sha256Hex(text) === hash ? { text, hash, register: false } : notFound();
  }
  if (sha256Hex(query) !== hash) return new GraphQLError('provided sha does not match query', { extensions: { code: ErrorCode.BAD_REQUEST, http: { status: 400 } } });
  return { text: query, hash, register: sources.apq !== null && !sources.trusted?.only };
}
