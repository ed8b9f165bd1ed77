/**
 * A subscriber that stops taking values is ended once it leaves MAX_QUEUED_VALUES untaken: its
 * next read is OPERATION_BUDGET_EXCEEDED, it leaves its poller at once, and what it held is gone.
 */
import { MAX_QUEUED_VALUES, SubscriberStream } from '../../../src/pollers/stream';

it('keeps up to its bound of untaken values, then fails with OPERATION_BUDGET_EXCEEDED and leaves', async () => {
  const left: unknown[] = [];
  const stream = new SubscriberStream<number>((s) => left.push(s), undefined, 3);
  for (const value of [1, 2, 3]) stream.push(value);
  expect(left).toHaveLength(0);
  stream.push(4);
  expect(left).toEqual([stream]);
  await expect(stream.next()).rejects.toMatchObject({ code: 'OPERATION_BUDGET_EXCEEDED' });
  expect(await stream.next()).toEqual({ done: true, value: undefined });
  expect(left).toHaveLength(1);
});

it('never ends a reader that keeps taking values, however many come', async () => {
  const stream = new SubscriberStream<number>(() => undefined);
  for (let i = 0; i < MAX_QUEUED_VALUES * 4; i += 1) {
    stream.push(i);
    expect(await stream.next()).toEqual({ done: false, value: i });
  }
});
