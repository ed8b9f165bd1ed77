/**
 * One operation's bookkeeping from its start to its log line: the calls it made, its error codes
 * and limits (for the log and metrics), its trace span, and `finish`, which writes the log line,
 * counts the outcome and ends the span once, whichever stage ended the operation.
 */
import type { FormattedExecutionResult, GraphQLFormattedError } from 'graphql';
import type { Logger } from 'pino';
import type { CallCounter } from '../context';
import { Cancellation } from '../core/cancellation';
import type { OperationSpan, Tracer } from '../tracing';
import { errorCodes, limitsOf, type ErrorFormatter } from './format';
import { outcomeOf, type OperationMetrics } from './operation-metrics';
import { logRequest } from './request-log';
import type { Caller, RunOptions } from './types';

/** What a record needs of the pipeline. */
export interface RecordDeps {
  formatErrors: ErrorFormatter;
  logger: Logger;
  metrics: OperationMetrics;
  tracer: Tracer | null;
}

export class OperationRecord {
  readonly started = performance.now();
  readonly calls: CallCounter = { count: 0 };
  readonly requestId: string;
  readonly cancellation: Cancellation;
  readonly trace: OperationSpan | undefined;
  /** The door, for the log line and metrics (not its run options: a subscription's record lives for hours). */
  readonly door: RunOptions['door'];
  operationName: string | null = null;
  operationType: string | null = null;
  /** The errors' codes and limits, made at the first error: most operations (a follower until it ends) have none. */
  private codes: string[] | null = null;
  private limits: Array<{ code: string; limit: string }> | null = null;
  waitedMs = 0;
  private done = false;

  constructor(
    private readonly deps: RecordDeps,
    readonly caller: Caller,
    options: RunOptions,
  ) {
    this.door = options.door;
    this.requestId = options.requestId ?? caller.requestId;
    this.cancellation = options.cancellation ?? new Cancellation();
    this.trace = deps.tracer?.startOperation({ door: options.door, headers: caller.traceHeaders ?? {} });
  }

  /** Errors formatted for the client, their codes and limits kept for the log line. */
  format(errors: readonly unknown[]): { formatted: FormattedExecutionResult['errors']; status: number | undefined; headers: Array<[string, string]> } {
    const out = this.deps.formatErrors(errors);
    this.noteErrors(out.formatted);
    return { formatted: out.formatted, status: out.status, headers: out.headers };
  }

  /** Formatted errors' codes and limits, for the log line and metrics. */
  noteErrors(formatted: readonly GraphQLFormattedError[] | undefined): void {
    const codes = errorCodes(formatted);
    const limits = limitsOf(formatted);
    if (codes.length > 0) (this.codes ??= []).push(...codes);
    if (limits.length > 0) (this.limits ??= []).push(...limits);
  }

  /** Logs, counts and closes the trace of the operation (once). */
  finish(status?: number): void {
    if (this.done) return;
    this.done = true;
    const codes = this.codes ?? [];
    const facts = { operationName: this.operationName, errorCodes: codes, limits: this.limits ?? [], ...(this.operationType ? { operationType: this.operationType } : {}) };
    this.deps.metrics.observe(this.door, facts);
    this.trace?.end({
      operationName: this.operationName,
      operationType: this.operationType,
      outcome: outcomeOf(codes),
      httpStatus: status ?? null,
      upstreamCalls: this.calls.count,
      ...(this.calls.reads ? { upstreamReads: this.calls.reads } : {}),
      errorCodes: codes,
    });
    logRequest(this.deps.logger, {
      requestId: this.requestId,
      transport: this.door,
      operationName: this.operationName,
      ...(status !== undefined ? { status } : {}),
      durationMs: performance.now() - this.started,
      upstreamCalls: this.calls.count,
      ...(this.calls.reads ? { upstreamReads: this.calls.reads } : {}),
      errorCodes: codes,
      waitedMs: this.waitedMs,
    });
  }
}
