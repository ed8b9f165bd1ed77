import { chooseRelationPlan } from '../../../src/upstream/network/plan';

describe('chooseRelationPlan', () => {
  it.each([
    [{ batching: true, parentsInBatch: 1, indexLoaded: false }, 'per-parent'],
    [{ batching: true, parentsInBatch: 2, indexLoaded: false }, 'membership-index'],
    [{ batching: true, parentsInBatch: 500, indexLoaded: false }, 'membership-index'],
    [{ batching: true, parentsInBatch: 1, indexLoaded: true }, 'membership-index'],
    [{ batching: false, parentsInBatch: 500, indexLoaded: false }, 'per-parent'],
    [{ batching: false, parentsInBatch: 1, indexLoaded: true }, 'per-parent'],
  ] as const)('%j -> %s', (input, plan) => {
    expect(chooseRelationPlan(input)).toBe(plan);
  });
});
