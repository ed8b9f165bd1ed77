/**
 * "Subscribe": a subscription leaves the stages here. It holds one of its connection's slots
 * (MAX_SUBSCRIPTIONS_PER_CONNECTION) and one of its caller's shares from before the first await
 * until its stream ends, on every path; its events then run with a fresh context each
 * (./subscription-events.ts). Queries and mutations go on to the stages after it.
 */
import { createSourceEventStream, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Hold, SharedLimit } from '../../core/shares';
import { LimitExceededError } from '../../errors/codes';
import type { Door } from '../types';
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

export function subscribe(deps: SubscribeDeps): Stage {
  const events = new SubscriptionEvents(deps);

  async function start(run: OperationRun): Promise<Outcome> {
    const { record, caller, options } = run;
    const connection = options.connection;
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
      await verifyCaller(caller);
      const { perCaller, anonymous } = deps.subscriptionShares;
      share = caller.identity ? perCaller.take(caller.identity.key) : anonymous.take(caller.addressKey);
    } catch (error) {
      giveBack();
      return refusal(record, [error]);
    }
    const operation = run.operation;
    if (!operation) throw new Error('subscribe needs the operation (the operation stage)');
    const context = deps.createContext(caller, record.cancellation, record.calls, record.trace);
    let source: AsyncIterable<unknown> | ExecutionResult;
    try {
      source = await createSourceEventStream({ schema: deps.schema, document: operation.document, operationName: operation.name, variableValues: run.params.variables ?? undefined, contextValue: context });
    } catch (error) {
      giveBack();
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
      giveBack();
      const errors = source.errors ?? [];
      return errors.length > 0 ? refusal(record, errors) : { result: {}, requestError: true };
    }
    deps.onSubscriptionCount?.(options.door, 1);
    let ended = false;
    const end = (): void => {
      if (ended) return;
      ended = true;
      giveBack();
      deps.onSubscriptionCount?.(options.door, -1);
      record.cancellation.abort();
      record.finish();
    };
    return events.stream(source, run, operation, end);
  }

  return {
    name: 'subscribe',
    wrap: (next) => (run) => (run.operation?.type === 'subscription' ? start(run) : next(run)),
  };
}
