import { appendTo, grouper } from '../../src/upstream/multimap';

describe('grouper', () => {
  const byParent = grouper((item: { id: string; parent: string | null }) => item.parent);
  const items = [
    { id: 'a', parent: 'p' },
    { id: 'b', parent: null },
    { id: 'c', parent: 'p' },
    { id: 'd', parent: 'q' },
  ];

  it('groups items by key in list order, null included', () => {
    const groups = byParent(items);
    expect(groups.get('p')?.map((i) => i.id)).toEqual(['a', 'c']);
    expect(groups.get('q')?.map((i) => i.id)).toEqual(['d']);
    expect(groups.get(null)?.map((i) => i.id)).toEqual(['b']);
    expect(groups.get('absent')).toBeUndefined();
  });

  it('builds a list’s grouping once and a new list’s afresh', () => {
    let calls = 0;
    const counted = grouper((item: { id: string }) => {
      calls += 1;
      return item.id;
    });
    const list = [{ id: 'x' }, { id: 'y' }];
    expect(counted(list)).toBe(counted(list));
    expect(calls).toBe(2);
    counted([{ id: 'z' }]);
    expect(calls).toBe(3);
  });
});

describe('appendTo', () => {
  it('creates the list on first use and appends in place after', () => {
    const map = new Map<string, number[]>();
    appendTo(map, 'k', 1);
    const first = map.get('k');
    appendTo(map, 'k', 2);
    expect(map.get('k')).toBe(first);
    expect(first).toEqual([1, 2]);
  });
});
