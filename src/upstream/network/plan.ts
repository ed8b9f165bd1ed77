/**
 * The plan rule for membership fields (`Endpoint.appWans`, `Service.appWans`): the cheaper plan
 * for the parents at hand, explicit and tested. Two ways to answer "which AppWANs hold this endpoint":
 *
 * - `per-parent`: one `/networks/{n}/endpoints/{id}/appWans` call per endpoint (the upstream's
 *   own answer, always right);
 * - `membership-index`: one list of the network's AppWANs plus each AppWAN's member lists,
 *   inverted in memory. Its cost does not grow with the number of endpoints, and the member lists
 *   are the same cached calls that `AppWan.endpoints`/`.endpointGroups`/`.services` use.
 *
 * The index must give the upstream's answer, not an approximation of it:
 *
 * - Endpoint side: an endpoint belongs to an AppWAN directly (`/appWans/{id}/endpoints`) or
 *   through an endpoint group the AppWAN holds (`/appWans/{id}/endpointGroups`: endpoints removed from a
 *   group lose access to the AppWANs that held it). The index reads both lists per AppWAN
 *   and, for every distinct group held, its members at the group record's `_links.endpoints`
 *   (the contract has no GET of a group's members by a built path). Cost: 2 (AppWAN list and
 *   the network's endpoint-group list) + 1 or 2 × AppWANs + the groups read (one list each;
 *   `chooseGroupMemberPlan` below says which and when). When an AppWAN holds a group
 *   with no such link (on its record or the network's), the index cannot be exact
 *   (`exact: false`): the network's parents are answered `per-parent`.
 * - Service side: AppWANs hold services directly (their `_links` have `services`, no service
 *   groups), so `/appWans/{id}/services` is the whole answer: 1 + AppWANs, always exact.
 *
 * The index wins as soon as two parents of one network are asked in the same batch, or when the
 * network's index is already loaded in this request (then it is free). A single parent takes its
 * own relation call (1 call, where the index would cost at least 2). With batching off (the
 * benchmark's baseline) every parent takes its own call. An index known to be inexact never
 * answers: the loader asks this rule again once it knows, and gets `per-parent`.
 */
export type RelationPlan = 'membership-index' | 'per-parent';

export interface PlanInput {
  /** `options.batching` of the request. */
  batching: boolean;
  /** Parents of the same network in this batch. */
  parentsInBatch: number;
  /** The network's membership index is already loaded (or loading) in this request. */
  indexLoaded: boolean;
  /**
   * Whether the loaded index is exact (every endpoint group an AppWAN holds links its members);
   * null while unknown (not loaded, or still loading).
   */
  indexExact: boolean | null;
}

export function chooseRelationPlan(input: PlanInput): RelationPlan {
  if (!input.batching) return 'per-parent';
  if (input.indexExact === false) return 'per-parent';
  if (input.indexLoaded || input.parentsInBatch >= 2) return 'membership-index';
  return 'per-parent';
}

/**
 * The endpoint-group part of the membership index (endpoint side). Beside the AppWAN list, the
 * index reads the network's own endpoint-group list (`/networks/{n}/endpointGroups`, one call in
 * the same round trip). Then:
 *
 * - `no-groups`: the network has none, so no AppWAN can hold one (an AppWAN and the groups it
 *   holds live under the same `/networks/{n}`): the per-AppWAN endpoint-group lists are skipped
 *   (saves one call per AppWAN);
 * - `prefetch-all`: the groups' member lists (at each record's `_links.endpoints`) are read in the
 *   same round trip as the per-AppWAN lists instead of one trip later, for every group of the
 *   network, held or not. That costs at most one call per group no AppWAN holds; with no more
 *   groups than AppWANs, at most as many calls as the per-AppWAN lists of that trip, to save a
 *   whole round trip (on the sandbox's large data: 3 groups, 8 AppWANs, every group held, so
 *   no extra call at all);
 * - `held-after`: more groups than AppWANs (many may be held by none): only the held groups'
 *   member lists, after the per-AppWAN lists say which those are (one more round trip).
 *
 * A held group without a members link still makes the index inexact (see above), whatever plan.
 */
export type GroupMemberPlan = 'no-groups' | 'prefetch-all' | 'held-after';

export interface GroupMemberInput {
  /** Endpoint groups in the network's own list. */
  networkGroups: number;
  /** AppWANs in the network's list. */
  appWans: number;
}

export function chooseGroupMemberPlan(input: GroupMemberInput): GroupMemberPlan {
  if (input.networkGroups === 0) return 'no-groups';
  return input.networkGroups <= input.appWans ? 'prefetch-all' : 'held-after';
}
