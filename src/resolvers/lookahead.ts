/**
 * Selection lookahead: which fields a query selects below the field being resolved. A root field
 * uses it to start upstream lists its nested fields will need, so they run alongside its own call
 * instead of one level per round trip. `@skip`/`@include` are not evaluated: a skipped field may
 * start a list nobody reads (one wasted call), never change an answer.
 */
import { getArgumentValues, getNamedType, isInterfaceType, isObjectType, Kind, type FieldNode, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

export function nestedFieldNames(info: GraphQLResolveInfo): Set<string> {
  const names = new Set<string>();
  const visitedFragments = new Set<string>();
  const visit = (field: FieldNode): void => {
    names.add(field.name.value);
    forEachField(info, field.selectionSet, visit, visitedFragments);
  };
  for (const node of info.fieldNodes) forEachField(info, node.selectionSet, visit, visitedFragments);
  return names;
}

/** Calls `visit` for each field of `set`, inline fragments and fragment spreads followed (a named fragment once). */
function forEachField(info: GraphQLResolveInfo, set: SelectionSetNode | undefined, visit: (field: FieldNode) => void, visitedFragments: Set<string>): void {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) {
      visit(selection);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      forEachField(info, selection.selectionSet, visit, visitedFragments);
    } else if (!visitedFragments.has(selection.name.value)) {
      visitedFragments.add(selection.name.value);
      forEachField(info, info.fragments[selection.name.value]?.selectionSet, visit, visitedFragments);
    }
  }
}

/**
 * The arguments of each selection of field `name` directly below the resolving field (inline
 * fragments and fragment spreads followed; aliases give one entry each), as the executor will
 * pass them to that field's resolver: variables applied, defaults filled. A selection whose
 * arguments do not coerce is left out (its own resolver reports the error).
 */
export function childFieldArgs(info: GraphQLResolveInfo, name: string): Array<Record<string, unknown>> {
  const type = getNamedType(info.returnType);
  const def = isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
  if (def === undefined) return [];
  const found: Array<Record<string, unknown>> = [];
  const visitedFragments = new Set<string>();
  const visit = (field: FieldNode): void => {
    if (field.name.value !== name) return;
    try {
      found.push(getArgumentValues(def, field, info.variableValues));
    } catch {
      // Not coercible: the field's own resolver answers with the error.
    }
  };
  for (const node of info.fieldNodes) forEachField(info, node.selectionSet, visit, visitedFragments);
  return found;
}

/** Starts the load one child field will make, from that field's arguments. */
export type ChildStarter = (args: Record<string, unknown>) => unknown;

/**
 * Prefetch by arguments: a root field that fetches a record by ids from its arguments starts,
 * alongside that call, the loads of the selected child fields that need only those ids (a
 * network's lists, an endpoint's AppWANs), instead of one level per round trip. Each starter
 * must make exactly the loader call the child's resolver makes (share the function), so the
 * resolver finds it in the request's loader cache. No-op with batching off (nothing is cached,
 * a prefetch would only double the calls). Failures are left to the fields, which ask again.
 */
export function prefetchChildren(batching: boolean, info: GraphQLResolveInfo, starters: Readonly<Record<string, ChildStarter>>): void {
  if (!batching) return;
  for (const [name, start] of Object.entries(starters)) {
    for (const args of childFieldArgs(info, name)) {
      try {
        Promise.resolve(start(args)).catch(() => undefined);
      } catch {
        // A bad argument (first, after, sort): the field's own resolver reports it.
      }
    }
  }
}
