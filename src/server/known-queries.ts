/**
 * Known queries: a query that Apollo Server has parsed, validated and resolved once is answered
 * again, for the same document text and operation name, without Apollo's per-request pipeline
 * (header map, request context, hashing, plugin hooks). It runs the same steps Apollo runs for it,
 * in the same order, with the same functions: the limits price it, the budget's deadline starts, a
 * heavy operation waits for its turn (src/limits/admission.ts), the executor runs it (executor.ts,
 * jit or graphql-js), errors are formatted as Apollo formats them, the cost report is added when
 * asked, and the body is the same compact JSON.
 *
 * Only the plain form is served: a POST whose JSON body has a string `query`, optional
 * `operationName` and `variables`, and no extension but `cost`. Anything else (GET, persisted
 * queries, a mutation, an unknown document, an operation the limits refuse, an `Accept` that
 * allows neither JSON type, variables that do not coerce) goes to Apollo, and `serve` returns null
 * before any resolver has run. So Apollo stays the judge of what is valid: a document is only
 * known once it has passed Apollo's parsing and validation.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { ApolloServerPlugin } from '@apollo/server';
import { GraphQLError, type DocumentNode, type GraphQLFormattedError, type GraphQLSchema, type OperationDefinitionNode } from 'graphql';
import Negotiator from 'negotiator';
import type { GatewayContext } from '../context';
import { CostTooExpensiveError } from '../errors/codes';
import { COST_HEADER, costAsked, costReport } from '../limits/plugin';
import type { HeavyOperationGate } from '../limits/admission';
import type { PriceLimits } from '../limits/limits';
import { priceOperation } from '../limits/price';
import { LruMap, MAX_CACHED_DOCUMENT_TEXT, type RunOperation } from './executor';
import type { FormatError } from './operations';
import { errorCodes, limitsOf, type RequestFacts } from './request-log';

/** Known (document, operation name) pairs kept at once: documents come from callers, so the map is bounded. */
export const MAX_KNOWN_QUERIES = 1000;

/** Apollo's media types for a single result (its `MEDIA_TYPES`), in its order of preference. */
const SINGLE_RESULT_TYPES = ['application/json; charset=utf-8', 'application/graphql-response+json; charset=utf-8', 'application/json; callbackSpec=1.0; charset=utf-8'];
/** What Apollo answers when the request has no `Accept` header. */
const NO_ACCEPT_TYPE = 'application/json; charset=utf-8';
/** A GraphQL name: only an operation name of this form can have resolved, so only these are looked up. */
const OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

interface KnownQuery {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** The resolved operation's name (null when anonymous). */
  operationName: string | null;
  /** Apollo's hash of the text (the compiled query's cache key in executor.ts). */
  queryHash: string;
  /** The text's length: the entry's weight. */
  textLength: number;
}

/** A request in the plain form (module comment), its fields as Apollo reads them. */
interface PlainRequest {
  query: string;
  operationName: string | undefined;
  variables: Record<string, unknown> | undefined;
  extensions: Record<string, unknown> | undefined;
}

/** What a known query answered. */
export interface KnownAnswer {
  status: number;
  headers: ReadonlyArray<readonly [string, string]>;
  body: string;
  facts: RequestFacts;
}

export interface KnownQueryStats {
  /** Queries known now. */
  known: number;
  /** Requests answered without Apollo's pipeline. */
  served: number;
}

export interface KnownQueriesOptions {
  schema: GraphQLSchema;
  run: RunOperation;
  limits: PriceLimits;
  /** Heavy operations take turns (src/limits/admission.ts). */
  gate: HeavyOperationGate;
  formatError: FormatError;
  includeStacktrace: boolean;
  /** @default MAX_KNOWN_QUERIES */
  max?: number;
  /** Document text kept at most, in characters. @default MAX_CACHED_DOCUMENT_TEXT */
  maxText?: number;
}

export interface KnownQueries {
  /** Pass to Apollo Server: remembers each query Apollo resolves. */
  plugin: ApolloServerPlugin<GatewayContext>;
  /**
   * Answers a request body (JSON, parsed) that is a known query in the plain form. Null when
   * Apollo must answer it; nothing has run then, though `context` may have been called.
   */
  serve(body: unknown, headers: IncomingHttpHeaders, context: () => GatewayContext): Promise<KnownAnswer | null>;
  stats(): KnownQueryStats;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function plainRequest(body: unknown): PlainRequest | null {
  if (!isRecord(body)) return null;
  const { query, operationName, variables, extensions } = body;
  if (typeof query !== 'string') return null;
  if (operationName !== undefined && operationName !== null && (typeof operationName !== 'string' || !OPERATION_NAME.test(operationName))) return null;
  if (variables !== undefined && variables !== null && !isRecord(variables)) return null;
  if (extensions !== undefined && extensions !== null && (!isRecord(extensions) || Object.keys(extensions).some((key) => key !== 'cost'))) return null;
  return {
    query,
    operationName: operationName ?? undefined,
    variables: variables ?? undefined,
    extensions: extensions ?? undefined,
  };
}

/** Operation names never contain a newline (OPERATION_NAME), so the key is unambiguous. */
function keyOf(operationName: string | undefined, query: string): string {
  return operationName === undefined ? `\n${query}` : `${operationName}\n${query}`;
}

/** A header value as one string (Node gives repeated ones as arrays; Apollo joins them). */
function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}

/** Apollo's error formatting (its `normalizeAndFormatErrors`), with the HTTP status and headers errors ask for. */
function formatErrors(
  errors: readonly GraphQLError[],
  formatError: FormatError,
  includeStacktrace: boolean,
): { formatted: GraphQLFormattedError[]; status: number | undefined; headers: Array<[string, string]> } {
  let status: number | undefined;
  const headers: Array<[string, string]> = [];
  const enrich = (error: unknown): GraphQLFormattedError => {
    const graphqlError = error instanceof GraphQLError ? error : new GraphQLError(error instanceof Error ? error.message : `Unexpected error value: ${String(error)}`, { originalError: error instanceof Error ? error : null });
    const extensions: Record<string, unknown> = { ...graphqlError.extensions, code: graphqlError.extensions['code'] ?? 'INTERNAL_SERVER_ERROR' };
    const http = extensions['http'];
    if (isRecord(http) && (!('status' in http) || typeof http['status'] === 'number') && (!('headers' in http) || http['headers'] instanceof Map)) {
      if (typeof http['status'] === 'number' && http['status'] !== 0) status = http['status'];
      if (http['headers'] instanceof Map) for (const [name, value] of http['headers']) headers.push([String(name), String(value)]);
      delete extensions['http'];
    }
    if (includeStacktrace) extensions['stacktrace'] = graphqlError.stack?.split('\n');
    return { ...graphqlError.toJSON(), extensions };
  };
  const formatted = errors.map((error) => {
    try {
      return formatError(enrich(error), error);
    } catch (formattingError) {
      return includeStacktrace ? enrich(formattingError) : { message: 'Internal server error', extensions: { code: 'INTERNAL_SERVER_ERROR' } };
    }
  });
  return { formatted, status, headers };
}

export function createKnownQueries(options: KnownQueriesOptions): KnownQueries {
  const { schema, run, limits, gate, formatError, includeStacktrace } = options;
  // Bounded by count and by text (a parsed document weighs in proportion to its text).
  const known = new LruMap<string, KnownQuery>(options.max ?? MAX_KNOWN_QUERIES, { of: (query) => query.textLength, max: options.maxText ?? MAX_CACHED_DOCUMENT_TEXT });
  // Accept headers repeat (a client sends the same one every time): negotiated once each.
  const contentTypes = new LruMap<string, string | null>(64);
  let served = 0;

  /** Apollo's choice of content type (`chooseContentTypeForSingleResultResponse`); null: Apollo answers 406. */
  function contentTypeFor(accept: string | undefined): string | null {
    if (!accept) return NO_ACCEPT_TYPE;
    let type = contentTypes.get(accept);
    if (type === undefined) {
      type = new Negotiator({ headers: { accept } }).mediaType(SINGLE_RESULT_TYPES) ?? null;
      contentTypes.set(accept, type);
    }
    return type;
  }

  const plugin: ApolloServerPlugin<GatewayContext> = {
    async requestDidStart() {
      return {
        async didResolveOperation({ request, document, operation, operationName, queryHash }) {
          if (operation?.operation !== 'query' || typeof request.query !== 'string') return;
          const name = request.operationName ?? undefined;
          if (name !== undefined && !OPERATION_NAME.test(name)) return;
          known.set(keyOf(name, request.query), { document, operation, operationName, queryHash, textLength: request.query.length });
        },
      };
    },
  };

  async function serve(body: unknown, headers: IncomingHttpHeaders, context: () => GatewayContext): Promise<KnownAnswer | null> {
    const request = plainRequest(body);
    if (request === null) return null;
    const query = known.get(keyOf(request.operationName, request.query));
    if (query === undefined) return null;
    const contentType = contentTypeFor(headerValue(headers.accept));
    if (contentType === null) return null;
    let estimate;
    try {
      estimate = priceOperation(schema, query.document, query.operationName ?? request.operationName, request.variables, limits);
    } catch (error) {
      // Apollo refuses it, in its words and with its status.
      if (error instanceof CostTooExpensiveError) return null;
      throw error;
    }
    const contextValue = context();
    const budget = contextValue.budget;
    budget.startDeadline();
    // A heavy operation waits for its turn; everything else goes on without a hop (most requests).
    const turn = gate.admit(estimate, budget);
    if (turn) await turn;
    let result;
    try {
      result = await run({ document: query.document, operation: query.operation, operationName: query.operationName, queryHash: query.queryHash, contextValue, variableValues: request.variables });
    } catch {
      // Not an answer (executors return errors, they do not throw): Apollo answers it as it would.
      return null;
    }
    // No data: the variables did not coerce, and no resolver ran. Apollo words and codes those errors.
    if (result.data === undefined) return null;
    budget.finish();
    const errors = result.errors && result.errors.length > 0 ? formatErrors(result.errors, formatError, includeStacktrace) : null;
    const extensions = costAsked(request.extensions, headerValue(headers[COST_HEADER])) ? { cost: costReport(estimate, budget, limits) } : undefined;
    // As Apollo: the headers errors ask for, and the content type unless one of them set it.
    const answerHeaders = errors?.headers ?? [];
    if (!answerHeaders.some(([name]) => name.toLowerCase() === 'content-type')) answerHeaders.push(['content-type', contentType]);
    served += 1;
    return {
      status: errors?.status ?? 200,
      headers: answerHeaders,
      // Apollo's field order (errors, data, extensions); JSON.stringify drops what is undefined.
      body: JSON.stringify({ errors: errors?.formatted, data: result.data, extensions }),
      facts: {
        operationName: query.operationName,
        operationType: 'query',
        errorCodes: errorCodes(errors?.formatted),
        limits: limitsOf(errors?.formatted),
      },
    };
  }

  return { plugin, serve, stats: () => ({ known: known.size, served }) };
}
