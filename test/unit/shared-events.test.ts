/**
 * SharedEventExecutions: one execution per event and key, under a cancellation of its own that
 * aborts only when every subscriber waiting on it has left.
 */
import type { FormattedExecutionResult } from 'graphql';
import { Cancellation } from '../../src/core/cancellation';
import { SharedEventExecutions } from '../../src/pipeline/event-executions';

/** An execution that waits until told, and remembers the cancellation it ran under. */
function heldExecution(): { execute: (c: Cancellation) => Promise<FormattedExecutionResult>; finish: () => void; runs: Cancellation[] } {
  const runs: Cancellation[] = [];
  let finish: () => void = () => undefined;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return {
    runs,
    finish: () => finish(),
    execute: async (cancellation) => {
      runs.push(cancellation);
      await done;
      return { data: { aborted: cancellation.aborted } };
    },
  };
}

it('runs once for every subscriber with the key, and not once per subscriber', async () => {
  const shared = new SharedEventExecutions();
  const event = {};
  const held = heldExecution();
  const answers = [new Cancellation(), new Cancellation(), new Cancellation()].map((waiter) => shared.run(event, 'k', waiter, held.execute));
  held.finish();
  expect(await Promise.all(answers)).toEqual([{ data: { aborted: false } }, { data: { aborted: false } }, { data: { aborted: false } }]);
  expect(held.runs).toHaveLength(1);
});

it('a subscriber leaving does not cancel the execution while another still waits; the last leaving does', async () => {
  const shared = new SharedEventExecutions();
  const event = {};
  const held = heldExecution();
  const first = new Cancellation();
  const second = new Cancellation();
  const answers = [shared.run(event, 'k', first, held.execute), shared.run(event, 'k', second, held.execute)];
  first.abort();
  expect(held.runs[0]!.aborted).toBe(false);
  second.abort();
  expect(held.runs[0]!.aborted).toBe(true);
  held.finish();
  await Promise.all(answers);
});

it('a subscriber asking after every other left runs the event afresh', async () => {
  const shared = new SharedEventExecutions();
  const event = {};
  const held = heldExecution();
  const gone = new Cancellation();
  const abandoned = shared.run(event, 'k', gone, held.execute);
  gone.abort();
  const later = shared.run(event, 'k', new Cancellation(), held.execute);
  held.finish();
  await abandoned;
  expect(await later).toEqual({ data: { aborted: false } });
  expect(held.runs).toHaveLength(2);
});

it('a later subscriber of the same event gets the settled result without a new execution', async () => {
  const shared = new SharedEventExecutions();
  const event = {};
  const held = heldExecution();
  const first = shared.run(event, 'k', new Cancellation(), held.execute);
  held.finish();
  const answer = await first;
  const later = await shared.run(event, 'k', new Cancellation(), held.execute);
  expect(later).toBe(answer);
  expect(held.runs).toHaveLength(1);
});

it('a result with errors is not handed to a later subscriber: it runs the event afresh', async () => {
  const shared = new SharedEventExecutions();
  const event = {};
  let runs = 0;
  const execute = (): Promise<FormattedExecutionResult> => {
    runs += 1;
    return Promise.resolve(runs === 1 ? { errors: [{ message: 'upstream unavailable' }] } : { data: { ok: true } });
  };
  expect(await shared.run(event, 'k', new Cancellation(), execute)).toEqual({ errors: [{ message: 'upstream unavailable' }] });
  expect(await shared.run(event, 'k', new Cancellation(), execute)).toEqual({ data: { ok: true } });
  expect(await shared.run(event, 'k', new Cancellation(), execute)).toEqual({ data: { ok: true } });
  expect(runs).toBe(2);
});
