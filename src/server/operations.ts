/**
 * What both subscription transports (WebSocket: websocket.ts, Server-Sent Events: sse.ts) share:
 * one operation's life cycle. Each operation gets its own Cancellation (aborted when it completes
 * or its connection closes), each subscription event runs with a fresh context (DataLoader caches
 * never span events), subscriptions per connection are bounded, and each operation ends with one
 * log line. The limits are HTTP's (src/limits): a document over its size or tokens is refused
 * before it is parsed, an operation over its price before it runs, and each query, mutation and
 * subscription event runs within the budget's deadline.
 */
import {
  createSourceEventStream,
  execute,
  getOperationAST,
  GraphQLError,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLFormattedError,
} from 'graphql';
import { Gauge, type Registry } from 'prom-client';
import type { GatewayContext } from '../context';
import { CostTooExpensiveError, LimitExceededError } from '../errors/codes';
import { toGraphQLError } from '../errors/to-graphql-error';
import { checkDocument, type DocumentLimits } from '../limits/document-check';
import type { HeavyOperationGate } from '../limits/admission';
import type { CostEstimate } from '../limits/cost';
import type { PriceLimits } from '../limits/limits';
import { priceOperation } from '../limits/price';
import type { IncomingHeaders, OperationSpan, Tracer } from '../tracing';
import { Cancellation } from '../upstream/cancellation';
import { randomUUID } from 'node:crypto';
import { outcomeOf, type OperationMetrics } from './operation-metrics';
import { errorCodes, limitsOf, logRequest, type Logger, type Transport } from './request-log';

/** A client connection: one WebSocket, or one SSE event stream. */
export interface Connection {
  readonly transport: Exclude<Transport, 'http'>;
  /** Subscriptions running on it now. */
  subscriptions: number;
}

/** A result with its errors formatted for the client. */
export type Formatted<R> = Omit<R, 'errors'> & { errors?: GraphQLFormattedError[] };

export type MakeContext = (authorization: string | undefined, cancellation: Cancellation, calls: { count: number }, trace?: OperationSpan) => GatewayContext;
export type FormatError = (formatted: GraphQLFormattedError, error: unknown) => GraphQLFormattedError;

export interface OperationRunnerOptions {
  /** A context for one operation or one event of a subscription. */
  createContext: MakeContext;
  formatError: FormatError;
  logger: Logger;
  /** Counts each finished operation by name and outcome. */
  metrics?: OperationMetrics;
  /** Subscriptions one connection may run at once. */
  maxSubscriptionsPerConnection: number;
  /** Where `netgraph_subscriptions_active` registers. */
  registry: Registry;
  /** HTTP's limits: the document's size and tokens, and the operation's price. */
  limits: { document: DocumentLimits; price: PriceLimits };
  /** Heavy queries and mutations take turns with HTTP's (src/limits/admission.ts); subscription events do not wait. */
  gate: HeavyOperationGate;
  /** One span per operation (a subscription's lasts until it completes), when tracing is on. */
  tracer?: Tracer | null;
}

export interface OperationRunner {
  /** The context of a new operation on `connection`; the runner keeps its state until `complete`. `headers` carry the caller's trace context (the WebSocket upgrade's, the SSE request's). */
  start(connection: Connection, authorization: string | undefined, operationName: string | null, headers?: IncomingHeaders): GatewayContext;
  /** The document's size and tokens, checked before it is parsed (each transport's `onSubscribe`): null when within the limits, else the refusal. */
  checkDocument(query: string): GraphQLError[] | null;
  /** Logs and counts an operation refused before it started (no context was made for it). */
  refusedBeforeStart(transport: Connection['transport'], errors: readonly GraphQLError[]): void;
  /** graphql-js `execute` of a query or mutation: priced first, run within the budget's deadline. */
  execute(args: ExecutionArgs): Promise<ExecutionResult>;
  /** graphql-js `subscribe`, priced first, with a fresh context per event and the per-connection bound. */
  subscribe(args: ExecutionArgs): Promise<AsyncGenerator<ExecutionResult> | ExecutionResult>;
  /** A result as the client gets it (unexpected errors masked); its error codes go to the log line. */
  formatResult<R extends { errors?: readonly GraphQLError[] }>(context: unknown, result: R): Formatted<R>;
  formatErrors(context: unknown, errors: readonly GraphQLError[]): GraphQLFormattedError[];
  /** The operation ended: abort its cancellation (its pollers and timers stop) and log it. Idempotent. */
  complete(context: unknown): void;
}

interface OperationState {
  /** The operation's context (a subscription's events each get a fresh one from `make`). */
  context: GatewayContext;
  requestId: string;
  connection: Connection;
  cancellation: Cancellation;
  calls: { count: number };
  started: number;
  operationName: string | null;
  /** Known once the operation runs (execute or subscribe). */
  operationType: string | null;
  trace: OperationSpan | undefined;
  codes: string[];
  limits: Array<{ code: string; limit: string }>;
  /** A fresh context for the next event (same caller, same signal). */
  make(): GatewayContext;
  done: boolean;
}

export function createOperationRunner(options: OperationRunnerOptions): OperationRunner {
  const states = new WeakMap<object, OperationState>();
  const active = new Gauge({
    name: 'netgraph_subscriptions_active',
    help: 'Subscriptions running now, by transport (ws, sse).',
    labelNames: ['transport'] as const,
    registers: [options.registry],
  });
  const stateOf = (context: unknown): OperationState | undefined =>
    typeof context === 'object' && context !== null ? states.get(context) : undefined;

  function formatErrors(context: unknown, errors: readonly GraphQLError[]): GraphQLFormattedError[] {
    const formatted = errors.map((e) => options.formatError(e.toJSON(), e));
    const state = stateOf(context);
    state?.codes.push(...errorCodes(formatted));
    state?.limits.push(...limitsOf(formatted));
    return formatted;
  }

  /** The operation's price, before anything runs: its estimate when within the limits, else the refusal. */
  function price(args: ExecutionArgs): { refusal: ExecutionResult } | { refusal: null; estimate: CostEstimate | null } {
    try {
      return { refusal: null, estimate: priceOperation(args.schema, args.document, args.operationName, args.variableValues ?? undefined, options.limits.price) };
    } catch (error) {
      if (!(error instanceof CostTooExpensiveError)) throw error;
      return { refusal: { errors: [new GraphQLError(error.message, { originalError: error })] } };
    }
  }

  /** Holds one of the connection's subscription slots until `release` (called once). */
  function hold(state: OperationState): (() => void) | null {
    const { connection } = state;
    if (connection.subscriptions >= options.maxSubscriptionsPerConnection) return null;
    connection.subscriptions += 1;
    active.inc({ transport: connection.transport });
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      connection.subscriptions -= 1;
      active.dec({ transport: connection.transport });
    };
  }

  return {
    start(connection, authorization, operationName, headers = {}) {
      const cancellation = new Cancellation();
      const calls = { count: 0 };
      const trace = options.tracer?.startOperation({ door: connection.transport, headers });
      const make = (): GatewayContext => options.createContext(authorization, cancellation, calls, trace);
      const context = make();
      const state: OperationState = {
        context,
        requestId: randomUUID(),
        connection,
        cancellation,
        calls,
        started: performance.now(),
        operationName,
        operationType: null,
        trace,
        codes: [],
        limits: [],
        make,
        done: false,
      };
      states.set(context, state);
      return context;
    },

    checkDocument(query) {
      try {
        checkDocument(query, options.limits.document);
        return null;
      } catch (error) {
        if (!(error instanceof CostTooExpensiveError)) throw error;
        // Its code and cost already in place: a transport may send it without formatting it.
        return [toGraphQLError(error) ?? new GraphQLError(error.message, { originalError: error })];
      }
    },

    refusedBeforeStart(transport, errors) {
      const formatted = errors.map((e) => e.toJSON());
      const facts = { operationName: null, errorCodes: errorCodes(formatted), limits: limitsOf(formatted) };
      options.metrics?.observe(transport, facts);
      logRequest(options.logger, { requestId: randomUUID(), transport, operationName: null, durationMs: 0, upstreamCalls: 0, errorCodes: facts.errorCodes });
    },

    async execute(args) {
      const state = stateOf(args.contextValue);
      if (state) state.operationType = getOperationAST(args.document, args.operationName)?.operation ?? null;
      const priced = price(args);
      if (priced.refusal) return priced.refusal;
      const budget = state?.context.budget;
      budget?.startDeadline();
      // A heavy query or mutation waits for its turn, as over HTTP (src/limits/admission.ts).
      if (budget) await options.gate.admit(priced.estimate, budget);
      try {
        return await execute(args);
      } finally {
        budget?.finish();
      }
    },

    async subscribe(args) {
      const state = stateOf(args.contextValue);
      if (!state) return { errors: [new GraphQLError('subscription without an operation context')] };
      state.operationType = 'subscription';
      const priced = price(args);
      if (priced.refusal) return priced.refusal;
      const release = hold(state);
      if (!release) {
        const max = options.maxSubscriptionsPerConnection;
        const limit = new LimitExceededError('subscriptionsPerConnection', max, `this connection runs ${max} subscriptions already (MAX_SUBSCRIPTIONS_PER_CONNECTION); complete one first`);
        return { errors: [new GraphQLError(limit.message, { originalError: limit })] };
      }
      let source: AsyncIterable<unknown> | ExecutionResult;
      try {
        source = await createSourceEventStream(args);
      } catch (error) {
        release();
        throw error;
      }
      if (!isAsyncIterable(source)) {
        release();
        return source;
      }
      return withFreshContexts(source, args, state, release);
    },

    formatResult(context, result) {
      const { errors, ...rest } = result;
      return errors ? { ...rest, errors: formatErrors(context, errors) } : rest;
    },

    formatErrors,

    complete(context) {
      const state = stateOf(context);
      if (!state || state.done) return;
      state.done = true;
      state.cancellation.abort();
      options.metrics?.observe(state.connection.transport, { operationName: state.operationName, errorCodes: state.codes, limits: state.limits });
      state.trace?.end({
        operationName: state.operationName,
        operationType: state.operationType,
        outcome: outcomeOf(state.codes),
        upstreamCalls: state.calls.count,
        errorCodes: state.codes,
      });
      logRequest(options.logger, {
        requestId: state.requestId,
        transport: state.connection.transport,
        operationName: state.operationName,
        durationMs: performance.now() - state.started,
        upstreamCalls: state.calls.count,
        errorCodes: state.codes,
        waitedMs: state.context.budget.waitedMs,
      });
    },
  };
}

/**
 * The source's events, each executed with a fresh context. `return()` (client complete,
 * connection closed) aborts the operation's cancellation first, so a source waiting for its next event
 * stops now instead of at its next tick; the connection's slot is released however it ends.
 */
function withFreshContexts(source: AsyncIterable<unknown>, args: ExecutionArgs, state: OperationState, release: () => void): AsyncGenerator<ExecutionResult> {
  const events = mapEvents(source, async (payload) => {
    // Each event's execution has its own context, budget and deadline (the source stream has none).
    const contextValue = state.make();
    contextValue.budget.startDeadline();
    try {
      return await execute({
        schema: args.schema,
        document: args.document,
        operationName: args.operationName,
        variableValues: args.variableValues,
        fieldResolver: args.fieldResolver,
        typeResolver: args.typeResolver,
        rootValue: payload,
        contextValue,
      });
    } finally {
      contextValue.budget.finish();
    }
  });
  const wrapped: AsyncGenerator<ExecutionResult> = {
    next: async (...rest) => {
      try {
        const result = await events.next(...rest);
        if (result.done) release();
        return result;
      } catch (error) {
        release();
        throw error;
      }
    },
    return: (value) => {
      state.cancellation.abort();
      release();
      return events.return(value);
    },
    throw: (error: unknown) => {
      state.cancellation.abort();
      release();
      return events.throw(error);
    },
    [Symbol.asyncIterator]: () => wrapped,
  };
  return wrapped;
}

async function* mapEvents(source: AsyncIterable<unknown>, run: (payload: unknown) => ExecutionResult | Promise<ExecutionResult>): AsyncGenerator<ExecutionResult> {
  try {
    for await (const payload of source) yield await run(payload);
  } catch (error) {
    // An error from the event source ends the stream with that error as a result.
    yield { errors: [error instanceof GraphQLError ? error : new GraphQLError(error instanceof Error ? error.message : String(error), { originalError: error instanceof Error ? error : null })] };
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
