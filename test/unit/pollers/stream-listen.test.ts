/**
 * A poller's stream listened to (src/core/listen.ts) instead of read: its queued values first,
 * then each value as it comes, then its end or failure once, and it leaves its poller; a mapped
 * stream passes each value on mapped. Nothing waits on a listened stream between values.
 */
import type { StreamListener } from '../../../src/core/listen';
import { mapStream } from '../../../src/pollers';
import { SubscriberStream } from '../../../src/pollers/stream';

function recorder<V>(): StreamListener<V> & { heard: unknown[] } {
  const heard: unknown[] = [];
  return { heard, onValue: (value) => heard.push(value), onEnd: () => heard.push('end'), onError: (error) => heard.push(error instanceof Error ? `error: ${error.message}` : 'error') };
}

it('hands a listener what was queued, then every value as pushed, then the end, and leaves its poller once', () => {
  const left: unknown[] = [];
  const stream = new SubscriberStream<number>((s) => left.push(s));
  stream.push(1);
  const listener = recorder<number>();
  stream.listen(listener);
  expect(listener.heard).toEqual([1]);
  stream.push(2);
  stream.push(3);
  expect(listener.heard).toEqual([1, 2, 3]);
  stream.end();
  stream.push(4);
  expect(listener.heard).toEqual([1, 2, 3, 'end']);
  expect(left).toEqual([stream]);
});

it('tells a listener the poller failed, once, and the stream leaves', () => {
  const left: unknown[] = [];
  const stream = new SubscriberStream<number>((s) => left.push(s));
  const listener = recorder<number>();
  stream.listen(listener);
  stream.push(1);
  stream.fail(new Error('refused'));
  stream.end();
  expect(listener.heard).toEqual([1, 'error: refused']);
  expect(left).toEqual([stream]);
});

it('ends a listener at once when the stream had ended before it listened', () => {
  const stream = new SubscriberStream<number>(() => undefined);
  stream.push(1);
  stream.end();
  const listener = recorder<number>();
  stream.listen(listener);
  expect(listener.heard).toEqual([1, 'end']);
});

it('maps each value for a listener of a mapped stream, and a map that throws ends it with the error', () => {
  const left: unknown[] = [];
  const stream = new SubscriberStream<number>((s) => left.push(s));
  const mapped = mapStream(stream, (n) => {
    if (n > 2) throw new Error(`no ${n}`);
    return n * 10;
  });
  const listener = recorder<number>();
  mapped.listen(listener);
  stream.push(1);
  stream.push(2);
  stream.push(3);
  stream.push(4);
  expect(listener.heard).toEqual([10, 20, 'error: no 3']);
  expect(left).toEqual([stream]);
});
