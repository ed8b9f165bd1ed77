/**
 * The plan rule for membership fields (`Endpoint.appWans`, `Service.appWans`), DESIGN.md
 * "Upstream calls". Two ways to answer "which AppWANs hold this endpoint":
 *
 * - `per-parent`: one `/networks/{n}/endpoints/{id}/appWans` call per endpoint;
 * - `membership-index`: one list of the network's AppWANs plus each AppWAN's member list,
 *   inverted in memory. Its cost (1 + AppWANs) does not grow with the number of endpoints, and
 *   the member lists are the same cached calls that `AppWan.endpoints`/`.services` use.
 *
 * The index wins as soon as two parents of one network are asked in the same batch, or when the
 * network's index is already loaded in this request (then it is free). A single parent takes its
 * own relation call (1 call, where the index would cost at least 2). With batching off (the
 * benchmark's baseline) every parent takes its own call.
 */
export type RelationPlan = 'membership-index' | 'per-parent';

export interface PlanInput {
  /** `options.batching` of the request. */
  batching: boolean;
  /** Parents of the same network in this batch. */
  parentsInBatch: number;
  /** The network's membership index is already loaded (or loading) in this request. */
  indexLoaded: boolean;
}

export function chooseRelationPlan(input: PlanInput): RelationPlan {
  if (!input.batching) return 'per-parent';
  if (input.indexLoaded || input.parentsInBatch >= 2) return 'membership-index';
  return 'per-parent';
}
