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
import { isListenable, type StreamListener } from '../../core/listen';
import { ErrorCode, GatewayError } from '../../errors/codes';
import type { SubscribeDeps } from './subscribe';
import type { OperationRun } from './stage';

/**
 * What the followers with one operation, variables and credential have in common: their sharing
 * key (one string for all of them, not one each), the prepared operation and the variables (the
 * first one's object: equal by their key). Kept while one of them is here.
 */
interface FollowerGroup {
  readonly key: string;
  readonly operation: PreparedOperation;
  readonly variables: OperationRun['params']['variables'];
  followers: number;
}

/** What one follower's events need of it besides its group. */
interface Follower {
  readonly record: OperationRun['record'];
  readonly caller: OperationRun['caller'];
  readonly group: FollowerGroup;
}

export class SubscriptionEvents {
  private readonly shared = new SharedEventExecutions();
  private readonly groups = new Map<string, FollowerGroup>();

  constructor(private readonly deps: Pick<SubscribeDeps, 'schema' | 'createContext' | 'releaseContext'>) {}

  /** Followers with the group's key share one execution of each event (../event-executions.ts). */
  run(follower: Follower, item: unknown): Promise<FormattedExecutionResult> {
    return this.shared.run(item, follower.group.key, follower.record.cancellation, (cancellation) => this.execute(follower, item, cancellation));
  }

  /** A follower of `group` left: the last one takes the group with it. */
  left(group: FollowerGroup): void {
    group.followers -= 1;
    if (group.followers === 0 && this.groups.get(group.key) === group) this.groups.delete(group.key);
  }

  /** One event executed with a fresh context. */
  private async execute(follower: Follower, rootValue: unknown, cancellation: Cancellation): Promise<FormattedExecutionResult> {
    const { record, caller } = follower;
    const { operation, variables } = follower.group;
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

  /** The group of `run`'s operation, variables and credential, made by its first follower. */
  private groupOf(run: OperationRun, operation: PreparedOperation): FollowerGroup {
    // Subscribers of one event with the same operation, variables and credential share one execution.
    const key = `${this.shared.idOf(operation)}\n${this.shared.credentialOf(run.caller.authorization)}\n${JSON.stringify(run.params.variables ?? null)}`;
    let group = this.groups.get(key);
    if (group === undefined) {
      group = { key, operation, variables: run.params.variables, followers: 0 };
      this.groups.set(key, group);
    }
    group.followers += 1;
    return group;
  }

  stream(source: AsyncIterable<unknown>, run: OperationRun, operation: PreparedOperation, hold: { end(): void }): AnswerStream {
    // What a follower keeps for its whole life: not the run (its request text, its prepared
    // document's estimate…), only its record, its caller and its group.
    return new EventStream(source[Symbol.asyncIterator](), this, run.record, run.caller, this.groupOf(run, operation), hold);
  }
}

/** Events one follower may have in execution at once before it is ended (a source far faster than its executions). */
const MAX_EVENTS_IN_FLIGHT = 256;

/**
 * A follower's stream of events, read (`next`) or listened to (`listen`: the WebSocket door). A
 * class whose reactions are made per event, not kept: a follower waits for its next event for
 * minutes, and a suspended async function would hold its frame (a generator, its registers, a
 * promise) all that time, an object of closures a closure per method, a pending read a promise
 * per layer. Listened to, a follower holds no pending promise at all between events.
 */
class EventStream implements AnswerStream, StreamListener<unknown>, Follower {
  private closed = false;
  private listener: StreamListener<FormattedExecutionResult> | null = null;
  /** The last event in execution, listened to: the next is delivered after it (events stay in order). */
  private tail: Promise<void> | null = null;
  private inFlight = 0;

  constructor(
    private readonly iterator: AsyncIterator<unknown>,
    private readonly events: SubscriptionEvents,
    // The follower's own parts (the stream is its follower: no object more for it).
    readonly record: Follower['record'],
    readonly caller: Follower['caller'],
    readonly group: FollowerGroup,
    private readonly hold: { end(): void },
  ) {}

  /** The stream is over (however it ended): its group is told once, and the stage's end runs. */
  private end(): void {
    if (!this.closed) {
      this.closed = true;
      this.events.left(this.group);
    }
    this.hold.end();
  }

  /** The source's error as the stream's last result. */
  private lastResult(error: unknown): FormattedExecutionResult {
    return { errors: this.record.format([error]).formatted ?? [] };
  }

  next(): Promise<IteratorResult<FormattedExecutionResult, void>> {
    return this.iterator.next().then(
      (item): IteratorResult<FormattedExecutionResult> | Promise<IteratorResult<FormattedExecutionResult>> => {
        if (item.done === true) {
          this.end();
          return { done: true, value: undefined };
        }
        return this.events.run(this, item.value).then((value) => ({ done: false, value }));
      },
      async (error: unknown): Promise<IteratorResult<FormattedExecutionResult>> => {
        const value = this.lastResult(error);
        await this.iterator.return?.();
        this.end();
        return { done: false, value };
      },
    );
  }

  /** Events from now on go to `listener`, each once executed, in order; then its end. */
  listen(listener: StreamListener<FormattedExecutionResult>): void {
    this.listener = listener;
    if (isListenable<unknown>(this.iterator)) return this.iterator.listen(this);
    // A source that can only be read (an async generator resolver) is read here, one item at a time.
    const read = (): void => {
      this.iterator.next().then(
        (item) => {
          if (item.done === true) return this.onEnd();
          this.onValue(item.value);
          if (this.listener) read();
        },
        (error: unknown) => this.onError(error),
      );
    };
    read();
  }

  onValue(item: unknown): void {
    if (!this.listener) return;
    this.inFlight += 1;
    if (this.inFlight > MAX_EVENTS_IN_FLIGHT) return this.onError(new GatewayError(ErrorCode.OPERATION_BUDGET_EXCEEDED, `more than ${MAX_EVENTS_IN_FLIGHT} events of this subscription wait for their execution; it ends`));
    // Settled at once into what to deliver: a failed execution waiting behind an earlier event is
    // handled here, never left an unhandled rejection until its turn.
    const outcome = this.events.run(this, item).then(
      (value) => ({ value, last: false }),
      (error: unknown) => ({ value: this.lastResult(error), last: true }),
    );
    const after = this.tail === null ? outcome : this.tail.then(() => outcome);
    const tail: Promise<void> = after.then(({ value, last }) => this.deliver(tail, value, last));
    this.tail = tail;
  }

  private deliver(tail: Promise<void>, value: FormattedExecutionResult, last: boolean): void {
    this.inFlight -= 1;
    if (this.tail === tail) this.tail = null; // nothing after it: no promise kept between events
    if (last) return this.close(value);
    this.listener?.onValue(value);
  }

  onEnd(): void {
    this.closeAfterTail(null);
  }

  onError(error: unknown): void {
    this.closeAfterTail(error);
  }

  /** The source ended (or failed): the listener hears it after the events still in execution. */
  private closeAfterTail(error: unknown): void {
    const close = (): void => this.close(error === null ? null : this.lastResult(error));
    if (this.tail === null) close();
    else this.tail.then(close, close);
  }

  /** The listened stream is over: `last` (an error's result), then the end, told once. */
  private close(last: FormattedExecutionResult | null): void {
    const listener = this.listener;
    if (!listener) return;
    this.listener = null;
    void this.iterator.return?.();
    this.end();
    if (last !== null) listener.onValue(last);
    listener.onEnd();
  }

  async return(): Promise<IteratorResult<FormattedExecutionResult, void>> {
    // Stop the source first: a poller waiting for its next tick ends now, not at the tick.
    this.listener = null;
    this.record.cancellation.abort();
    await this.iterator.return?.();
    this.end();
    return { done: true, value: undefined };
  }

  async throw(error: unknown): Promise<IteratorResult<FormattedExecutionResult, void>> {
    this.listener = null;
    this.record.cancellation.abort();
    await this.iterator.return?.();
    this.end();
    throw error;
  }

  [Symbol.asyncIterator](): this {
    return this;
  }
}
