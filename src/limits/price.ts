/** Compares an operation's estimate (cost.ts) with the configured maximums. */
import type { DocumentNode, GraphQLSchema } from 'graphql';
import { CostTooExpensiveError, type CostLimit } from '../errors/codes';
import { estimateCost, type CostEstimate } from './cost';
import type { PriceLimits } from './limits';

const CHECKS: ReadonlyArray<readonly [Exclude<CostLimit, 'tokens' | 'bytes'>, keyof PriceLimits, string, string]> = [
  ['depth', 'maxDepth', 'MAX_DEPTH', 'fields deep'],
  ['aliases', 'maxAliases', 'MAX_ALIASES', 'aliases'],
  ['nodes', 'maxNodes', 'MAX_ESTIMATED_NODES', 'list items (nodes) estimated'],
  ['upstreamCalls', 'maxUpstreamCalls', 'MAX_ESTIMATED_UPSTREAM_CALLS', 'upstream calls estimated'],
];

/** Estimates kept per document (Apollo hands the same parsed document to every request with the same text). */
const MAX_ESTIMATES_PER_DOCUMENT = 32;
const estimates = new WeakMap<DocumentNode, Map<string, CostEstimate | null>>();

/** estimateCost, remembered per (document, operation name, variables): an app sends a few documents many times. */
function cachedEstimate(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | undefined,
): CostEstimate | null {
  let byInput = estimates.get(document);
  if (byInput === undefined) estimates.set(document, (byInput = new Map()));
  const key = JSON.stringify([operationName ?? null, variables ?? null]);
  const known = byInput.get(key);
  if (known !== undefined) return known;
  const estimate = estimateCost(schema, document, operationName, variables);
  // Bounded: a document sent with ever-new variables starts over instead of growing.
  if (byInput.size >= MAX_ESTIMATES_PER_DOCUMENT) byInput.clear();
  byInput.set(key, estimate);
  return estimate;
}

/**
 * The operation's estimate; throws CostTooExpensiveError for the first maximum it is over
 * (depth, aliases, nodes, upstream calls). Null when the variables do not coerce.
 */
export function priceOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | undefined,
  limits: PriceLimits,
): CostEstimate | null {
  const estimate = cachedEstimate(schema, document, operationName, variables);
  if (!estimate) return null;
  for (const [limit, key, variable, what] of CHECKS) {
    const value = estimate[limit];
    const max = limits[key];
    if (value > max) {
      const shown = Number.isFinite(value) ? Math.round(value) : Number.MAX_SAFE_INTEGER;
      throw new CostTooExpensiveError(
        limit,
        shown,
        max,
        `the operation is too expensive to run: ${shown.toLocaleString('en-US')} ${what}, over the maximum of ${max.toLocaleString('en-US')} (${variable}). Ask for fewer items (first), fewer levels or fewer aliases.`,
      );
    }
  }
  return estimate;
}
