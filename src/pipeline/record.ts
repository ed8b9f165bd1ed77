/**
 * One operation's bookkeeping from its start to its log line: the calls it made, its error codes
 * and limits (for the log and metrics), its trace span, and `finish`, which writes the log line,
 * counts the outcome and ends the span once, whichever stage ended the operation.
 */
import type { FormattedExecutionResult } from 'graphql';
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
  operationName: string | null = null;
  operationType: string | null = null;
  codes: string[] = [];
  limits: Array<{ code: string; limit: string }> = [];
  waitedMs = 0;
  private done = false;

  constructor(
    private readonly deps: RecordDeps,
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
