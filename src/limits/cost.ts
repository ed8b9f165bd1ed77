/**
 * The cost model: prices an operation from its document and variables alone, before anything runs
 * (src/limits/README.md). One walk over the operation, fragments inlined, computes
 *
 * - nodes: list items the answer can hold. A connection counts the smaller of its `first` and the
 *   field's expected size (expected-sizes.ts) per parent; a plain list its expected size. Counts
 *   multiply down nested lists, as GitHub's node limit does.
 * - upstreamCalls: what the loaders' plans would send for those sizes: one call per distinct parent
 *   for relation lists (by-id loaders deduplicate, so parents beyond the distinct records of the
 *   networks in scope cost nothing), the membership index per network for `Endpoint.appWans`,
 *   one call per page.
 * - depth (deepest field, fragments inlined) and aliases (fields whose alias differs from their name).
 *
 * Directives (`@skip`/`@include`) are ignored and every branch of an abstract type is counted:
 * the estimate is an upper bound of what the document asks, never a guess at what it skips.
 */
import {
  getNamedType,
  getNullableType,
  getVariableValues,
  isListType,
  isObjectType,
  isInterfaceType,
  Kind,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  valueFromAST,
} from 'graphql';
import { DEFAULT_FIRST, DEFAULT_LIST_SIZE, FIELD_COSTS, GLOBAL_DISTINCT, PER_NETWORK, UPSTREAM_PAGE_SIZE, type FieldCost } from './expected-sizes';

export interface CostEstimate {
  nodes: number;
  upstreamCalls: number;
  depth: number;
  aliases: number;
}

/** What the walk carries down one path: how many parents, and how many networks are in scope. */
interface Scope {
  /** Parent objects the current selection set is evaluated for. */
  parents: number;
  /** Distinct networks this path can reach (bounds relation calls by dedup); Infinity before any. */
  networks: number;
  /** Page size of the connection whose `nodes`/`edges` are being walked. */
  connectionSize: number;
  depth: number;
  /** Inside `__schema`/`__type`: answered from the schema (no call), and not counted in depth. */
  introspection: boolean;
}

interface Totals {
  nodes: number;
  upstreamCalls: number;
  depth: number;
  aliases: number;
}

/** Types of which each object lies in one network at most (a network; any `Node` read by global id). */
const ONE_NETWORK_EACH: ReadonlySet<string> = new Set(['Network', 'Node']);

/** Networks an operation can reach at most (the distinct-records bound when no network list is on the path). */
const MAX_NETWORKS = FIELD_COSTS['Query.networks']?.size ?? 50;

export function operationOf(document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | null {
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  if (operationName) return operations.find((o) => o.name?.value === operationName) ?? null;
  return operations.length === 1 ? (operations[0] ?? null) : null;
}

/**
 * The estimate of one operation of a validated document, or null when its variables do not coerce
 * (execution then fails with the variable error, before any upstream call).
 */
export function estimateCost(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  rawVariables: Readonly<Record<string, unknown>> | undefined,
): CostEstimate | null {
  const operation = operationOf(document, operationName);
  if (!operation) return null;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], rawVariables ?? {}, { maxErrors: 1 });
  if (coerced.errors) return null;
  const variables = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const root = operation.operation === 'query' ? schema.getQueryType() : operation.operation === 'mutation' ? schema.getMutationType() : schema.getSubscriptionType();
  if (!root) return null;

  const totals: Totals = { nodes: 0, upstreamCalls: 0, depth: 0, aliases: 0 };
  // Fragment spreads are walked once per (fragment, scope): a document of fragments that each
  // spread the next twice costs linear time, not 2^n. Validation has refused fragment cycles.
  const memo = new Map<string, Totals>();

  function walk(selectionSet: SelectionSetNode, parentType: GraphQLNamedType, scope: Scope, into: Totals): void {
    for (const selection of selectionSet.selections) {
      if (selection.kind === Kind.FIELD) {
        field(selection, parentType, scope, into);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? (schema.getType(selection.typeCondition.name.value) ?? parentType) : parentType;
        walk(selection.selectionSet, type, scope, into);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (!fragment) continue;
        const key = `${fragment.name.value}|${scope.parents}|${scope.networks}|${scope.connectionSize}|${scope.depth}|${scope.introspection}`;
        let cost = memo.get(key);
        if (!cost) {
          cost = { nodes: 0, upstreamCalls: 0, depth: 0, aliases: 0 };
          memo.set(key, cost);
          walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? parentType, scope, cost);
        }
        into.nodes += cost.nodes;
        into.upstreamCalls += cost.upstreamCalls;
        into.aliases += cost.aliases;
        into.depth = Math.max(into.depth, cost.depth);
      }
    }
  }

  function field(node: FieldNode, parentType: GraphQLNamedType, scope: Scope, into: Totals): void {
    const introspection = scope.introspection || node.name.value.startsWith('__');
    // Introspection follows the schema's own nesting (`ofType` chains): it is bounded by the schema, not by data.
    const depth = introspection ? scope.depth : scope.depth + 1;
    into.depth = Math.max(into.depth, depth);
    if (node.alias && node.alias.value !== node.name.value) into.aliases += 1;
    if (!node.selectionSet) return;
    const definition = fieldDefinition(parentType, node.name.value);
    if (!definition) {
      walk(node.selectionSet, parentType, { ...scope, depth, introspection }, into);
      return;
    }
    const type = getNamedType(definition.type);
    const key = `${parentType.name}.${definition.name}`;
    const declared: FieldCost = FIELD_COSTS[key] ?? {};
    const isRoot = parentType === root;

    if (isConnectionType(type)) {
      const first = firstArgument(definition, node, variables);
      const size = Math.min(first ?? DEFAULT_FIRST, declared.size ?? first ?? DEFAULT_FIRST);
      if (!introspection) into.upstreamCalls += callsFor(declared, isRoot, scope, parentType.name, size);
      const networks = type.name === 'NetworkConnection' ? Math.min(scope.networks, scope.parents * size, MAX_NETWORKS) : scope.networks;
      walk(node.selectionSet, type, { parents: scope.parents, networks, connectionSize: size, depth, introspection }, into);
      return;
    }
    if (isListType(getNullableType(definition.type))) {
      // `nodes`/`edges` of a connection take the connection's size; other lists their declared one
      // (or the length of their list argument, when declared so: `nodes(nodeIds:)`).
      const size = isConnectionType(parentType) ? scope.connectionSize : listSize(declared, definition, node, variables);
      const items = scope.parents * size;
      into.nodes += items;
      // A plain list is part of its parent's record unless declared (or at the root).
      if (!isConnectionType(parentType) && !introspection && (isRoot || declared.calls)) into.upstreamCalls += callsFor(declared, isRoot, scope, parentType.name, size);
      const networks = ONE_NETWORK_EACH.has(type.name) ? Math.min(scope.networks, items, MAX_NETWORKS) : scope.networks;
      walk(node.selectionSet, type, { parents: items, networks, connectionSize: scope.connectionSize, depth, introspection }, into);
      return;
    }
    // A single object: a by-id link (declared, deduplicated), a root field, or part of the parent's record.
    if (!introspection && (isRoot || declared.calls)) into.upstreamCalls += callsFor(declared, isRoot, scope, type.name, 1);
    const networks = ONE_NETWORK_EACH.has(type.name) && isRoot ? 1 : scope.networks;
    walk(node.selectionSet, type, { ...scope, networks, depth, introspection }, into);
  }

  /** Calls one field costs over all its parents, per its plan (default: root once, nested per distinct parent). */
  function callsFor(declared: FieldCost, isRoot: boolean, scope: Scope, distinctType: string, size: number): number {
    const pages = Math.max(1, Math.ceil(size / UPSTREAM_PAGE_SIZE));
    const plan = declared.calls ?? (isRoot ? { kind: 'once' as const } : { kind: 'perParent' as const });
    const networks = Number.isFinite(scope.networks) ? scope.networks : MAX_NETWORKS;
    const perNetwork = PER_NETWORK[distinctType];
    const distinctParents = perNetwork === undefined ? (GLOBAL_DISTINCT[distinctType] ?? Infinity) : networks * perNetwork;
    switch (plan.kind) {
      case 'free':
        return 0;
      case 'once':
        return pages;
      case 'wholeList':
        return Math.min(scope.parents, pages);
      case 'perParent':
        return Math.min(scope.parents, distinctParents) * pages;
      case 'perItem':
        return scope.parents * size;
      case 'membershipIndex':
        return Math.min(Math.min(scope.parents, distinctParents), networks * plan.perNetwork) * pages;
    }
  }

  walk(operation.selectionSet, root, { parents: 1, networks: Infinity, connectionSize: DEFAULT_FIRST, depth: 0, introspection: false }, totals);
  return totals;
}

function fieldDefinition(type: GraphQLNamedType, name: string): GraphQLField<unknown, unknown> | undefined {
  if (isObjectType(type) || isInterfaceType(type)) return type.getFields()[name];
  return undefined;
}

/** A Relay-style connection type: `nodes`, `edges` and `pageInfo`. */
function isConnectionType(type: GraphQLNamedType): type is GraphQLObjectType {
  if (!isObjectType(type)) return false;
  const fields = type.getFields();
  return 'pageInfo' in fields && ('nodes' in fields || 'edges' in fields);
}

/**
 * The `first` argument alone, as graphql-js coerces it (a default when it or its variable is
 * absent). Only `first`: coercing every argument of the field would let another variable's
 * failure change the price, which price.ts remembers by the variables in size arguments only.
 */
function firstArgument(definition: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>): number | null {
  const argument = definition.args.find((a) => a.name === 'first');
  if (argument === undefined) return null;
  const given = node.arguments?.find((a) => a.name.value === 'first');
  const absent = given === undefined || (given.value.kind === Kind.VARIABLE && !Object.hasOwn(variables, given.value.name.value));
  const first = absent ? argument.defaultValue : valueFromAST(given.value, argument.type, variables);
  return typeof first === 'number' && first >= 0 ? first : null;
}

/** A plain list's size: its declared one, or the length of its declared list argument (at most the declared size). */
function listSize(declared: FieldCost, definition: GraphQLField<unknown, unknown>, node: FieldNode, variables: Record<string, unknown>): number {
  const max = declared.size ?? DEFAULT_LIST_SIZE;
  if (declared.listArgument === undefined) return max;
  const argument = definition.args.find((a) => a.name === declared.listArgument);
  const given = node.arguments?.find((a) => a.name.value === declared.listArgument);
  if (argument === undefined || given === undefined) return max;
  const value: unknown = valueFromAST(given.value, argument.type, variables);
  return Array.isArray(value) ? Math.min(value.length, max) : max;
}
