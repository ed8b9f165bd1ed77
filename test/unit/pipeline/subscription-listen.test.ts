/**
 * A subscription's events listened to (the WebSocket door's way, src/core/listen.ts): each event
 * is executed as it comes and handed on in the order the events came, even when a later event's
 * execution finishes first; the source's end reaches the listener after the events before it, and
 * the subscription's slot and share are given back.
 */
import { buildSchema, type FormattedExecutionResult } from 'graphql';
import type { StreamListener } from '../../../src/core/listen';
import { isListenable } from '../../../src/core/listen';
import { SharedLimit } from '../../../src/core/shares';
import { releaseContext } from '../../../src/context';
import { createPreparer } from '../../../src/pipeline/prepare';
import { pickOperation } from '../../../src/pipeline/stages/operation';
import { subscribe } from '../../../src/pipeline/stages/subscribe';
import { isStream, startRun } from '../../../src/pipeline/stages';
import { OperationRecord } from '../../../src/pipeline/record';
import { backgroundCaller } from '../../../src/core/caller';
import { SubscriberStream } from '../../../src/pollers/stream';
import type { HttpClient } from '../../../src/upstream/http-types';
import { inProcessContext } from '../../helpers/context';
import { waitUntil } from '../../helpers/wait';
import { recordDeps } from './stage-fixture';

/** An event: its number, and when its execution may finish. */
interface Tick {
  n: number;
  ready: Promise<void>;
}

function isTick(value: unknown): value is Tick {
  return typeof value === 'object' && value !== null && 'n' in value && 'ready' in value;
}

const noHttp: HttpClient = { send: () => Promise.reject(new Error('no upstream here')) };

it('hands the listener each event in the order they came, then the end, and gives the slots back', async () => {
  const schema = buildSchema('type Query { hello: String } type Subscription { ticks: Int }');
  const source = new SubscriberStream<Tick>(() => undefined);
  const field = schema.getSubscriptionType()?.getFields()['ticks'];
  if (!field) throw new Error('no ticks field');
  field.subscribe = () => source;
  field.resolve = async (root: unknown) => {
    if (!isTick(root)) throw new Error('not a tick');
    await root.ready;
    return root.n;
  };
  const perCaller = new SharedLimit('subscriptionsPerCaller', { total: 100, perCaller: 10, setting: 'MAX_SUBSCRIPTIONS_PER_CALLER' });
  const anonymous = new SharedLimit('anonymousSubscriptions', { total: 100, perCaller: 10, setting: 'MAX_ANONYMOUS_SUBSCRIPTIONS' });
  const stage = subscribe({ schema, subscriptionShares: { perCaller, anonymous }, maxSubscriptionsPerConnection: 10, createContext: () => inProcessContext(noHttp), releaseContext });
  const preparer = createPreparer({ schema, documentLimits: { maxBytes: 64 * 1024, maxTokens: 5000 }, trusted: null });
  const query = 'subscription { ticks }';
  const caller = backgroundCaller(undefined, null);
  const connection = { subscriptions: 0 };
  const options = { door: 'ws' as const, connection };
  const run = startRun(preparer.document(query), { query }, caller, options, new OperationRecord(recordDeps(), caller, options));
  pickOperation(preparer).admit?.(run);

  const handle = stage.wrap?.(() => Promise.reject(new Error('not a subscription')));
  if (!handle) throw new Error('the subscribe stage wraps the stages after it');
  const answer = await handle(run);
  if (!isStream(answer) || !isListenable<FormattedExecutionResult>(answer)) throw new Error('expected a stream that can be listened to');
  expect(connection.subscriptions).toBe(1);
  expect(anonymous.stats().held).toBe(1);

  const heard: unknown[] = [];
  const listener: StreamListener<FormattedExecutionResult> = { onValue: (value) => heard.push(value), onEnd: () => heard.push('end'), onError: (error) => heard.push(error) };
  answer.listen(listener);
  let letFirstFinish: () => void = () => undefined;
  source.push({ n: 1, ready: new Promise((resolve) => (letFirstFinish = resolve)) });
  source.push({ n: 2, ready: Promise.resolve() });
  source.end();
  // The second event's execution is done; it waits for the first, and so does the end.
  await new Promise((resolve) => setImmediate(resolve));
  expect(heard).toEqual([]);
  letFirstFinish();
  await waitUntil(() => heard.length === 3, () => `three things heard, not ${JSON.stringify(heard)}`);
  expect(heard).toEqual([{ data: { ticks: 1 } }, { data: { ticks: 2 } }, 'end']);
  expect(connection.subscriptions).toBe(0);
  expect(anonymous.stats().held).toBe(0);
});
