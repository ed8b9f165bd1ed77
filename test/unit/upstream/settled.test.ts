/**
 * A list this request has already received answers its field at once: upstream/settled.ts records
 * a tracked promise's value once it fulfils, and arrayConnection builds from it without waiting.
 */
import { arrayConnection } from '../../../src/resolvers/connection';
import { fulfilledValue, track } from '../../../src/upstream/settled';

const turn = (): Promise<void> => new Promise((r) => setImmediate(r));

describe('track / fulfilledValue', () => {
  it('knows a tracked promise\'s value once it has fulfilled, and nothing before', async () => {
    let resolve: (v: number[]) => void = () => undefined;
    const p = track(new Promise<number[]>((r) => (resolve = r)));
    expect(fulfilledValue(p)).toBeUndefined();
    resolve([1, 2]);
    await p;
    expect(fulfilledValue(p)).toEqual({ value: [1, 2] });
  });

  it('records no value for a rejected or an untracked promise', async () => {
    const failed = track(Promise.reject(new Error('boom')));
    await expect(failed).rejects.toThrow('boom');
    await turn();
    expect(fulfilledValue(failed)).toBeUndefined();
    const untracked = Promise.resolve([1]);
    await untracked;
    expect(fulfilledValue(untracked)).toBeUndefined();
  });
});

describe('arrayConnection', () => {
  it('answers at once from a list already received, windowed as the async path does', async () => {
    const list = track(Promise.resolve(['a', 'b', 'c']));
    const later = arrayConnection({ first: 2 }, () => list);
    expect(later).toBeInstanceOf(Promise);
    const first = await later;
    const now = arrayConnection({ first: 2 }, () => list);
    expect(now).not.toBeInstanceOf(Promise);
    expect(now).toEqual(first);
    expect(first.nodes).toEqual(['a', 'b']);
    expect(first.totalCount).toBe(3);
  });

  it('waits for a list not yet received, and passes its failure on', async () => {
    await expect(arrayConnection({}, () => track(Promise.reject(new Error('upstream down'))))).rejects.toThrow('upstream down');
    const untracked = Promise.resolve(['x']);
    await untracked;
    const answer = arrayConnection({}, () => untracked);
    expect(answer).toBeInstanceOf(Promise);
    expect((await answer).nodes).toEqual(['x']);
  });

  it('refuses bad arguments before loading anything', () => {
    const load = jest.fn(() => Promise.resolve([1]));
    expect(() => arrayConnection({ first: -1 }, load)).toThrow();
    expect(load).not.toHaveBeenCalled();
  });
});
