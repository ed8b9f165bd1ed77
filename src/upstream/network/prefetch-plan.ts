/**
 * When to start a plan's reads before the fields that need them are asked (selection look-ahead,
 * `resolvers/network/prefetch.ts`), beside `chooseSharedListPlan` (list-plan.ts) and
 * `chooseRelationPlan` (plan.ts).
 *
 * Both rules answer many parents from one read (one `/networks` list for all groups; one
 * membership index for a network's endpoints) when two or more parents ask in one batch, or when
 * the read is already loaded. The executor asks a field only once its parents are in, one level
 * per round trip; to save those trips the read must start while the parents are still loading,
 * when the most the gateway knows is how many parents the window asking for them can hold. So:
 *
 * - batching off (the benchmark baseline) → never;
 * - the parents' window can hold two or more → start the shared read; once loading, the rule
 *   answers the parents from it (`sharedLoaded` / `indexLoaded`), so no field calls twice;
 * - a window of one parent at most (`first: 1`) → never: the rule would take the parent's own call.
 *
 * What a read started in advance may cost over the plan chosen afterwards (none on the sandbox's data sets):
 * a group list that comes back with one group reads the whole `/networks` instead of the group's
 * filtered list (one list either way; its pages may differ), and groups whose `networks` link is
 * not that collection never read it (one list wasted); a network with fewer than two endpoints in
 * the window has read its AppWAN and endpoint-group lists for an index it does not use (at most
 * two lists where the plan takes one call per endpoint).
 *
 * `AppWan.services` below `Endpoint.appWans` is started once the membership index is chosen (its
 * AppWAN list is in): each AppWAN's service list, a round trip before the executor asks it. An
 * AppWAN that none of the network's endpoints reaches (no member, directly or through a group)
 * costs one service list nobody reads: its reach is known only once its member lists are in, a
 * round trip later.
 */
export interface PrefetchInput {
  /** `options.batching` of the request. */
  batching: boolean;
  /** How many parents the window asking for them can hold (`first`; the sum over aliases). */
  parentWindow: number;
}

export function choosePrefetch(input: PrefetchInput): boolean {
  return input.batching && input.parentWindow >= 2;
}
