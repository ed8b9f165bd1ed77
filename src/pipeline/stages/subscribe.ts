/**
 * "Subscribe": a subscription leaves the stages here. It holds one of its connection's slots
 * (MAX_SUBSCRIPTIONS_PER_CONNECTION) and one of its caller's shares from before the first await
 * until its stream ends, on every path; its events then run with a fresh context each
 * (./subscription-events.ts). Queries and mutations go on to the stages after it.
 */
import { createSourceEventStream, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Hold, SharedLimit } from '../../core/shares';
import { LimitExceededError } from '../../errors/codes';
import type { Connection, Door } from '../types';
import type { ContextMaker } from './context';
import { refusal, type OperationRun, type Outcome, type Stage } from './stage';
import { SubscriptionEvents } from './subscription-events';
import { verifyCaller } from './verify-caller';

export interface SubscribeDeps extends ContextMaker {
  schema: GraphQLSchema;
  /** Subscriptions per verified identity (every door together), and without a token (gateway-wide, a share per address). */
  subscriptionShares: { perCaller: SharedLimit; anonymous: SharedLimit };
  maxSubscriptionsPerConnection: number;
  /** Told when a subscription starts (+1) and ends (-1), by door. */
  onSubscriptionCount?(door: Door, delta: 1 | -1): void;
}

/**
 * What one subscription holds from its start to its end: its connection's slot and its caller's
 * share. A class, not closures: a follower keeps it for its whole life (memory per follower).
 */
class SubscriptionHold {
  private share: Hold | null = null;
  private counted = false;
  private ended = false;
  // What it needs of the run, not the run (its request text, its parameters…).
  private readonly record: OperationRun['record'];
  private readonly door: Door;
  private readonly connection: Connection | undefined;

  constructor(
    private readonly deps: SubscribeDeps,
    run: OperationRun,
  ) {
    this.record = run.record;
    this.door = run.options.door;
    this.connection = run.options.connection;
    // The connection's slot is taken now, before the first await: the messages of one TCP chunk
    // arrive in one tick, and each must see the ones before it. Given back on every path.
    if (this.connection) this.connection.subscriptions += 1;
  }

  /** The caller's share: its verified identity's (or the anonymous callers', gateway-wide). */
  takeShare(caller: OperationRun['caller']): void {
    const { perCaller, anonymous } = this.deps.subscriptionShares;
    this.share = caller.identity ? perCaller.take(caller.identity.key) : anonymous.take(caller.addressKey);
  }

  /** The subscription runs: counted until its end. */
  started(): void {
    this.counted = true;
    this.deps.onSubscriptionCount?.(this.door, 1);
  }

  /** Slot and share back (once); a started subscription's cancellation fires and its record is finished. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.connection) this.connection.subscriptions -= 1;
    this.share?.release();
    if (!this.counted) return;
    this.deps.onSubscriptionCount?.(this.door, -1);
    this.record.cancellation.abort();
    this.record.finish();
  }
}

export function subscribe(deps: SubscribeDeps): Stage {
  const events = new SubscriptionEvents(deps);

  async function start(run: OperationRun): Promise<Outcome> {
    const { record, caller } = run;
    const connection = run.options.connection;
    const max = deps.maxSubscriptionsPerConnection;
    if (connection && connection.subscriptions >= max) {
      return refusal(record, [new LimitExceededError('subscriptionsPerConnection', max, `this connection runs ${max} subscriptions already (MAX_SUBSCRIPTIONS_PER_CONNECTION); complete one first`, { scope: 'caller' })]);
    }
    const operation = run.operation;
    if (!operation) throw new Error('subscribe needs the operation (the operation stage)');
    const hold = new SubscriptionHold(deps, run);
    try {
      await verifyCaller(caller);
      hold.takeShare(caller);
    } catch (error) {
      hold.end();
      return refusal(record, [error]);
    }
    const context = deps.createContext(caller, record.cancellation, record.calls, record.trace);
    let source: AsyncIterable<unknown> | ExecutionResult;
    try {
      source = await createSourceEventStream({ schema: deps.schema, document: operation.document, operationName: operation.name, variableValues: run.params.variables ?? undefined, contextValue: context });
    } catch (error) {
      hold.end();
      deps.releaseContext(context);
      return refusal(record, [error]);
    }
    // The resolver's `subscribe` has run: what its stream needs it took (a poller's stream, the
    // cancellation's signal); its events run with contexts of their own. Let go of this one now,
    // not when the stream ends: a follower then holds no loaders, and no budget listening on its
    // cancellation (which kept the whole context), for its whole life.
    context.budget.finish();
    deps.releaseContext(context);
    if (!(Symbol.asyncIterator in source)) {
      hold.end();
      const errors = source.errors ?? [];
      return errors.length > 0 ? refusal(record, errors) : { result: {}, requestError: true };
    }
    hold.started();
    return events.stream(source, run, operation, hold);
  }

  return {
    name: 'subscribe',
    wrap: (next) => (run) => (run.operation?.type === 'subscription' ? start(run) : next(run)),
  };
}
