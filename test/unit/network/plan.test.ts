import { chooseRelationPlan } from '../../../src/upstream/network/plan';

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
