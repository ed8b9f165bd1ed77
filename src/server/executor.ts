/**
 * The compiled executor (`NETGRAPH_EXECUTOR=jit`): queries and mutations over HTTP run through
 * graphql-jit, plugged into Apollo Server 5 as a gateway (`load()` hands Apollo the schema and an
 * executor; Apollo still parses, validates and runs every plugin hook except `willResolveField`,
 * which no plugin of ours uses). Each (document, operation) is compiled once and kept in a bounded
 * LRU; a document that does not compile (or has a variable of a recursive input type, or expands
 * to more fields than graphql-jit compiles quickly), an unresolved operation and subscriptions run on
 * graphql-js `execute`, as do requests whose variables do not coerce (no resolver has run then, so
 * graphql-js can give its exact errors). The results are made identical to graphql-js's
 * (executor-errors.ts); the schema's instrumentation (src/limits/instrument.ts) wraps the resolvers
 * both executors call.
 */
import type { ApolloServerOptionsWithGateway, BaseContext } from '@apollo/server';
import {
  execute,
  getNamedType,
  isInputObjectType,
  isLeafType,
  Kind,
  printSchema,
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
import { createSerializeErrorMemory, lineStartsOf, toGraphQLJsErrors, type SerializeErrorMemory } from './executor-errors';

type GatewayInterface = ApolloServerOptionsWithGateway<BaseContext>['gateway'];
type GatewayExecutor = NonNullable<Awaited<ReturnType<GatewayInterface['load']>>['executor']>;
type SchemaListener = Parameters<GatewayInterface['onSchemaLoadOrUpdate']>[0];

/** Compiled (document, operation) pairs kept at once: documents come from callers, so the cache is bounded. */
export const DEFAULT_MAX_COMPILED = 1000;
/**
 * Document text, in characters, that a cache of documents (compiled queries here, known queries in
 * known-queries.ts) keeps at once: what a parsed document and its compiled code weigh grows with
 * its text, and callers choose the text (up to MAX_DOCUMENT_BYTES each), so a count alone does not bound them.
 */
export const MAX_CACHED_DOCUMENT_TEXT = 2 * 1024 * 1024;

/** What an entry weighs, and the most all entries may weigh together. */
export interface LruWeight<V> {
  of(value: V): number;
  max: number;
}

/**
 * A map that forgets its least recently used entries beyond `max` entries, or beyond `weight.max`
 * in total weight (the newest entry is kept whatever it weighs).
 */
export class LruMap<K, V> {
  private readonly entries = new Map<K, V>();
  /** The most recently used key: a hit on it needs no reordering (a delete and a set churn the Map's table). */
  private newest: K | undefined;
  private weighs = 0;
  constructor(
    private readonly max: number,
    private readonly weight?: LruWeight<V>,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  /** The entries' total weight (0 without a weight). */
  get totalWeight(): number {
    return this.weighs;
  }

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined && key !== this.newest) {
      this.entries.delete(key);
      this.entries.set(key, value);
      this.newest = key;
    }
    return value;
  }

  set(key: K, value: V): void {
    const old = this.entries.get(key);
    if (old !== undefined) {
      this.entries.delete(key);
      this.weighs -= this.weight?.of(old) ?? 0;
    }
    this.entries.set(key, value);
    this.weighs += this.weight?.of(value) ?? 0;
    this.newest = key;
    while (this.entries.size > 1 && (this.entries.size > this.max || (this.weight !== undefined && this.weighs > this.weight.max))) {
      const oldest = this.entries.entries().next();
      if (oldest.done) break;
      this.entries.delete(oldest.value[0]);
      this.weighs -= this.weight?.of(oldest.value[1]) ?? 0;
    }
  }

  clear(): void {
    this.entries.clear();
    this.newest = undefined;
    this.weighs = 0;
  }
}

/** A document's text length, in characters (0 when parsed without locations). */
export function documentTextLength(document: DocumentNode): number {
  return document.loc?.source.body.length ?? 0;
}

/** One cache entry: the compiled query, or null when graphql-jit could not compile the operation. */
interface Compiled {
  query: CompiledQuery | null;
  /** Offsets of the document's lines, to give errors graphql-js's locations. */
  lineStarts: readonly number[];
  /** The document's text length: the entry's weight in the cache. */
  textLength: number;
}

export interface ExecutorStats {
  /** Operations run by compiled queries. */
  compiled: number;
  /** Operations run by graphql-js (no compilation, an unresolved operation, subscriptions, variable errors). */
  fallback: number;
  /** Entries in the compiled-query cache. */
  cached: number;
}

export interface JitGateway {
  /** Pass as Apollo Server's `gateway` option. */
  gateway: GatewayInterface;
  /** Runs a resolved query or mutation as the gateway's executor does (known queries use it). */
  run: RunOperation;
  stats(): ExecutorStats;
}

export interface JitGatewayOptions {
  /** @default DEFAULT_MAX_COMPILED */
  maxCompiled?: number;
}

/** One resolved operation to execute: what Apollo's gateway executor and known queries (known-queries.ts) both hand over. */
export interface OperationRun {
  document: DocumentNode;
  operation: OperationDefinitionNode;
  /** The resolved operation's name (null when it is anonymous). */
  operationName: string | null;
  /** Apollo's hash of the document's text: with the operation name, the compiled query's cache key. */
  queryHash: string;
  contextValue: unknown;
  variableValues: Record<string, unknown> | undefined;
}

export type RunOperation = (run: OperationRun) => Promise<ExecutionResult> | ExecutionResult;

/** graphql-js `execute`, as Apollo runs it without a gateway. */
function executeWithGraphQLJs(schema: GraphQLSchema, op: Pick<OperationRun, 'document' | 'operationName' | 'contextValue' | 'variableValues'>): Promise<ExecutionResult> | ExecutionResult {
  return execute({ schema, document: op.document, contextValue: op.contextValue, variableValues: op.variableValues, operationName: op.operationName });
}

/** The graphql-js executor (`NETGRAPH_EXECUTOR=graphql-js`) for known queries. */
export function graphqlJsRunner(schema: GraphQLSchema): RunOperation {
  return (op) => executeWithGraphQLJs(schema, op);
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

/** An Apollo Server gateway that serves `schema` and executes through graphql-jit. */
export function createJitGateway(schema: GraphQLSchema, options: JitGatewayOptions = {}): JitGateway {
  const cache = new LruMap<string, Compiled>(options.maxCompiled ?? DEFAULT_MAX_COMPILED, { of: (entry) => entry.textLength, max: MAX_CACHED_DOCUMENT_TEXT });
  const listeners = new Set<SchemaListener>();
  const memory = createSerializeErrorMemory(Object.values(schema.getTypeMap()).filter(isLeafType));
  const counts = { compiled: 0, fallback: 0 };
  const uncompilable = recursiveInputTypes(schema);

  /** A resolved query or mutation, compiled on first sight (graphql-js for what does not compile). */
  const run: RunOperation = async (op) => {
    const { operation, document } = op;
    const key = `${op.operationName ?? ''}\n${op.queryHash}`;
    let entry = cache.get(key);
    if (entry === undefined) {
      const compilable = !hasVariableOf(operation, uncompilable) && expandedFieldCount(document, operation) <= MAX_EXPANDED_FIELDS;
      const query = compilable ? compile(schema, document, op.operationName, memory) : null;
      entry = { query, lineStarts: lineStartsOf(document), textLength: documentTextLength(document) };
      cache.set(key, entry);
    }
    if (entry.query === null) {
      counts.fallback += 1;
      return executeWithGraphQLJs(schema, op);
    }
    // A query's answer may be discarded and the query run again on graphql-js (below): its budget
    // then counts the answer kept, not both.
    const budget = operation.operation === 'query' ? budgetOf(op.contextValue) : undefined;
    const produced = budget?.producedMark();
    const result = await entry.query.query(undefined, op.contextValue, op.variableValues);
    // No data: the variables did not coerce, before any resolver ran. graphql-js words those errors
    // (and Apollo recognizes them as BAD_USER_INPUT by their variable nodes).
    if (result.data === undefined) {
      counts.fallback += 1;
      return executeWithGraphQLJs(schema, op);
    }
    if (operation.operation === 'query' && result.errors?.some(isNonNullViolation)) {
      // graphql-jit completes every item of a list that a non-null violation nulls, graphql-js
      // stops at the first: their errors differ there. A query is read-only and its upstream
      // reads are cached in this request's loaders, so running it again on graphql-js costs CPU,
      // not calls, and the answer is graphql-js's exactly. (A mutation is never run twice.)
      counts.fallback += 1;
      if (budget && produced) budget.rewindProduced(produced);
      return executeWithGraphQLJs(schema, op);
    }
    counts.compiled += 1;
    if (!result.errors || result.errors.length === 0) return { data: result.data };
    return { data: result.data, errors: toGraphQLJsErrors(result.errors, document, entry.lineStarts, memory) };
  };

  const executor: GatewayExecutor = async (request) => {
    const { operation, document } = request;
    const contextValue = request.context;
    const variableValues = request.request.variables;
    if (!operation || operation.operation === 'subscription') {
      counts.fallback += 1;
      // The name as the client sent it: graphql-js words why it resolves to no operation.
      return executeWithGraphQLJs(schema, { document, operationName: request.request.operationName ?? null, contextValue, variableValues });
    }
    // Apollo's query hash is the document text's SHA-256; the operation name picks one of its operations.
    return run({ document, operation, operationName: request.operationName, queryHash: request.queryHash, contextValue, variableValues });
  };

  const gateway: GatewayInterface = {
    onSchemaLoadOrUpdate(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    async load() {
      const coreSupergraphSdl = printSchema(schema);
      for (const listener of listeners) listener({ apiSchema: schema, coreSupergraphSdl });
      return { executor };
    },
    async stop() {
      listeners.clear();
      cache.clear();
    },
  };
  return { gateway, run, stats: () => ({ ...counts, cached: cache.size }) };
}
