/**
 * A subscription's events: each executed with a fresh context (loaders, budget, deadline), once
 * for every subscriber with the same operation, variables and credential (../event-executions.ts);
 * `return()` stops the source at once, and an error of the source ends the stream with that
 * error as its last result.
 */
import { execute, type FormattedExecutionResult } from 'graphql';
import type { Cancellation } from '../../core/cancellation';
import { SharedEventExecutions } from '../event-executions';
import type { PreparedOperation } from '../prepare';
import type { AnswerStream } from '../types';
import type { SubscribeDeps } from './subscribe';
import type { OperationRun } from './stage';

/** What a subscription's events need of it. */
interface Follower {
  readonly record: OperationRun['record'];
  readonly caller: OperationRun['caller'];
  readonly operation: PreparedOperation;
  readonly variables: OperationRun['params']['variables'];
  readonly key: string;
}

export class SubscriptionEvents {
  private readonly shared = new SharedEventExecutions();

  constructor(private readonly deps: Pick<SubscribeDeps, 'schema' | 'createContext' | 'releaseContext'>) {}

  /** One event executed with a fresh context. */
  private async execute(follower: Follower, rootValue: unknown, cancellation: Cancellation): Promise<FormattedExecutionResult> {
    const { record, caller, operation, variables } = follower;
    const contextValue = this.deps.createContext(caller, cancellation, record.calls, record.trace);
    contextValue.budget.startDeadline();
    try {
      // Subscription events run on graphql-js: each is small, and its root value is the event.
      const result = await execute({ schema: this.deps.schema, document: operation.document, operationName: operation.name, variableValues: variables ?? undefined, rootValue, contextValue });
      const value: FormattedExecutionResult = {};
      if (result.errors && result.errors.length > 0) value.errors = record.format(result.errors).formatted;
      if (result.data !== undefined) value.data = result.data;
      return value;
    } finally {
      contextValue.budget.finish();
      this.deps.releaseContext(contextValue);
    }
  }

  stream(source: AsyncIterable<unknown>, run: OperationRun, operation: PreparedOperation, end: () => void): AnswerStream {
    // What a follower keeps for its whole life: not the run (its request text, its prepared
    // document's estimate…), only what its events need, and its sharing key made once rather
    // than hashed again at every event.
    const { record } = run;
    const follower: Follower = {
      record,
      caller: run.caller,
      operation,
      variables: run.params.variables,
      // Subscribers of one event with the same operation, variables and credential share one execution.
      key: `${this.shared.idOf(operation)}\n${this.shared.credentialOf(run.caller.authorization)}\n${JSON.stringify(run.params.variables ?? null)}`,
    };
    return new EventStream(source[Symbol.asyncIterator](), follower, end, (item) => this.shared.run(item, follower.key, record.cancellation, (cancellation) => this.execute(follower, item, cancellation)));
  }
}

/**
 * A follower's stream of events. A class, and its two reactions fields made once: a follower waits
 * for its next event for minutes, and a suspended async function would hold its frame (a
 * generator, its registers, a promise) all that time, an object of closures a closure per method.
 */
class EventStream implements AnswerStream {
  constructor(
    private readonly iterator: AsyncIterator<unknown>,
    private readonly follower: Follower,
    private readonly end: () => void,
    private readonly run: (item: unknown) => Promise<FormattedExecutionResult>,
  ) {}

  private readonly failed = async (error: unknown): Promise<IteratorResult<FormattedExecutionResult>> => {
    const { formatted } = this.follower.record.format([error]);
    await this.iterator.return?.();
    this.end();
    return { done: false, value: { errors: formatted ?? [] } };
  };

  private readonly executed = (item: IteratorResult<unknown>): IteratorResult<FormattedExecutionResult> | Promise<IteratorResult<FormattedExecutionResult>> => {
    if (item.done === true) {
      this.end();
      return { done: true, value: undefined };
    }
    return this.run(item.value).then((value) => ({ done: false, value }));
  };

  next(): Promise<IteratorResult<FormattedExecutionResult, void>> {
    return this.iterator.next().then(this.executed, this.failed);
  }

  async return(): Promise<IteratorResult<FormattedExecutionResult, void>> {
    // Stop the source first: a poller waiting for its next tick ends now, not at the tick.
    this.follower.record.cancellation.abort();
    await this.iterator.return?.();
    this.end();
    return { done: true, value: undefined };
  }

  async throw(error: unknown): Promise<IteratorResult<FormattedExecutionResult, void>> {
    this.follower.record.cancellation.abort();
    await this.iterator.return?.();
    this.end();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
