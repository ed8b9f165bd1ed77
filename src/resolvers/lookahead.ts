/**
 * Selection look-ahead: which fields a query selects below the field being resolved. A resolver
 * uses it to start upstream lists its nested fields will need, so they run alongside its own call
 * instead of one level per round trip.
 *
 * - `selectionOf` / `along`: which fields sit under which, with their arguments, for plans that
 *   must start a nested field's list with that field's own arguments (network/prefetch.ts).
 *   `@skip`/`@include` are evaluated: a skipped field starts nothing.
 * - `nestedFieldNames`: every field name anywhere below (auth, core/v2), read from `selectionOf`.
 * - `prefetchChildren`: a root field fetched by ids from its arguments starts its selected child
 *   fields' loads (their first level of `selectionOf`) alongside its own call.
 */
import {
  getArgumentValues,
  getDirectiveValues,
  getNamedType,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  isAbstractType,
  isInterfaceType,
  isObjectType,
  Kind,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLResolveInfo,
  type SelectionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { streamsHere } from './stream';

export function nestedFieldNames(info: GraphQLResolveInfo): Set<string> {
  return fieldNames(selectionOf(info));
}

/** Every field name anywhere in a selection. */
export function fieldNames(selection: Selection): Set<string> {
  const names = new Set<string>();
  const add = (level: Selection): void => {
    for (const [name, occurrences] of level) {
      names.add(name);
      for (const { below } of occurrences) add(below);
    }
  };
  add(selection);
  return names;
}

/** One occurrence of a field selected below the resolving field (aliases are separate occurrences). */
export interface SelectedField {
  /** Its arguments, variables and defaults applied. */
  readonly args: Readonly<Record<string, unknown>>;
  /** What is selected below it, by field name. */
  readonly below: Selection;
  /** It carries an active `@stream` (a streamed list is read page by page by its own field, never prefetched whole). */
  readonly streamed?: true;
}

/** Fields by name, each with its occurrences (two aliases of one field are two occurrences). */
export type Selection = ReadonlyMap<string, readonly SelectedField[]>;

/**
 * The path-aware look-ahead: the fields selected below the resolving field as a tree, each with
 * its arguments, so a resolver can tell which fields sit under which and ask a nested field's
 * list with the arguments that field will use. Fragments are followed and `@skip`/`@include`
 * are evaluated (a skipped field is not selected); an occurrence whose arguments do not coerce is
 * left out (the field itself reports the error).
 */
export function selectionOf(info: GraphQLResolveInfo, as?: GraphQLObjectType): Selection {
  const node = info.fieldNodes.length === 1 ? info.fieldNodes[0] : undefined;
  // `as`: the object type a field of abstract type resolved to (`node`): fragments on other types are left out.
  const type = as ?? getNamedType(info.returnType);
  if (node === undefined || readsVariables(node.selectionSet, info.fragments)) return walk(info, type);
  let byType = remembered.get(node);
  if (byType === undefined) remembered.set(node, (byType = new Map()));
  let selection = byType.get(type);
  if (selection === undefined) byType.set(type, (selection = walk(info, type)));
  return selection;
}

/**
 * Selections of a field that reads no variable below it, by its node (a part of the parsed
 * document, which every request with the same text shares) and return type: the walk below
 * (fragments, directives, arguments coerced) cost ~6 µs of a one-call request in a profile, for
 * the same answer each time. Shared between requests, so a Selection is never mutated.
 */
const remembered = new WeakMap<FieldNode, Map<GraphQLNamedType, Selection>>();
const variablesBelow = new WeakMap<SelectionSetNode, boolean>();

/** Whether a variable appears anywhere below, fragments spread there included (a fact of the document; validation refused fragment cycles). */
function readsVariables(set: SelectionSetNode | undefined, fragments: GraphQLResolveInfo['fragments']): boolean {
  if (set === undefined) return false;
  let known = variablesBelow.get(set);
  if (known === undefined) {
    const spreads: string[] = [];
    let found = false;
    visit(set, {
      Variable: () => void (found = true),
      FragmentSpread: (spread) => void spreads.push(spread.name.value),
    });
    for (const name of spreads) if (!found) found = readsVariables(fragments[name]?.selectionSet, fragments);
    known = found;
    variablesBelow.set(set, known);
  }
  return known;
}

function walk(info: GraphQLResolveInfo, type: GraphQLNamedType): Selection {
  const out = new Map<string, SelectedField[]>();
  for (const node of info.fieldNodes) collect(info, node.selectionSet, type, out);
  return out;
}

/** The selection below the nodes of the resolving field, a connection. */
export function nodesSelectionOf(info: GraphQLResolveInfo): Selection {
  return nodesOf([{ args: {}, below: selectionOf(info) }]);
}

/**
 * The selection below a connection's nodes: its `nodes { … }` and `edges { node { … } }` merged,
 * over every occurrence given.
 */
export function nodesOf(connections: readonly SelectedField[]): Selection {
  const out = new Map<string, SelectedField[]>();
  for (const connection of connections) {
    merge(out, connection.below.get('nodes') ?? []);
    for (const edges of connection.below.get('edges') ?? []) merge(out, edges.below.get('node') ?? []);
  }
  return out;
}

/**
 * The occurrences reached along `path` of connection fields (each step below the previous step's
 * nodes), e.g. `along(sel, 'endpoints', 'appWans')`: the `appWans` selected on the nodes of
 * `endpoints`. Empty when the path is not selected.
 */
export function along(selection: Selection, ...path: readonly string[]): readonly SelectedField[] {
  let here: readonly SelectedField[] = [];
  let level = selection;
  for (const [i, name] of path.entries()) {
    here = level.get(name) ?? [];
    if (i < path.length - 1) level = nodesOf(here);
  }
  return here;
}

function merge(out: Map<string, SelectedField[]>, fields: readonly SelectedField[]): void {
  for (const field of fields) for (const [name, occurrences] of field.below) appendAll(out, name, occurrences);
}

function appendAll(out: Map<string, SelectedField[]>, name: string, occurrences: readonly SelectedField[]): void {
  const seen = out.get(name);
  if (seen === undefined) out.set(name, [...occurrences]);
  else seen.push(...occurrences);
}

function collect(info: GraphQLResolveInfo, set: SelectionSetNode | undefined, type: GraphQLNamedType | undefined, out: Map<string, SelectedField[]>): void {
  for (const selection of set?.selections ?? []) {
    if (!included(selection, info.variableValues)) continue;
    if (selection.kind === Kind.FIELD) {
      const def = isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
      const args = def === undefined ? {} : argumentsOf(def, selection, info.variableValues);
      if (args === null) continue;
      const below = new Map<string, SelectedField[]>();
      collect(info, selection.selectionSet, def === undefined ? undefined : getNamedType(def.type), below);
      appendAll(out, selection.name.value, [streamsHere([selection], info) ? { args, below, streamed: true } : { args, below }]);
    } else {
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : info.fragments[selection.name.value];
      if (fragment === undefined) continue;
      const condition = fragment.typeCondition === undefined ? type : info.schema.getType(fragment.typeCondition.name.value);
      // On an object type, a fragment on another type selects nothing (only reachable through `as`: validation refuses it otherwise).
      if (isObjectType(type) && condition !== undefined && !appliesTo(info, condition, type)) continue;
      collect(info, fragment.selectionSet, condition ?? undefined, out);
    }
  }
}

/** Whether a fragment on `condition` applies to an object of type `type` (graphql-js's doesFragmentConditionMatch). */
function appliesTo(info: GraphQLResolveInfo, condition: GraphQLNamedType, type: GraphQLObjectType): boolean {
  return condition === type || (isAbstractType(condition) && info.schema.isSubType(condition, type));
}

/** `@skip(if:)` / `@include(if:)` as graphql-js evaluates them. */
function included(node: SelectionNode, variables: GraphQLResolveInfo['variableValues']): boolean {
  try {
    if (getDirectiveValues(GraphQLSkipDirective, node, variables)?.['if'] === true) return false;
    return getDirectiveValues(GraphQLIncludeDirective, node, variables)?.['if'] !== false;
  } catch {
    return true; // validation already ran; a directive that does not coerce changes nothing here
  }
}

function argumentsOf(def: GraphQLField<unknown, unknown>, node: FieldNode, variables: GraphQLResolveInfo['variableValues']): Record<string, unknown> | null {
  try {
    return getArgumentValues(def, node, variables);
  } catch {
    return null;
  }
}

/** Starts the load one child field will make, from that field's arguments. */
export type ChildStarter = (args: Readonly<Record<string, unknown>>) => unknown;

/** The starter of a child field by its name, undefined for a field that starts nothing: looked up only for the fields a query selects. */
export type ChildStarters = (field: string) => ChildStarter | undefined;

/**
 * Prefetch by arguments: a root field that fetches a record by ids from its arguments starts,
 * alongside that call, the loads of the selected child fields that need only those ids (a
 * network's lists, an endpoint's AppWANs), instead of one level per round trip. Each starter
 * must make exactly the loader call the child's resolver makes (share the function), so the
 * resolver finds it in the request's loader cache. No-op with batching off (nothing is cached,
 * a prefetch would only double the calls). Failures are left to the fields, which ask again.
 */
export function prefetchChildren(batching: boolean, selection: Selection, starters: ChildStarters): void {
  if (!batching) return;
  // Walk the selected fields (usually a few), not the starters: a one-record query starts nothing.
  for (const [name, occurrences] of selection) {
    const start = starters(name);
    if (start === undefined) continue;
    for (const { args, below } of occurrences) {
      // A connection whose `nodes` are streamed reads its pages itself, one at a time (stream.ts).
      if (below.get('nodes')?.some((n) => n.streamed === true) === true) continue;
      try {
        Promise.resolve(start(args)).catch(() => undefined);
      } catch {
        // A bad argument (first, after, sort): the field's own resolver reports it.
      }
    }
  }
}
