/**
 * INTERIM: the McpRunner (runner.ts) over what the gateway has today, until the operation
 * pipeline (src/pipeline) implements McpRunner and replaces this whole file. Nothing else in the
 * door imports it; src/server/index.ts builds it and hands it to createMcpHandler.
 *
 * - Queries and mutations: Apollo Server's `executeOperation` with the gateway's context, so the
 *   limits plugin prices the operation, starts its deadline and admits a heavy one, the executor
 *   (jit or graphql-js) runs it and `formatError` formats its errors, as over HTTP. The trusted
 *   documents manifest and the document's size and tokens are checked first, as graphql-http.ts
 *   does before Apollo.
 * - Subscriptions: the WebSocket and SSE transports' runner (src/server/operations.ts), with a
 *   "connection" per call.
 * - Validation: parse, validate and price (src/limits/price.ts), no context, no upstream call.
 *
 * Each operation gets one log line and one count in `netgraph_graphql_operations_total` with
 * transport `mcp`.
 */
import { randomUUID } from 'node:crypto';
import type { ApolloServer } from '@apollo/server';
import {
  getOperationAST,
  GraphQLError,
  parse,
  validate,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLFormattedError,
  type GraphQLSchema,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { releaseContext, type GatewayContext } from '../../context';
import { CostTooExpensiveError, ErrorCode } from '../../errors/codes';
import { toGraphQLError } from '../../errors/to-graphql-error';
import { checkDocument, type DocumentLimits } from '../../limits/document-check';
import type { PriceLimits } from '../../limits/limits';
import { priceOperation } from '../../limits/price';
import { applyTrustedDocuments, type TrustedDocuments } from '../../persisted/trusted-documents';
import type { OperationMetrics } from '../../server/operation-metrics';
import type { MakeContext, OperationRunner } from '../../server/operations';
import { errorCodes, limitsOf, logRequest, type Logger } from '../../server/request-log';
import { Cancellation } from '../../upstream/cancellation';
import type { McpCaller, McpOperationRequest, McpResult, McpRunner, McpValidation } from './runner';

export interface InterimRunnerOptions {
  schema: GraphQLSchema;
  apollo: ApolloServer<GatewayContext>;
  makeContext: MakeContext;
  /** Subscriptions, as WebSocket and SSE run them. */
  operations: OperationRunner;
  limits: { document: DocumentLimits; price: PriceLimits };
  trusted: TrustedDocuments | null;
  logger: Logger;
  metrics: OperationMetrics;
}

const NOT_IN_LIST = 'this gateway runs registered operations only (trusted documents); this operation is not in its list';

export function createInterimMcpRunner(options: InterimRunnerOptions): McpRunner {
  const { schema, operations } = options;

  /** Refusals before anything is parsed: the manifest, then the document's bytes and tokens. */
  function refusedBeforeParsing(query: string): GraphQLFormattedError[] | null {
    if (options.trusted?.only && !applyTrustedDocuments(options.trusted, { query }).ok) {
      return [{ message: NOT_IN_LIST, extensions: { code: ErrorCode.PERSISTED_QUERY_NOT_IN_LIST } }];
    }
    try {
      checkDocument(query, options.limits.document);
      return null;
    } catch (error) {
      if (!(error instanceof CostTooExpensiveError)) throw error;
      const formatted = toGraphQLError(error);
      return [{ message: error.message, extensions: formatted ? { ...formatted.extensions } : { code: error.code } }];
    }
  }

  function finished(operationName: string | null, started: number, calls: number, errors: readonly GraphQLFormattedError[] | undefined, waitedMs = 0): void {
    const facts = { operationName, errorCodes: errorCodes(errors), limits: limitsOf(errors) };
    options.metrics.observe('mcp', facts);
    logRequest(options.logger, { requestId: randomUUID(), transport: 'mcp', operationName, durationMs: performance.now() - started, upstreamCalls: calls, errorCodes: facts.errorCodes, waitedMs });
  }

  /** Parsed and validated, or the formatted errors (Apollo's codes for the same failures). */
  function parsed(query: string): { document: DocumentNode } | { errors: GraphQLFormattedError[] } {
    let document: DocumentNode;
    try {
      document = parse(query);
    } catch (error) {
      const message = error instanceof GraphQLError ? error.message : String(error);
      return { errors: [{ message, extensions: { code: 'GRAPHQL_PARSE_FAILED' } }] };
    }
    const invalid = validate(schema, document);
    if (invalid.length > 0) return { errors: invalid.map((e) => ({ message: e.message, extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } })) };
    return { document };
  }

  return {
    async execute(request: McpOperationRequest, caller: McpCaller, signal: AbortSignal): Promise<McpResult> {
      const started = performance.now();
      const operationName = request.operationName ?? null;
      const refused = refusedBeforeParsing(request.query);
      if (refused) {
        finished(operationName, started, 0, refused);
        return { errors: refused };
      }
      const cancellation = new Cancellation();
      const abort = (): void => cancellation.abort();
      if (signal.aborted) abort();
      else signal.addEventListener('abort', abort, { once: true });
      const calls = { count: 0 };
      const context = options.makeContext(caller.authorization, cancellation, calls);
      let result: McpResult = {};
      try {
        const response = await options.apollo.executeOperation(
          { query: request.query, ...(request.operationName !== undefined ? { operationName: request.operationName } : {}), ...(request.variables ? { variables: request.variables } : {}) },
          { contextValue: context },
        );
        if (response.body.kind === 'single') {
          const { data, errors, extensions } = response.body.singleResult;
          result = { ...(data !== undefined ? { data } : {}), ...(errors ? { errors } : {}), ...(extensions ? { extensions } : {}) };
        } else {
          result = { errors: [{ message: 'incremental delivery is not offered over MCP', extensions: { code: ErrorCode.BAD_REQUEST } }] };
        }
      } finally {
        signal.removeEventListener('abort', abort);
        context.budget.finish();
        releaseContext(context);
      }
      finished(operationName, started, calls.count, result.errors, context.budget.waitedMs);
      return result;
    },

    async *subscribe(request: McpOperationRequest, caller: McpCaller, signal: AbortSignal): AsyncIterable<McpResult> {
      const started = performance.now();
      const refused = refusedBeforeParsing(request.query);
      const checked = refused ? { errors: refused } : parsed(request.query);
      if ('errors' in checked) {
        finished(request.operationName ?? null, started, 0, checked.errors);
        yield { errors: checked.errors };
        return;
      }
      const { document } = checked;
      const operationName = getOperationAST(document, request.operationName)?.name?.value ?? null;
      const context = operations.start({ transport: 'mcp', subscriptions: 0 }, caller.authorization, operationName);
      try {
        const source = await operations.subscribe({
          schema,
          document,
          operationName: request.operationName ?? null,
          variableValues: request.variables ?? null,
          contextValue: context,
        });
        if (!isAsyncIterable(source)) {
          yield operations.formatResult(context, source);
          return;
        }
        const iterator = source[Symbol.asyncIterator]();
        const aborted = new Promise<'aborted'>((resolve) => {
          if (signal.aborted) resolve('aborted');
          else signal.addEventListener('abort', () => resolve('aborted'), { once: true });
        });
        try {
          for (;;) {
            const next = await Promise.race([iterator.next(), aborted]);
            if (next === 'aborted' || next.done) break;
            yield operations.formatResult(context, next.value);
          }
        } finally {
          // Not awaited: a pending next() would hold it; complete() below aborts the operation anyway.
          void iterator.return?.(undefined).catch(() => undefined);
        }
      } finally {
        operations.complete(context);
      }
    },

    validate(request: McpOperationRequest): McpValidation {
      const refused = refusedBeforeParsing(request.query);
      if (refused) return { errors: refused, cost: null, operationType: null };
      const checked = parsed(request.query);
      if ('errors' in checked) return { errors: checked.errors, cost: null, operationType: null };
      const operation = getOperationAST(checked.document, request.operationName);
      if (!operation) {
        const message = request.operationName ? `Unknown operation named "${request.operationName}".` : 'Must provide operation name if query contains multiple operations.';
        return { errors: [{ message, extensions: { code: ErrorCode.BAD_USER_INPUT } }], cost: null, operationType: null };
      }
      const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], request.variables ?? {});
      if (coerced.errors) {
        return { errors: coerced.errors.map((e) => ({ message: e.message, extensions: { code: ErrorCode.BAD_USER_INPUT } })), cost: null, operationType: operation.operation };
      }
      const limits = options.limits.price;
      const max = { nodes: limits.maxNodes, upstreamCalls: limits.maxUpstreamCalls, depth: limits.maxDepth, aliases: limits.maxAliases };
      try {
        const estimated = priceOperation(schema, checked.document, request.operationName, request.variables, limits);
        return { errors: [], cost: { estimated, max }, operationType: operation.operation };
      } catch (error) {
        if (!(error instanceof CostTooExpensiveError)) throw error;
        const formatted = toGraphQLError(error);
        return {
          errors: [{ message: error.message, extensions: formatted ? { ...formatted.extensions } : { code: error.code } }],
          cost: { estimated: { [error.limit]: error.estimated }, max },
          operationType: operation.operation,
        };
      }
    },
  };
}

function isAsyncIterable(value: AsyncIterable<ExecutionResult> | ExecutionResult): value is AsyncIterable<ExecutionResult> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
