/**
 * Selection lookahead: which fields a query selects below the field being resolved. A root field
 * uses it to start upstream lists its nested fields will need, so they run alongside its own call
 * instead of one level per round trip. `@skip`/`@include` are not evaluated: a skipped field may
 * start a list nobody reads (one wasted call), never change an answer.
 */
import { Kind, type GraphQLResolveInfo, type SelectionSetNode } from 'graphql';

export function nestedFieldNames(info: GraphQLResolveInfo): Set<string> {
  const names = new Set<string>();
  const visitedFragments = new Set<string>();
  const walk = (set: SelectionSetNode | undefined): void => {
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) {
        names.add(selection.name.value);
        walk(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        walk(selection.selectionSet);
      } else if (!visitedFragments.has(selection.name.value)) {
        visitedFragments.add(selection.name.value);
        walk(info.fragments[selection.name.value]?.selectionSet);
      }
    }
  };
  for (const node of info.fieldNodes) walk(node.selectionSet);
  return names;
}
