import { endpointsInOrder, totalOrder } from '../../../src/upstream/network/list-order';
import { chooseSharedListPlan } from '../../../src/upstream/network/list-plan';
import { chooseGroupMemberPlan, chooseRelationPlan } from '../../../src/upstream/network/plan';
import { parseEndpoint } from '../../../src/upstream/network/records';

/** An endpoint record with every field null; tests set the ones that matter. */
const BLANK = parseEndpoint({ id: 'blank' });

describe('chooseRelationPlan', () => {
  it.each([
    [{ batching: true, parentsInBatch: 1, indexLoaded: false, indexExact: null }, 'per-parent'],
    [{ batching: true, parentsInBatch: 2, indexLoaded: false, indexExact: null }, 'membership-index'],
    [{ batching: true, parentsInBatch: 500, indexLoaded: false, indexExact: null }, 'membership-index'],
    [{ batching: true, parentsInBatch: 1, indexLoaded: true, indexExact: null }, 'membership-index'],
    [{ batching: true, parentsInBatch: 1, indexLoaded: true, indexExact: true }, 'membership-index'],
    // An index that cannot be exact (a held endpoint group without a members link) never answers.
    [{ batching: true, parentsInBatch: 500, indexLoaded: true, indexExact: false }, 'per-parent'],
    [{ batching: true, parentsInBatch: 1, indexLoaded: true, indexExact: false }, 'per-parent'],
    [{ batching: false, parentsInBatch: 500, indexLoaded: false, indexExact: null }, 'per-parent'],
    [{ batching: false, parentsInBatch: 1, indexLoaded: true, indexExact: true }, 'per-parent'],
  ] as const)('%j -> %s', (input, plan) => {
    expect(chooseRelationPlan(input)).toBe(plan);
  });
});

describe('chooseSharedListPlan', () => {
  it.each([
    [{ batching: true, parentsInBatch: 1, sharedLoaded: false, sharedExact: null }, 'per-parent'],
    [{ batching: true, parentsInBatch: 2, sharedLoaded: false, sharedExact: null }, 'shared'],
    [{ batching: true, parentsInBatch: 1, sharedLoaded: true, sharedExact: null }, 'shared'],
    [{ batching: true, parentsInBatch: 1, sharedLoaded: true, sharedExact: true }, 'shared'],
    // No shared list can answer (a network without a group): its own list.
    [{ batching: true, parentsInBatch: 0, sharedLoaded: true, sharedExact: true }, 'per-parent'],
    // A shared list that does not partition exactly (a record without its owner, out of order) never answers.
    [{ batching: true, parentsInBatch: 6, sharedLoaded: true, sharedExact: false }, 'per-parent'],
    [{ batching: false, parentsInBatch: 6, sharedLoaded: false, sharedExact: null }, 'per-parent'],
    [{ batching: false, parentsInBatch: 1, sharedLoaded: true, sharedExact: true }, 'per-parent'],
  ] as const)('%j -> %s', (input, plan) => {
    expect(chooseSharedListPlan(input)).toBe(plan);
  });
});

describe('chooseGroupMemberPlan', () => {
  it.each([
    [{ networkGroups: 0, appWans: 8 }, 'no-groups'],
    [{ networkGroups: 0, appWans: 0 }, 'no-groups'],
    [{ networkGroups: 3, appWans: 8 }, 'prefetch-all'],
    [{ networkGroups: 8, appWans: 8 }, 'prefetch-all'],
    [{ networkGroups: 9, appWans: 8 }, 'held-after'],
    [{ networkGroups: 1, appWans: 0 }, 'held-after'],
  ] as const)('%j -> %s', (input, plan) => {
    expect(chooseGroupMemberPlan(input)).toBe(plan);
  });
});

describe('endpoint list order', () => {
  const ep = (id: string, createdAt: string | null, name: string | null = null, status: number | null = 300) => ({ ...BLANK, id, createdAt, name, status });
  it('is the caller’s keys, or creation order, then id', () => {
    expect(totalOrder([])).toEqual([{ field: 'createdAt', direction: 'ASC' }, { field: 'id', direction: 'ASC' }]);
    expect(totalOrder([{ field: 'name', direction: 'DESC' }])).toEqual([{ field: 'name', direction: 'DESC' }, { field: 'id', direction: 'ASC' }]);
    expect(totalOrder([{ field: 'id', direction: 'DESC' }])).toEqual([{ field: 'id', direction: 'DESC' }]);
  });
  it('checks a partition keeps the order, and refuses what it cannot compare', () => {
    const order = totalOrder([]);
    expect(endpointsInOrder([ep('b', '2024-01-01T00:00:00Z'), ep('a', '2024-01-02T00:00:00Z')], order)).toBe(true);
    expect(endpointsInOrder([ep('b', '2024-01-01T00:00:00Z'), ep('a', '2024-01-01T00:00:00Z')], order)).toBe(false); // tie broken the wrong way
    expect(endpointsInOrder([ep('a', '2024-01-02T00:00:00Z'), ep('b', '2024-01-01T00:00:00Z')], order)).toBe(false);
    expect(endpointsInOrder([ep('a', null), ep('b', '2024-01-01T00:00:00Z')], order)).toBe(false); // no stamp: cannot tell
    expect(endpointsInOrder([ep('a', 'x'), ep('a', 'x')], order)).toBe(false); // a duplicate is not a total order
    expect(endpointsInOrder([ep('b', null, null, 300), ep('a', null, null, 400)], totalOrder([{ field: 'status', direction: 'ASC' }]))).toBe(true);
    expect(endpointsInOrder([ep('a', null), ep('b', null)], totalOrder([{ field: 'sessionStatus', direction: 'ASC' }]))).toBe(false); // no reader
    expect(endpointsInOrder([], order)).toBe(true);
  });
});
