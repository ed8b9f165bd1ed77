/**
 * The plan rule for per-type relations (`ResourceType.children`, `ResourceType.actions`).
 *
 * - `per-parent`: one filtered list per type (`/resource-types?parentId=`,
 *   `/resource-actions?resourceTypeId=`).
 * - `domain-list`: one list of the whole domain (`?domainId=`), inverted in memory; the
 *   cost is one call per domain, whatever the number of types.
 *
 * The domain list wins when it is already loaded in this request (zero calls) or when at least
 * two types of the domain are asked in the same batch (one call instead of n). A single type
 * takes the smaller per-parent answer. With batching off, always per-parent (the benchmark's
 * naive baseline).
 */
export type RelationPlan = 'domain-list' | 'per-parent';

export interface PlanInput {
  batching: boolean;
  /** The types' domain; null when the upstream record did not say. */
  domainId: string | null;
  /** How many types of this domain the current batch asks about. */
  typesInBatch: number;
  /** True when this request already asked for the domain's list. */
  domainListLoaded: boolean;
}

export function chooseRelationPlan(input: PlanInput): RelationPlan {
  if (!input.batching || input.domainId === null) return 'per-parent';
  if (input.domainListLoaded || input.typesInBatch >= 2) return 'domain-list';
  return 'per-parent';
}
