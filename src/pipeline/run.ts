/**
 * `run(prepared, params, caller, options)`: the one place an operation is admitted and run, for
 * every door. In order: the prepared document's refusal, the operation picked by name, the kinds
 * the door accepts, the price (before anything runs: a refusal costs no upstream call), the
 * caller's context and budget, the deadline, the heavy-operation turn, execution, error
 * formatting, the cost report, then the log line, metrics and trace of the operation.
 *
 * A subscription holds one of its connection's slots, makes a fresh context (fresh loaders, its
 * own budget and deadline) for each event, and is logged once, when it ends.
 */
import { createSourceEventStream, execute, GraphQLError, type ExecutionResult, type FormattedExecutionResult, type GraphQLFormattedError, type GraphQLSchema } from 'graphql';
import type { Logger } from 'pino';
import type { CallCounter, GatewayContext } from '../context';
import { SharedEventExecutions } from './shared-events';
import { CostTooExpensiveError, ErrorCode, GatewayError, LimitExceededError } from '../errors/codes';
import { shareKeyOf } from '../core/caller';
import type { HeavyOperationGate } from '../limits/admission';
import type { Hold, SharedLimit } from '../core/shares';
import type { CostEstimate } from '../limits/cost';
import type { PriceLimits } from '../limits/limits';
import { priceOperation } from '../limits/price';
import type { OperationSpan, Tracer } from '../tracing';
import { Cancellation } from '../core/cancellation';
import type { Executor } from './execute';
import { errorCodes, limitsOf, type ErrorFormatter } from './format';
import { outcomeOf, type OperationMetrics } from './operation-metrics';
import type { PreparedDocument, PreparedOperation, Preparer } from './prepare';
import { logRequest } from './request-log';
import type { Answer, AnswerStream, Caller, GraphQLParams, RunOptions } from './types';

/** The cost report a client asks for with the request extension `"cost": true` (or the door's own way). */
export function costReport(estimate: CostEstimate | null, context: GatewayContext, limits: PriceLimits): Record<string, unknown> {
  const budget = context.budget;
  return {
    estimated: estimate,
    actual: { ...budget.usage },
    max: {
      estimated: { nodes: limits.maxNodes, upstreamCalls: limits.maxUpstreamCalls, depth: limits.maxDepth, aliases: limits.maxAliases },
      actual: { ...budget.limits },
    },
  };
}

export interface RunDeps {
  schema: GraphQLSchema;
  preparer: Preparer;
  executor: Executor;
  priceLimits: PriceLimits;
  gate: HeavyOperationGate;
  formatErrors: ErrorFormatter;
  /** A context for one operation (or one subscription event) of this caller. */
  createContext(caller: Caller, cancellation: Cancellation, calls: { count: number }, trace: OperationSpan | undefined): GatewayContext;
  /** The operation is answered: let go of its loaders. */
  releaseContext(context: GatewayContext): void;
  /** Subscriptions per verified identity (every door together), and without a token (gateway-wide, a share per address). */
  subscriptionShares: { perCaller: SharedLimit; anonymous: SharedLimit };
  logger: Logger;
  metrics: OperationMetrics;
  tracer: Tracer | null;
  maxSubscriptionsPerConnection: number;
  /** Told when a subscription starts (+1) and ends (-1), by door. */
  onSubscriptionCount?(door: RunOptions['door'], delta: 1 | -1): void;
}

export interface Runner {
  run(prepared: PreparedDocument, params: GraphQLParams, caller: Caller, options: RunOptions): Promise<Answer | AnswerStream>;
  /** An answer refusing the request before anything ran (a door-level refusal, e.g. an unknown persisted query), logged like any other. */
  refuse(errors: readonly GraphQLError[], caller: Caller, options: RunOptions): Answer;
  /** Logs and counts an answer given without running (errors already formatted). */
  note(errors: readonly GraphQLFormattedError[], caller: Caller, options: RunOptions): void;
  /** Every check `run` makes before running (document, operation, price), without running: its refusal or its estimate. */
  check(prepared: PreparedDocument, params: GraphQLParams): { errors: GraphQLFormattedError[]; estimate: CostEstimate | null; type: PreparedOperation['type'] | null };
}

/** What the checks before running found: a refusal (with the operation, once it was picked), or the operation and its estimate. */
type Admission =
  | { refused: readonly unknown[]; documentRefused: boolean; op: PreparedOperation | null }
  | { refused: null; op: PreparedOperation; estimate: CostEstimate | null };

/** One operation's bookkeeping from start to log line. */
class OperationRecord {
  readonly started = performance.now();
  readonly calls: CallCounter = { count: 0 };
  readonly requestId: string;
  readonly cancellation: Cancellation;
  readonly trace: OperationSpan | undefined;
  operationName: string | null = null;
  operationType: string | null = null;
  codes: string[] = [];
  limits: Array<{ code: string; limit: string }> = [];
  waitedMs = 0;
  private done = false;

  constructor(
    private readonly deps: RunDeps,
    readonly caller: Caller,
    readonly options: RunOptions,
  ) {
    this.requestId = options.requestId ?? caller.requestId;
    this.cancellation = options.cancellation ?? new Cancellation();
    this.trace = deps.tracer?.startOperation({ door: options.door, headers: caller.traceHeaders ?? {} });
  }

  /** Errors formatted for the client, their codes and limits kept for the log line. */
  format(errors: readonly unknown[]): { formatted: FormattedExecutionResult['errors']; status: number | undefined; headers: Array<[string, string]> } {
    const out = this.deps.formatErrors(errors);
    this.codes.push(...errorCodes(out.formatted));
    this.limits.push(...limitsOf(out.formatted));
    return { formatted: out.formatted, status: out.status, headers: out.headers };
  }

  /** Logs, counts and closes the trace of the operation (once). */
  finish(status?: number): void {
    if (this.done) return;
    this.done = true;
    const facts = { operationName: this.operationName, errorCodes: this.codes, limits: this.limits, ...(this.operationType ? { operationType: this.operationType } : {}) };
    this.deps.metrics.observe(this.options.door, facts);
    this.trace?.end({
      operationName: this.operationName,
      operationType: this.operationType,
      outcome: outcomeOf(this.codes),
      httpStatus: status ?? null,
      upstreamCalls: this.calls.count,
      ...(this.calls.reads ? { upstreamReads: this.calls.reads } : {}),
      errorCodes: this.codes,
    });
    logRequest(this.deps.logger, {
      requestId: this.requestId,
      transport: this.options.door,
      operationName: this.operationName,
      ...(status !== undefined ? { status } : {}),
      durationMs: performance.now() - this.started,
      upstreamCalls: this.calls.count,
      ...(this.calls.reads ? { upstreamReads: this.calls.reads } : {}),
      errorCodes: this.codes,
      waitedMs: this.waitedMs,
    });
  }
}

const VERIFY_STATUS: Partial<Record<string, number>> = { UNAUTHENTICATED: 401, FORBIDDEN: 403, UPSTREAM_UNAVAILABLE: 503 };

/**
 * The caller's token verified with the platform (src/core/verify.ts), before anything is
 * reserved for it; a refusal (or an outage) as the GraphQL error the door answers, with its HTTP status.
 */
export async function verifyCaller(caller: Caller): Promise<void> {
  try {
    await caller.verify();
  } catch (error) {
    if (!(error instanceof GatewayError)) throw error;
    throw new GraphQLError(error.message, { extensions: { code: error.code, http: { status: VERIFY_STATUS[error.code] ?? 500 } }, originalError: error });
  }
}

/**
 * A mutation sent by GET: refused on every door as GraphQL over HTTP refuses it (405, `Allow:
 * POST`, BAD_REQUEST), since a GET is sent cross-site by any page and repeated by any proxy.
 */
function mutationOverGet(): GraphQLError {
  return new GraphQLError('GET requests only support query operations, not mutation operations', {
    extensions: { code: ErrorCode.BAD_REQUEST, http: { status: 405, headers: new Map([['allow', 'POST']]) } },
  });
}

/** Whether an error thrown by the context or admission is one the client should see as a refusal. */
function isRefusal(error: unknown): error is LimitExceededError {
  return error instanceof LimitExceededError;
}

export function createRunner(deps: RunDeps): Runner {
  const sharedEvents = new SharedEventExecutions();
  function refusal(record: OperationRecord, errors: readonly unknown[]): Answer {
    const { formatted, status, headers } = record.format(errors);
    return { result: { errors: formatted ?? [] }, requestError: true, ...(status !== undefined ? { status } : {}), ...(headers.length > 0 ? { headers } : {}) };
  }

  /** The price of the operation, or the refusal (COST_ESTIMATED_TOO_EXPENSIVE) before anything runs. */
  function price(op: PreparedOperation, variables: GraphQLParams['variables']): { estimate: CostEstimate | null } | { refused: GraphQLError } {
    try {
      return { estimate: priceOperation(deps.schema, op.document, op.name, variables ?? undefined, deps.priceLimits) };
    } catch (error) {
      if (!(error instanceof CostTooExpensiveError)) throw error;
      return { refused: new GraphQLError(error.message, { originalError: error }) };
    }
  }

  /**
   * Every check before anything runs, in order: the document's refusal, the operation by name,
   * the kinds the door accepts, the price. `run` and `check` share it.
   */
  function admit(prepared: PreparedDocument, params: GraphQLParams, options: Pick<RunOptions, 'accepts' | 'viaGet'>): Admission {
    if (prepared.refusal) return { refused: prepared.refusal, documentRefused: true, op: null };
    const op = deps.preparer.operation(prepared, params.operationName);
    if (op instanceof GraphQLError) return { refused: [op], documentRefused: true, op: null };
    const accepts = options.accepts;
    if (options.viaGet && op.type === 'mutation') return { refused: [mutationOverGet()], documentRefused: false, op };
    if (accepts && !accepts.has(op.type)) {
      const where = op.type === 'subscription' ? ': subscribe over WebSocket or Server-Sent Events' : '';
      return { refused: [new GraphQLError(`${op.type} operations are not run here${where}`, { extensions: { code: ErrorCode.BAD_REQUEST } })], documentRefused: false, op };
    }
    const priced = price(op, params.variables);
    if ('refused' in priced) return { refused: [priced.refused], documentRefused: false, op };
    return { refused: null, op, estimate: priced.estimate };
  }

  async function runQueryOrMutation(record: OperationRecord, op: PreparedOperation, params: GraphQLParams, estimate: CostEstimate | null): Promise<Answer> {
    const context = deps.createContext(record.caller, record.cancellation, record.calls, record.trace);
    const budget = context.budget;
    try {
      budget.startDeadline();
      // A heavy operation waits for its turn, keyed by the verified identity; everything else goes on without a hop.
      const heavy = deps.gate.isHeavy(estimate);
      if (heavy) await verifyCaller(record.caller);
      const turn = deps.gate.admit(estimate, budget, heavy ? shareKeyOf(record.caller) : '');
      if (turn) await turn;
      record.waitedMs = budget.waitedMs;
      const result: ExecutionResult = await deps.executor.execute(op, context, params.variables ?? undefined);
      budget.finish();
      const errors = result.errors && result.errors.length > 0 ? record.format(result.errors) : null;
      const wantsCost = record.options.wantsCost === true || params.extensions?.['cost'] === true;
      const answer: FormattedExecutionResult = {};
      if (errors) answer.errors = errors.formatted;
      if (result.data !== undefined) answer.data = result.data;
      if (wantsCost && result.data !== undefined) answer.extensions = { cost: costReport(estimate, context, deps.priceLimits) };
      // Some reads were answered from cached copies past their freshness (an API's breaker open): say how old.
      if (record.calls.stale) answer.extensions = { ...answer.extensions, staleUpstream: { ...record.calls.stale } };
      return { result: answer, requestError: result.data === undefined, ...(errors?.status !== undefined ? { status: errors.status } : {}) };
    } catch (error) {
      if (isRefusal(error)) return refusal(record, [error]);
      throw error;
    } finally {
      budget.finish();
      deps.releaseContext(context);
    }
  }

  async function runSubscription(record: OperationRecord, op: PreparedOperation, params: GraphQLParams): Promise<Answer | AnswerStream> {
    const connection = record.options.connection;
    const max = deps.maxSubscriptionsPerConnection;
    if (connection && connection.subscriptions >= max) {
      return refusal(record, [new LimitExceededError('subscriptionsPerConnection', max, `this connection runs ${max} subscriptions already (MAX_SUBSCRIPTIONS_PER_CONNECTION); complete one first`, { scope: 'caller' })]);
    }
    // The connection's slot is taken now, before the first await: the messages of one TCP chunk
    // arrive in one tick, and each must see the ones before it. Given back on every path below.
    if (connection) connection.subscriptions += 1;
    let share: Hold | null = null;
    const giveBack = (): void => {
      if (connection) connection.subscriptions -= 1;
      share?.release();
    };
    try {
      // The caller's share is its verified identity's (or the anonymous callers', gateway-wide).
      await verifyCaller(record.caller);
      const { perCaller, anonymous } = deps.subscriptionShares;
      share = record.caller.identity ? perCaller.take(record.caller.identity.key) : anonymous.take(record.caller.addressKey);
    } catch (error) {
      giveBack();
      return refusal(record, [error]);
    }
    const context = deps.createContext(record.caller, record.cancellation, record.calls, record.trace);
    let source: AsyncIterable<unknown> | ExecutionResult;
    try {
      source = await createSourceEventStream({ schema: deps.schema, document: op.document, operationName: op.name, variableValues: params.variables ?? undefined, contextValue: context });
    } catch (error) {
      giveBack();
      deps.releaseContext(context);
      return refusal(record, [error]);
    }
    if (!(Symbol.asyncIterator in source)) {
      giveBack();
      deps.releaseContext(context);
      const errors = source.errors ?? [];
      return errors.length > 0 ? refusal(record, errors) : { result: {}, requestError: true };
    }
    deps.onSubscriptionCount?.(record.options.door, 1);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      giveBack();
      deps.onSubscriptionCount?.(record.options.door, -1);
      record.cancellation.abort();
      deps.releaseContext(context);
      record.finish();
    };
    return withFreshContexts(source, record, op, params, end);
  }

  /** One event executed with a fresh context (loaders, budget, deadline). */
  async function executeEvent(record: OperationRecord, op: PreparedOperation, params: GraphQLParams, rootValue: unknown, cancellation: Cancellation): Promise<FormattedExecutionResult> {
    const contextValue = deps.createContext(record.caller, cancellation, record.calls, record.trace);
    contextValue.budget.startDeadline();
    try {
      // Subscription events run on graphql-js: each is small, and its root value is the event.
      const result = await execute({ schema: deps.schema, document: op.document, operationName: op.name, variableValues: params.variables ?? undefined, rootValue, contextValue });
      const value: FormattedExecutionResult = {};
      if (result.errors && result.errors.length > 0) value.errors = record.format(result.errors).formatted;
      if (result.data !== undefined) value.data = result.data;
      return value;
    } finally {
      contextValue.budget.finish();
      deps.releaseContext(contextValue);
    }
  }

  /** Each event executed with a fresh context, once for every subscriber sharing it; `return()` stops the source at once. */
  function withFreshContexts(source: AsyncIterable<unknown>, record: OperationRecord, op: PreparedOperation, params: GraphQLParams, end: () => void): AnswerStream {
    const iterator = source[Symbol.asyncIterator]();
    const stream: AnswerStream = {
      async next() {
        let item: IteratorResult<unknown>;
        try {
          item = await iterator.next();
        } catch (error) {
          // An error of the event source ends the stream with that error as its last result.
          const { formatted } = record.format([error]);
          await iterator.return?.();
          end();
          return { done: false, value: { errors: formatted ?? [] } };
        }
        if (item.done) {
          end();
          return { done: true, value: undefined };
        }
        // Subscribers of one event with the same operation, variables and credential share one execution.
        const key = `${sharedEvents.idOf(op)}\n${sharedEvents.credentialOf(record.caller.authorization)}\n${JSON.stringify(params.variables ?? null)}`;
        const value = await sharedEvents.run(item.value, key, record.cancellation, (cancellation) => executeEvent(record, op, params, item.value, cancellation));
        return { done: false, value };
      },
      async return() {
        // Stop the source first: a poller waiting for its next tick ends now, not at the tick.
        record.cancellation.abort();
        await iterator.return?.();
        end();
        return { done: true, value: undefined };
      },
      async throw(error: unknown) {
        record.cancellation.abort();
        await iterator.return?.();
        end();
        throw error;
      },
      [Symbol.asyncIterator]() {
        return stream;
      },
    };
    return stream;
  }

  return {
    async run(prepared, params, caller, options) {
      const record = new OperationRecord(deps, caller, options);
      const admitted = admit(prepared, params, options);
      if (admitted.op) {
        record.operationName = admitted.op.name;
        record.operationType = admitted.op.type;
      }
      let answer: Answer;
      if (admitted.refused) {
        answer = { ...refusal(record, admitted.refused), ...(admitted.documentRefused ? { documentRefused: true } : {}) };
      } else if (admitted.op.type === 'subscription') {
        const started = await runSubscription(record, admitted.op, params);
        if (!('result' in started)) return started;
        answer = started;
      } else {
        try {
          answer = await runQueryOrMutation(record, admitted.op, params, admitted.estimate);
        } catch (error) {
          answer = refusal(record, [error]);
        }
      }
      record.finish(options.statusOf?.(answer));
      return answer;
    },
    refuse(errors, caller, options) {
      const record = new OperationRecord(deps, caller, options);
      const answer = { ...refusal(record, errors), documentRefused: true };
      record.finish(options.statusOf?.(answer));
      return answer;
    },
    check(prepared, params) {
      const admitted = admit(prepared, params, {});
      const type = admitted.op?.type ?? null;
      if (admitted.refused) return { errors: deps.formatErrors(admitted.refused).formatted, estimate: null, type };
      return { errors: [], estimate: admitted.estimate, type };
    },
    note(errors, caller, options) {
      const record = new OperationRecord(deps, caller, options);
      record.codes.push(...errorCodes(errors));
      record.limits.push(...limitsOf(errors));
      record.finish(options.statusOf?.({ result: { errors }, requestError: true }));
    },
  };
}
