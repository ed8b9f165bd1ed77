/** Compares an operation's estimate (cost.ts) with the configured maximums. */
import { visit, type DocumentNode, type GraphQLSchema } from 'graphql';
import { CostTooExpensiveError, type CostLimit } from '../errors/codes';
import { estimateCost, type CostEstimate } from './cost';
import type { PriceLimits } from './limits';
import { SIZE_ARGUMENTS } from './expected-sizes';

/** What a cost input's value means to the price: a list its length (and that it is a list), anything else itself. */
const sizeOf = (value: unknown): unknown => (Array.isArray(value) ? { length: value.length } : value);

const CHECKS: ReadonlyArray<readonly [Exclude<CostLimit, 'tokens' | 'bytes'>, keyof PriceLimits, string, string]> = [
  ['depth', 'maxDepth', 'MAX_DEPTH', 'fields deep'],
  ['aliases', 'maxAliases', 'MAX_ALIASES', 'aliases'],
  ['nodes', 'maxNodes', 'MAX_ESTIMATED_NODES', 'list items (nodes) estimated'],
  ['upstreamCalls', 'maxUpstreamCalls', 'MAX_ESTIMATED_UPSTREAM_CALLS', 'upstream calls estimated'],
];

/** Estimates kept per (document, operation name): one per distinct set of cost-input values. */
const MAX_ESTIMATES_PER_OPERATION = 32;

interface OperationEstimates {
  /** The variables the estimate reads (cost.ts reads variables only in size arguments: `first`, `nodeIds`). */
  inputs: readonly string[];
  byInputs: Map<string, CostEstimate>;
}

/** Per document (Apollo and the known-query path hand the same parsed document to every request with the same text), per operation name. */
const estimates = new WeakMap<DocumentNode, Map<string, OperationEstimates>>();

/** The variables referenced by any size argument (`first`, `nodeIds`) in the document (a superset of the operation's: safe). */
function costInputs(document: DocumentNode): string[] {
  const names = new Set<string>();
  visit(document, {
    Argument(node) {
      if (!SIZE_ARGUMENTS.has(node.name.value)) return false;
      visit(node.value, { Variable: (variable) => void names.add(variable.name.value) });
      return false;
    },
  });
  return [...names].sort();
}

/**
 * estimateCost, remembered by the values of the variables it reads: an app sends a few documents
 * many times, each with ever-new ids. Keyed by all variables (as before), every new id was a miss
 * and the whole walk ran again; now an operation without cost inputs has one key.
 * A null (variables that do not coerce) is never remembered: under a key of cost inputs only, it
 * would let a later request with the same `first` and other variables skip pricing. A remembered
 * price holds for any request with the same cost inputs; one whose other variables do not coerce
 * is then refused by execution (BAD_USER_INPUT), or first by its price when that is over a limit.
 */
function cachedEstimate(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Readonly<Record<string, unknown>> | undefined,
): CostEstimate | null {
  let byOperation = estimates.get(document);
  if (byOperation === undefined) estimates.set(document, (byOperation = new Map()));
  const name = operationName ?? '';
  let operation = byOperation.get(name);
  if (operation === undefined) byOperation.set(name, (operation = { inputs: costInputs(document), byInputs: new Map() }));
  // An absent variable (its default applies) and an explicit null are different inputs.
  // A list (`nodeIds`) is priced by its length alone: ever-new ids keep one key.
  const key = operation.inputs.length === 0 ? '' : JSON.stringify(operation.inputs.map((input) => (variables !== undefined && Object.hasOwn(variables, input) ? [sizeOf(variables[input])] : [])));
  const known = operation.byInputs.get(key);
  if (known !== undefined) return known;
  const estimate = estimateCost(schema, document, operationName, variables);
  if (estimate === null) return null;
  // Bounded: an operation priced with ever-new `first` values starts over instead of growing.
  if (operation.byInputs.size >= MAX_ESTIMATES_PER_OPERATION) operation.byInputs.clear();
  operation.byInputs.set(key, estimate);
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
