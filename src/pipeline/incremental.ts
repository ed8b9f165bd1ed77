/**
 * Whether an operation delivers its answer in parts (`@defer`, `@stream`): decided once per
 * prepared operation (`incrementalUseOf`, kept on it), then per run by its variables
 * (`isIncremental`, for an `if: $variable`). An operation that defers nothing is never looked at
 * again: it stays on graphql-jit at no cost.
 */
import { Kind, visit, type DirectiveNode, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';

/** The directives of incremental delivery. */
const INCREMENTAL_DIRECTIVES: ReadonlySet<string> = new Set(['defer', 'stream']);

/**
 * How an operation uses incremental delivery: `never` (no active directive: every `if` is the
 * literal false), `always` (one is active whatever the variables), or the variables whose value
 * decides (`if: $name`), with the default their definition gives.
 */
export type IncrementalUse = { readonly kind: 'never' } | { readonly kind: 'always' } | { readonly kind: 'variables'; readonly variables: ReadonlyArray<{ readonly name: string; readonly fallback: boolean | undefined }> };

const NEVER: IncrementalUse = { kind: 'never' };
const ALWAYS: IncrementalUse = { kind: 'always' };

/** The `@defer`/`@stream` directives of a selection set and of the fragments it spreads (each fragment once). */
function directivesOf(selectionSet: SelectionSetNode, fragments: ReadonlyMap<string, FragmentDefinitionNode>): DirectiveNode[] {
  const found: DirectiveNode[] = [];
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode): void => {
    visit(set, {
      Directive(node) {
        if (INCREMENTAL_DIRECTIVES.has(node.name.value)) found.push(node);
      },
      FragmentSpread(node) {
        const name = node.name.value;
        const fragment = fragments.get(name);
        if (seen.has(name) || !fragment) return;
        seen.add(name);
        walk(fragment.selectionSet);
      },
    });
  };
  walk(selectionSet);
  return found;
}

/** The variable's default in the operation, when it is a boolean literal. */
function defaultOf(operation: OperationDefinitionNode, name: string): boolean | undefined {
  const definition = operation.variableDefinitions?.find((d) => d.variable.name.value === name);
  const value = definition?.defaultValue;
  return value?.kind === Kind.BOOLEAN ? value.value : undefined;
}

/** How `operation` of `document` uses `@defer`/`@stream` (once per prepared operation). */
export function incrementalUseOf(document: DocumentNode, operation: OperationDefinitionNode): IncrementalUse {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  const variables: Array<{ name: string; fallback: boolean | undefined }> = [];
  for (const directive of directivesOf(operation.selectionSet, fragments)) {
    const condition = directive.arguments?.find((argument) => argument.name.value === 'if')?.value;
    // No `if`: its default, true.
    if (condition === undefined || (condition.kind === Kind.BOOLEAN && condition.value)) return ALWAYS;
    if (condition.kind === Kind.VARIABLE) variables.push({ name: condition.name.value, fallback: defaultOf(operation, condition.name.value) });
  }
  return variables.length > 0 ? { kind: 'variables', variables } : NEVER;
}

/**
 * Whether a run with these raw variables defers or streams something. A variable that is not the
 * boolean false counts as true: if it is not a boolean at all, execution refuses it (its variables
 * do not coerce) wherever it runs.
 */
export function isIncremental(use: IncrementalUse, variables: Readonly<Record<string, unknown>> | null | undefined): boolean {
  if (use.kind !== 'variables') return use.kind === 'always';
  return use.variables.some(({ name, fallback }) => {
    const value = variables?.[name] ?? fallback;
    return value !== false;
  });
}

/**
 * A `@stream` of `document` whose `initialCount` is below 0 (a literal, or a variable of the run),
 * or null. The executor would fail the field with an internal error; the client is told instead.
 */
export function negativeInitialCount(document: DocumentNode, variables: Readonly<Record<string, unknown>> | null | undefined): number | null {
  let found: number | null = null;
  visit(document, {
    Directive(node) {
      if (node.name.value !== 'stream') return;
      const argument = node.arguments?.find((a) => a.name.value === 'initialCount');
      if (!argument) return;
      const value = argument.value.kind === Kind.INT ? Number(argument.value.value) : argument.value.kind === Kind.VARIABLE ? variables?.[argument.value.name.value] : undefined;
      if (typeof value === 'number' && value < 0) found = value;
    },
  });
  return found;
}
