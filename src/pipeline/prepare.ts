/**
 * `prepare(text, operationName)`: everything about an operation that depends on its document
 * alone, done once per document and kept in one bounded cache (lru-cache, weighted by the text's
 * length): the trusted-documents verdict, the document's size and tokens (before parsing),
 * parsing, validation, the operation picked by name, and the slot the executor compiles into.
 * Refusals are kept too, so a document sent again is refused without being read again.
 *
 * Caches keyed by a document's own nodes (prices in src/limits/price.ts, selections in
 * src/resolvers/lookahead.ts, byte estimates in src/limits/instrument.ts) are WeakMaps: they go
 * when their document leaves this cache, so this cache's bound is theirs.
 */
import { getOperationAST, GraphQLError, parse, specifiedRules, validate, type DocumentNode, type GraphQLSchema, type OperationDefinitionNode, type ValidationRule } from 'graphql';
import { LRUCache } from 'lru-cache';
import { CostTooExpensiveError, ErrorCode } from '../errors/codes';
import { toGraphQLError } from '../errors/to-graphql-error';
import { checkDocument, type DocumentLimits } from '../limits/document-check';
import { sha256 as sha256Hex, type TrustedDocuments } from '../persisted/trusted-documents';
import { incrementalUseOf, type IncrementalUse } from './incremental';

export type OperationType = 'query' | 'mutation' | 'subscription';

/** One operation of a prepared document, ready to run. */
export interface PreparedOperation {
  readonly document: DocumentNode;
  readonly operation: OperationDefinitionNode;
  /** The operation's own name (null when anonymous). */
  readonly name: string | null;
  readonly type: OperationType;
  readonly hash: string;
  /** The executor's slot (src/pipeline/execute.ts): its compiled form, made on first run. */
  compiled: unknown;
  /** Its use of `@defer`/`@stream` (incremental.ts), found once here. */
  readonly incremental: IncrementalUse;
}

/** A document as the pipeline knows it: refused, or parsed and valid. */
export interface PreparedDocument {
  readonly hash: string;
  /** Why it may not run (trusted documents, size, syntax, validation), or null. */
  readonly refusal: readonly GraphQLError[] | null;
  readonly document: DocumentNode | null;
  /** Its operations by the name a request gave ('' for none), picked on first use. */
  readonly operations: Map<string, PreparedOperation | GraphQLError>;
  /** What it weighs in the cache: its text's length. */
  readonly weight: number;
}

export interface PrepareOptions {
  schema: GraphQLSchema;
  documentLimits: DocumentLimits;
  /** The trusted documents manifest, when configured (in `only` mode unlisted documents are refused). */
  trusted: TrustedDocuments | null;
  /** Rules besides graphql's own (e.g. no introspection). */
  extraRules?: readonly ValidationRule[];
  /** @default 1000 */
  maxDocuments?: number;
  /** Document text kept at most, in characters. @default 4 Mi */
  maxText?: number;
}

export interface Preparer {
  /** The document of this text (its hash given when the door knows it already), prepared or refused. */
  document(text: string, hash?: string): PreparedDocument;
  /** The operation a request names, or the error that says why there is none. */
  operation(prepared: PreparedDocument, operationName: string | null | undefined): PreparedOperation | GraphQLError;
  stats(): { documents: number; weight: number };
}

const NOT_IN_LIST = 'this gateway runs registered operations only (trusted documents); this operation is not in its list';

export function createPreparer(options: PrepareOptions): Preparer {
  const rules = [...specifiedRules, ...(options.extraRules ?? [])];
  const cache = new LRUCache<string, PreparedDocument>({
    max: options.maxDocuments ?? 1000,
    maxSize: options.maxText ?? 4 * 1024 * 1024,
    sizeCalculation: (entry) => entry.weight,
  });

  function refused(hash: string, text: string, errors: readonly GraphQLError[]): PreparedDocument {
    return { hash, refusal: errors, document: null, operations: new Map(), weight: text.length + 1 };
  }

  function read(text: string, hash: string): PreparedDocument {
    if (options.trusted?.only && options.trusted.get(hash) === undefined) {
      return refused(hash, text, [new GraphQLError(NOT_IN_LIST, { extensions: { code: ErrorCode.PERSISTED_QUERY_NOT_IN_LIST } })]);
    }
    try {
      checkDocument(text, options.documentLimits);
    } catch (error) {
      if (!(error instanceof CostTooExpensiveError)) throw error;
      return refused(hash, text, [toGraphQLError(error) ?? new GraphQLError(error.message)]);
    }
    let document: DocumentNode;
    try {
      document = parse(text);
    } catch (error) {
      const syntax = error instanceof GraphQLError ? error : new GraphQLError(String(error));
      return refused(hash, text, [new GraphQLError(syntax.message, { source: syntax.source, positions: syntax.positions, extensions: { code: 'GRAPHQL_PARSE_FAILED' } })]);
    }
    const invalid = validate(options.schema, document, rules);
    if (invalid.length > 0) {
      return refused(hash, text, invalid.map((e) => new GraphQLError(e.message, { nodes: e.nodes, source: e.source, positions: e.positions, originalError: e, extensions: { ...e.extensions, code: 'GRAPHQL_VALIDATION_FAILED' } })));
    }
    return { hash, refusal: null, document, operations: new Map(), weight: text.length + 1 };
  }

  return {
    document(text, hash = sha256Hex(text)) {
      let prepared = cache.get(hash);
      if (prepared === undefined) {
        prepared = read(text, hash);
        cache.set(hash, prepared);
      }
      return prepared;
    },
    operation(prepared, operationName) {
      const key = operationName ?? '';
      let found = prepared.operations.get(key);
      if (found !== undefined) return found;
      const document = prepared.document;
      const operation = document ? getOperationAST(document, operationName) : null;
      if (!document || !operation) {
        const message = operationName ? `Unknown operation named "${operationName}".` : 'Must provide operation name if query contains multiple operations.';
        found = new GraphQLError(message, { extensions: { code: 'OPERATION_RESOLUTION_FAILURE' } });
      } else {
        found = { document, operation, name: operation.name?.value ?? null, type: operation.operation, hash: prepared.hash, compiled: undefined, incremental: incrementalUseOf(document, operation) };
      }
      // Bounded by the names the document has, and by the names a caller tries (refusals kept for a few).
      if (!(found instanceof GraphQLError) || prepared.operations.size < 16) prepared.operations.set(key, found);
      return found;
    },
    stats: () => ({ documents: cache.size, weight: cache.calculatedSize }),
  };
}
