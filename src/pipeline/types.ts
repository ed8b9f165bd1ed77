/** The words every door and the pipeline share. */
import type { FormattedExecutionResult } from 'graphql';
import type { Cancellation } from '../core/cancellation';

import type { Door } from '../core/doors';
export type { Door };

/** Who sent the operation: built by the one caller factory (src/core/caller.ts) for every door. */
export type { Caller } from '../core/caller';

/** A GraphQL request's parameters, whatever the door's wire format. */
export interface GraphQLParams {
  query?: string | undefined;
  operationName?: string | null | undefined;
  variables?: Readonly<Record<string, unknown>> | null | undefined;
  extensions?: Readonly<Record<string, unknown>> | null | undefined;
}

/** A connection that runs several operations (a WebSocket, a reserved SSE stream): its subscriptions are bounded. */
export interface Connection {
  /** Subscriptions running on it now. */
  subscriptions: number;
}

/** What a door tells the pipeline about one operation besides its parameters. */
export interface RunOptions {
  door: Door;
  /** The id of the log line (HTTP: the caller's `x-request-id` when usable). */
  requestId?: string;
  /** Aborted when the client goes away; the pipeline makes one when the door has none. */
  cancellation?: Cancellation;
  /** The connection the operation runs on, for the per-connection subscription bound. */
  connection?: Connection;
  /** What kinds of operation the door accepts; others are refused before anything runs. @default every kind */
  accepts?: ReadonlySet<'query' | 'mutation' | 'subscription'>;
  /**
   * The door delivers an answer in parts (HTTP's `multipart/mixed`, WebSocket, SSE): an operation
   * with an active `@defer`/`@stream` then answers an incremental `AnswerStream`. Elsewhere the
   * whole result comes in one answer, the directives ignored. @default false
   */
  incremental?: boolean;
  /** The request came by HTTP GET: a mutation is refused (405), whatever the door. */
  viaGet?: boolean;
  /**
   * The door's framing of an answer as a status, for the log line and the trace (what its wire
   * answers: an HTTP status, or the status-like number a door gives a refusal it has no status
   * for). The pipeline records it and never decides by it. @default none in the log line
   */
  statusOf?(answer: Answer): number;
}

/** One answer: a result as the client gets it (errors formatted), and what the door needs to frame it. */
export interface Answer {
  result: FormattedExecutionResult;
  /** No data: the request was refused before anything ran (GraphQL over HTTP answers these 4xx or 200 by `Accept`). */
  requestError: boolean;
  /** A status an error asked for (`extensions.http.status`), when any. */
  status?: number;
  /** Headers an error asked for (`extensions.http.headers`, e.g. `Allow` with a 405), when any. */
  headers?: ReadonlyArray<readonly [string, string]>;
  /** The document itself was refused (not found, not trusted, too large, not valid, no such operation): nothing of it ran. */
  documentRefused?: boolean;
}

/**
 * One part of an answer delivered in parts (`@defer`/`@stream`, the 2022 format): the first
 * `{data, errors, hasNext}`, then `{incremental: [{data | items, errors, path, label}], hasNext}`;
 * the last says `hasNext: false`.
 */
export interface IncrementalPayload extends FormattedExecutionResult {
  hasNext: boolean;
  incremental?: ReadonlyArray<{
    data?: Record<string, unknown> | null;
    items?: ReadonlyArray<unknown> | null;
    errors?: FormattedExecutionResult['errors'];
    path?: ReadonlyArray<string | number>;
    label?: string;
    extensions?: Record<string, unknown>;
  }>;
}

/**
 * A stream of results, each formatted; `return()` ends it (a subscription's pollers stop, an
 * incremental answer's pending work is cancelled). A subscription's events, or, when `incremental`
 * is true, the parts of one query's answer (`IncrementalPayload`s).
 */
export type AnswerStream = AsyncGenerator<FormattedExecutionResult, void, undefined> & { readonly incremental?: true };
