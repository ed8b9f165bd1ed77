/**
 * Executes a prepared query or mutation, on graphql-jit (`NETGRAPH_EXECUTOR=jit`, the default) or
 * graphql-js. Each operation is compiled on its first run into its prepared slot (so the prepared
 * cache bounds compiled code too); what graphql-jit handles badly runs on graphql-js: a variable
 * of a recursive input type, an operation that expands to more fields than it compiles quickly,
 * variables that do not coerce (graphql-js words those errors), and a query with a null in a
 * non-null position (graphql-js's exact errors, at no upstream cost: the reads are cached in the
 * request's loaders). Results are made identical to graphql-js's (executor-errors.ts).
 */
import {
  execute,
  getNamedType,
  isInputObjectType,
  isLeafType,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLInputObjectType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type TypeNode,
} from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import { budgetOf } from '../limits/instrument';
import type { PreparedOperation } from './prepare';
import { createSerializeErrorMemory, lineStartsOf, toGraphQLJsErrors, type SerializeErrorMemory } from './executor-errors';

/** What an operation was compiled into (its prepared slot): null when graphql-jit does not run it. */
interface Compiled {
  query: CompiledQuery | null;
  /** Offsets of the document's lines, to give errors graphql-js's locations. */
  lineStarts: readonly number[];
}

export interface ExecutorStats {
  /** Operations run by compiled queries. */
  compiled: number;
  /** Operations run by graphql-js (the graphql-js executor, no compilation, variable errors). */
  fallback: number;
}

export type ExecutorKind = 'jit' | 'graphql-js';

export interface Executor {
  /** Runs a prepared query or mutation with this context and these (raw) variables. */
  execute(op: PreparedOperation, contextValue: unknown, variableValues: Readonly<Record<string, unknown>> | undefined): Promise<ExecutionResult>;
  stats(): ExecutorStats;
}

function isCompiled(slot: unknown): slot is Compiled {
  return typeof slot === 'object' && slot !== null && 'lineStarts' in slot;
}

/**
 * Input object types from which a cycle of input types can be reached (e.g. a resource type
 * definition whose `children` are resource type definitions). graphql-jit 0.8.9 never finishes
 * compiling the coercion of a variable of such a type (it unrolls the type without end), and
 * compilation cannot be interrupted: operations with such variables run on graphql-js.
 */
export function recursiveInputTypes(schema: GraphQLSchema): Set<string> {
  const state = new Map<string, 'visiting' | 'safe' | 'recursive'>();
  const visit = (type: GraphQLInputObjectType): boolean => {
    const known = state.get(type.name);
    if (known === 'visiting' || known === 'recursive') return true;
    if (known === 'safe') return false;
    state.set(type.name, 'visiting');
    let recursive = false;
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      if (isInputObjectType(named) && visit(named)) recursive = true;
    }
    state.set(type.name, recursive ? 'recursive' : 'safe');
    return recursive;
  };
  for (const type of Object.values(schema.getTypeMap())) if (isInputObjectType(type)) visit(type);
  return new Set([...state].filter(([, s]) => s === 'recursive').map(([name]) => name));
}

function typeName(node: TypeNode): string {
  return node.kind === Kind.NAMED_TYPE ? node.name.value : typeName(node.type);
}

function hasVariableOf(operation: OperationDefinitionNode, types: ReadonlySet<string>): boolean {
  return (operation.variableDefinitions ?? []).some((v) => types.has(typeName(v.type)));
}

/**
 * Fields graphql-jit generates code for: the operation's selections with every fragment spread
 * expanded where it is used. graphql-js merges a fragment spread twice into one selection set;
 * graphql-jit's compiler walks it each time, so twelve fragments that each spread the next twice
 * (a 300-byte document the cost limits admit) take it half a second, and every further level
 * doubles that while the event loop is blocked. Operations over MAX_EXPANDED_FIELDS run on graphql-js.
 */
export const MAX_EXPANDED_FIELDS = 5000;

export function expandedFieldCount(document: DocumentNode, operation: OperationDefinitionNode): number {
  const fragments = new Map<string, SelectionSetNode>();
  for (const definition of document.definitions) if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition.selectionSet);
  const sizes = new Map<string, number>();
  const sizeOf = (set: SelectionSetNode | undefined, seen: ReadonlySet<string>): number => {
    let total = 0;
    for (const selection of set?.selections ?? []) {
      if (selection.kind === Kind.FIELD) total += 1 + sizeOf(selection.selectionSet, seen);
      else if (selection.kind === Kind.INLINE_FRAGMENT) total += sizeOf(selection.selectionSet, seen);
      else {
        const name = selection.name.value;
        // A cycle of fragments does not validate; counted once if it ever got here.
        if (seen.has(name)) continue;
        let size = sizes.get(name);
        if (size === undefined) {
          size = sizeOf(fragments.get(name), new Set([...seen, name]));
          sizes.set(name, size);
        }
        total += size;
      }
      // Far past the cap already: stop adding (the sums would grow without bound).
      if (total > MAX_EXPANDED_FIELDS) return total;
    }
    return total;
  };
  return sizeOf(operation.selectionSet, new Set());
}

/** graphql-js's and graphql-jit's wording of a null in a non-null position. */
function isNonNullViolation(error: { message: string }): boolean {
  return error.message.startsWith('Cannot return null for non-nullable field');
}

function compile(schema: GraphQLSchema, document: DocumentNode, operationName: string | null, memory: SerializeErrorMemory): CompiledQuery | null {
  try {
    const compiled = compileQuery(schema, document, operationName ?? undefined, { customSerializers: memory.serializers });
    return isCompiledQuery(compiled) ? compiled : null;
  } catch {
    // Whatever graphql-jit cannot compile, graphql-js runs.
    return null;
  }
}

export function createExecutor(schema: GraphQLSchema, kind: ExecutorKind): Executor {
  const memory = createSerializeErrorMemory(Object.values(schema.getTypeMap()).filter(isLeafType));
  const counts = { compiled: 0, fallback: 0 };
  const uncompilable = recursiveInputTypes(schema);
  const graphqlJs = async (op: PreparedOperation, contextValue: unknown, variableValues: Readonly<Record<string, unknown>> | undefined): Promise<ExecutionResult> => {
    counts.fallback += 1;
    return execute({ schema, document: op.document, operationName: op.name, contextValue, variableValues });
  };

  function compiledOf(op: PreparedOperation): Compiled {
    if (isCompiled(op.compiled)) return op.compiled;
    const compilable = !hasVariableOf(op.operation, uncompilable) && expandedFieldCount(op.document, op.operation) <= MAX_EXPANDED_FIELDS;
    const compiled: Compiled = { query: compilable ? compile(schema, op.document, op.name, memory) : null, lineStarts: lineStartsOf(op.document) };
    op.compiled = compiled;
    return compiled;
  }

  return {
    async execute(op, contextValue, variableValues) {
      if (kind === 'graphql-js') return graphqlJs(op, contextValue, variableValues);
      const compiled = compiledOf(op);
      if (compiled.query === null) return graphqlJs(op, contextValue, variableValues);
      // A query's answer may be discarded and the query run again on graphql-js (below): its budget
      // then counts the answer kept, not both.
      const budget = op.type === 'query' ? budgetOf(contextValue) : undefined;
      const produced = budget?.producedMark();
      const result = await compiled.query.query(undefined, contextValue, variableValues);
      // No data: the variables did not coerce, before any resolver ran. graphql-js words those errors.
      if (result.data === undefined) return graphqlJs(op, contextValue, variableValues);
      if (op.type === 'query' && result.errors?.some(isNonNullViolation)) {
        // graphql-jit completes every item of a list that a non-null violation nulls, graphql-js
        // stops at the first: their errors differ there. A query is read-only and its reads are
        // cached in this request's loaders, so graphql-js runs it again at no upstream cost.
        // (A mutation is never run twice.)
        if (budget && produced) budget.rewindProduced(produced);
        return graphqlJs(op, contextValue, variableValues);
      }
      counts.compiled += 1;
      if (!result.errors || result.errors.length === 0) return { data: result.data };
      return { data: result.data, errors: toGraphQLJsErrors(result.errors, op.document, compiled.lineStarts, memory) };
    },
    stats: () => ({ ...counts }),
  };
}
