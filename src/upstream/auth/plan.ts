/**
 * The plan rule for per-type relations (`ResourceType.children`, `ResourceType.actions`).
 *
 * - `per-parent`: one filtered list per type (`/resource-types?parentId=`,
 *   `/resource-actions?resourceTypeId=`).
 * - `domain-list`: one list of the type's domain (`?domainId=`), inverted in memory.
 * - `all-list`: the unfiltered list, inverted in memory: one call for types of many domains.
 *
 * Cheapest first: a list this request already asked for costs nothing; types of two or more
 * domains in one batch share one unfiltered call; two or more types of one domain share the
 * domain's list; a single type takes the smaller per-parent answer. With batching off, always
 * per-parent (the benchmark's naive baseline).
 */
export type RelationPlan = 'all-list' | 'domain-list' | 'per-parent';

export interface PlanInput {
  batching: boolean;
  /** The types' domain; null when the upstream record did not say. */
  domainId: string | null;
  /** How many types of this domain the current batch asks about. */
  typesInBatch: number;
  /** How many distinct domains the current batch spans. */
  domainsInBatch: number;
  /** True when this request already asked for the domain's list. */
  domainListLoaded: boolean;
  /** True when this request already asked for the unfiltered list. */
  allListLoaded: boolean;
}

export function chooseRelationPlan(input: PlanInput): RelationPlan {
  if (!input.batching) return 'per-parent';
  if (input.allListLoaded) return 'all-list';
  if (input.domainId !== null && input.domainListLoaded) return 'domain-list';
  if (input.domainsInBatch >= 2) return 'all-list';
  if (input.domainId !== null && input.typesInBatch >= 2) return 'domain-list';
  return 'per-parent';
}

/**
 * The rule for domain-scoped lists (`/resource-types?domainId=` for several domains at once, as
 * `domains { resourceTypes }` asks): two or more in one batch, or an unfiltered list already asked
 * for, are served from the unfiltered list grouped by domain.
 */
export function useUnfilteredList(input: { batching: boolean; domainFiltersInBatch: number; allListLoaded: boolean }): boolean {
  return input.batching && (input.allListLoaded || input.domainFiltersInBatch >= 2);
}

/**
 * The rule for by-id loads: two or more ids of one resource in one batch cost one unfiltered list
 * instead of one `GET /{id}` each (ids the list lacks are still fetched one by one).
 */
export function byIdFromList(input: { batching: boolean; idsInBatch: number }): boolean {
  return input.batching && input.idsInBatch >= 2;
}
