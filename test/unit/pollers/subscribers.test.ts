/**
 * A poller's subscribers, as its credentials see them when followers leave: a credential stays
 * served (and led with) while one of its followers remains, stops at its last one, and a leave
 * asks a count rather than scanning every follower (10,000 leaving must not cost 10,000²).
 */
import { Subscribers, type Member } from '../../../src/pollers/subscribers';

function subscribers(admit: (owner: Member, signal: AbortSignal) => Promise<string> = () => new Promise<string>(() => undefined)) {
  const lastLeft = jest.fn();
  const subs = new Subscribers<string, Member>('networkChanges', { subscriberJoined: jest.fn(), subscriberLeft: jest.fn() }, { lastLeft, admit, admitted: jest.fn() });
  return { subs, lastLeft };
}

it('keeps serving a credential while one of its followers remains, and lets it go at its last', async () => {
  const { subs, lastLeft } = subscribers();
  const a = { credential: 'a' };
  subs.trust(a);
  const first = subs.join(a);
  const second = subs.join(a);
  await first.return?.(undefined);
  expect(subs.lead).toBe(a);
  expect(subs.deliver('v1', 'f1')).toBe(true);
  expect(await second.next()).toEqual({ done: false, value: 'v1' });
  expect(lastLeft).not.toHaveBeenCalled();
  await second.return?.(undefined);
  expect(subs.lead).toBeUndefined();
  expect(subs.count).toBe(0);
  expect(lastLeft).toHaveBeenCalledTimes(1);
});

it("gives up a waiting credential's admission read only when its last follower leaves", async () => {
  const signals: AbortSignal[] = [];
  const { subs, lastLeft } = subscribers((_owner, signal) => {
    signals.push(signal);
    return new Promise<string>(() => undefined);
  });
  const lead = { credential: 'lead' };
  const other = { credential: 'other' };
  subs.trust(lead);
  const led = subs.join(lead);
  const one = subs.join(other);
  const two = subs.join(other);
  expect(signals).toHaveLength(1);
  await one.return?.(undefined);
  expect(signals[0]?.aborted).toBe(false);
  await two.return?.(undefined);
  expect(signals[0]?.aborted).toBe(true);
  // Its credential is forgotten: a newcomer with it is admitted afresh.
  const again = subs.join(other);
  expect(signals).toHaveLength(2);
  await again.return?.(undefined);
  await led.return?.(undefined);
  expect(lastLeft).toHaveBeenCalledTimes(1);
});

it('leaves without going over the other followers', async () => {
  const { subs } = subscribers();
  const a = { credential: 'a' };
  subs.trust(a);
  const streams = Array.from({ length: 200 }, () => subs.join(a));
  // Every way to go over a Map's entries, counted while everyone leaves.
  const spies = (['values', 'keys', 'entries', 'forEach', Symbol.iterator] as const).map((name) => jest.spyOn(Map.prototype, name));
  try {
    for (const stream of streams) await stream.return?.(undefined);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  expect(subs.count).toBe(0);
  expect(subs.lead).toBeUndefined();
});
