import { BadInputError } from '../../src/errors/codes';
import {
  arrayConnection,
  buildConnection,
  connectionFromArray,
  decodeCursor,
  encodeCursor,
  pageWindow,
} from '../../src/resolvers/connection';

function badInputField(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    if (e instanceof BadInputError) return e.field;
    throw e;
  }
  throw new Error('expected a BadInputError');
}

describe('pageWindow', () => {
  it('defaults to the first 100 items', () => {
    expect(pageWindow({})).toEqual({ offset: 0, limit: 100 });
    expect(pageWindow({ first: null, after: null })).toEqual({ offset: 0, limit: 100 });
  });

  it('accepts 0 and 1000 and rejects values outside, naming the argument', () => {
    expect(pageWindow({ first: 1000 }).limit).toBe(1000);
    expect(pageWindow({ first: 0 }).limit).toBe(0);
    expect(badInputField(() => pageWindow({ first: 1001 }))).toBe('first');
    expect(badInputField(() => pageWindow({ first: -1 }))).toBe('first');
  });

  it('starts after the item the cursor points at', () => {
    expect(pageWindow({ after: encodeCursor(9), first: 5 })).toEqual({ offset: 10, limit: 5 });
  });

  it('rejects cursors it did not issue', () => {
    for (const bad of ['', 'abc', Buffer.from('offset:x').toString('base64'), Buffer.from('offset:007').toString('base64'), Buffer.from('42').toString('base64')]) {
      expect(badInputField(() => pageWindow({ after: bad }))).toBe('after');
    }
    expect(decodeCursor(encodeCursor(0))).toBe(0);
  });
});

describe('buildConnection', () => {
  const all = ['a', 'b', 'c', 'd', 'e'];

  it('pages through a list with cursors that chain', () => {
    const first = connectionFromArray(all, { first: 2 });
    expect(first.nodes).toEqual(['a', 'b']);
    expect(first.edges.map((e) => e.node)).toEqual(['a', 'b']);
    expect(first.totalCount).toBe(5);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    const second = connectionFromArray(all, { first: 2, after: first.pageInfo.endCursor });
    expect(second.nodes).toEqual(['c', 'd']);
    expect(second.pageInfo.hasPreviousPage).toBe(true);
    const last = connectionFromArray(all, { first: 2, after: second.pageInfo.endCursor });
    expect(last.nodes).toEqual(['e']);
    expect(last.pageInfo.hasNextPage).toBe(false);
    expect(last.pageInfo.startCursor).toBe(last.edges[0]?.cursor);
  });

  it('gives null cursors for an empty page', () => {
    const empty = buildConnection([], { offset: 0, limit: 10 }, 0);
    expect(empty.pageInfo).toEqual({ hasNextPage: false, hasPreviousPage: false, startCursor: null, endCursor: null });
  });

  it('drops items beyond the window limit', () => {
    expect(buildConnection(all, { offset: 0, limit: 3 }, 5).nodes).toEqual(['a', 'b', 'c']);
  });
});

describe('arrayConnection', () => {
  it('windows a list loaded whole, and counts all of it', async () => {
    const page = await arrayConnection({ first: 2 }, () => Promise.resolve(['a', 'b', 'c']));
    expect(page.nodes).toEqual(['a', 'b']);
    expect(page.totalCount).toBe(3);
  });

  it('passes a failed load on', async () => {
    await expect(arrayConnection({}, () => Promise.reject(new Error('upstream down')))).rejects.toThrow('upstream down');
  });

  it('refuses bad arguments before loading anything', () => {
    const load = jest.fn(() => Promise.resolve([1]));
    expect(() => arrayConnection({ first: -1 }, load)).toThrow();
    expect(load).not.toHaveBeenCalled();
  });
});
