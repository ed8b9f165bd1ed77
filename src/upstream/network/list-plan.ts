/**
 * Plan rules for the two lists many parents of one request ask at once, beside `chooseRelationPlan` (plan.ts):
 *
 * - `NetworkGroup.networks`: one filtered `/networks?organizationId={g}` list per group, or ONE
 *   `/networks` list (all pages) partitioned by each record's `organizationId`;
 * - `Network.endpoints`: one `/networks/{n}/endpoints` list per network, or ONE
 *   `/networkgroups/{g}/endpoints` list (all pages) partitioned by each record's `networkId`.
 *
 * A shared list costs at least one call however many parents it answers, the per-parent lists at
 * least one each; list sizes are not known before the first page, so the rule counts parents, like
 * `chooseRelationPlan`: the shared list wins for two parents or more in one batch, or when it is
 * already loaded in this request (then it is free). A single parent takes its own list.
 *
 * Each shared list must give the upstream's own answer, or it does not answer:
 *
 * - networks: every record carries `organizationId`; the group's own list is the `/networks`
 *   collection filtered by its id (its `networks` link, or no link: the gateway builds that
 *   filter), so the partition is that list, in that list's order; a group absent from the shared
 *   list is asked its own list (the contract says `/networks` lists "networks of the group": an
 *   upstream scoping it to the caller's group must not make other groups look empty).
 * - endpoints: every record carries `networkId`, and each partition is in the order its
 *   per-network list is asked for (list-order.ts). The group list is a different resource whose
 *   default order and paging the contract leaves open, so both lists are asked for the same
 *   total order and the gateway checks the partition keeps it.
 *
 * With batching off (the benchmark's baseline) every parent takes its own list. A shared list
 * known to be inexact never answers: the loader asks the rule again and gets the per-parent plan.
 */
export type SharedListPlan = 'shared' | 'per-parent';

export interface SharedListInput {
  /** `options.batching` of the request. */
  batching: boolean;
  /** Distinct parents (groups, or networks of one group) in this batch that the shared list can answer. */
  parentsInBatch: number;
  /** The shared list is already loaded (or loading) in this request. */
  sharedLoaded: boolean;
  /** Whether the loaded shared list partitions exactly; null while unknown. */
  sharedExact: boolean | null;
}

export function chooseSharedListPlan(input: SharedListInput): SharedListPlan {
  if (!input.batching || input.parentsInBatch === 0) return 'per-parent';
  if (input.sharedExact === false) return 'per-parent';
  if (input.sharedLoaded || input.parentsInBatch >= 2) return 'shared';
  return 'per-parent';
}
