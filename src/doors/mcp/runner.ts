/**
 * What the MCP door needs from the gateway: one way to run an operation through the same rules
 * as every other door (admission, budgets, deadline, trusted documents, execution, error
 * formatting, log line, metrics, trace). The door only translates MCP to and from these calls;
 * it never decides a GraphQL rule itself. The operation pipeline implements it (pipeline-runner.ts).
 */

export interface McpOperationRequest {
  query: string;
  operationName?: string;
  variables?: Record<string, unknown>;
  /** Request extensions: `idempotencyKey` of a mutation tool's call. */
  extensions?: Record<string, unknown>;
}

import type { Caller } from '../../core/caller';

/** Who is calling: the caller every door builds (its `Authorization` used exactly as on /graphql). */
export type McpCaller = Caller;

export interface McpError {
  message: string;
  path?: ReadonlyArray<string | number>;
  extensions?: Record<string, unknown>;
}

export interface McpResult {
  data?: Record<string, unknown> | null;
  errors?: ReadonlyArray<McpError>;
  extensions?: Record<string, unknown>;
}

/** The operation types `validate` reports (null when the document has no runnable operation). */
export type McpOperationType = 'query' | 'mutation' | 'subscription';

export interface McpValidation {
  /** Formatted errors (codes in `extensions.code`); empty when the operation may run. */
  errors: ReadonlyArray<Omit<McpError, 'path'>>;
  /** The estimated cost (`estimated`, `max`), null when it could not be priced. */
  cost: Record<string, unknown> | null;
  /** The type of the operation selected by `operationName`, once the document parsed. */
  operationType: McpOperationType | null;
}

export interface McpRunner {
  /** A query or mutation through the one pipeline (door 'mcp'): the same rules, budgets, logs as /graphql. Errors already formatted (codes in extensions.code). */
  execute(request: McpOperationRequest, caller: McpCaller, signal: AbortSignal): Promise<McpResult>;
  /** A subscription through the one pipeline: each event formatted; ends when the subscription completes or signal aborts. */
  subscribe(request: McpOperationRequest, caller: McpCaller, signal: AbortSignal): AsyncIterable<McpResult>;
  /** Validation and the estimated cost, without running (no upstream call). */
  validate(request: McpOperationRequest): McpValidation;
  /**
   * The caller as the platform sees it (its token verified, the verdict cached briefly): null when
   * the platform accepts the token; otherwise the refusal a query gets (no token or a refused
   * one: UNAUTHENTICATED; FORBIDDEN; UPSTREAM_UNAVAILABLE when the platform cannot say).
   */
  verify(caller: McpCaller): Promise<McpError | null>;
}
