/**
 * The executor's side of the budget. At start-up the fields that do work are wrapped once: every
 * field with its own resolver (they call loaders) and every list field. A wrapped field answers
 * the budget's error instead of running once a budget is crossed, and counts what it produces on
 * the operation's budget: list items as nodes, and an approximate JSON size as bytes. graphql-js
 * (or the compiled executor) then does the rest: the error lands on that field (or its nearest
 * nullable parent) and the data resolved so far stays. A closed request stops its fields too.
 *
 * Fields that only read a property of their parent record are not wrapped: they are most of the
 * fields of a large answer (tens of thousands of `id`/`name` reads in the whole-network graph),
 * and a wrapper on each cost more CPU than the rest of the execution. Their bytes are counted
 * where their parent object was produced, from the selection set (`selectionBytes`).
 */
import {
  defaultFieldResolver,
  getNamedType,
  getNullableType,
  isLeafType,
  isListType,
  isObjectType,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLFieldResolver,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { OperationBudget } from './budget';

/** The budget of a resolver's context, when it has one (contexts built outside the gateway may not). */
export function budgetOf(context: unknown): OperationBudget | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const budget = (context as { budget?: unknown }).budget;
  return budget instanceof OperationBudget ? budget : undefined;
}

/** Bytes assumed for one leaf value in JSON (UUIDs are 38 with quotes, names and numbers less). */
const LEAF_VALUE_BYTES = 24;
/** `"key":` plus a separator. */
const keyBytes = (key: string): number => key.length + 4;

/**
 * Approximate JSON bytes of one object answering `fieldNodes`: its keys, and a typical value
 * size for every leaf selected directly under it (nested objects count themselves when their own
 * field resolves; nested lists when the list field resolves). Fragments are followed. Cached per
 * field node: a document's nodes and fragments do not change while it runs.
 */
const bytesPerObject = new WeakMap<FieldNode, number>();

function selectionBytes(selectionSet: SelectionSetNode, fragments: GraphQLResolveInfo['fragments'], seen: Set<FragmentDefinitionNode>): number {
  let bytes = 2;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      bytes += keyBytes((selection.alias ?? selection.name).value) + (selection.selectionSet ? 2 : LEAF_VALUE_BYTES);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      bytes += selectionBytes(selection.selectionSet, fragments, seen);
    } else {
      const fragment = fragments[selection.name.value];
      if (fragment && !seen.has(fragment)) {
        seen.add(fragment);
        bytes += selectionBytes(fragment.selectionSet, fragments, seen);
      }
    }
  }
  return bytes;
}

function objectBytes(info: GraphQLResolveInfo): number {
  const node = info.fieldNodes[0];
  if (node === undefined) return 2;
  let bytes = bytesPerObject.get(node);
  if (bytes === undefined) {
    bytes = 0;
    for (const fieldNode of info.fieldNodes) if (fieldNode.selectionSet) bytes += selectionBytes(fieldNode.selectionSet, info.fragments, new Set());
    bytesPerObject.set(node, bytes);
  }
  return bytes;
}

/** How a wrapped field's value is counted, decided once per field from its type. */
interface FieldShape {
  key: string;
  isList: boolean;
  /** The named type is an object, interface or union: each value is an object with a selection set. */
  hasSelection: boolean;
}

function account(budget: OperationBudget, shape: FieldShape, info: GraphQLResolveInfo, value: unknown): unknown {
  if (value === null || value === undefined) {
    budget.addBytes(keyBytes(shape.key) + 4);
    return value;
  }
  if (shape.isList && Array.isArray(value)) {
    budget.addNodes(value.length);
    const each = shape.hasSelection ? objectBytes(info) : LEAF_VALUE_BYTES;
    budget.addBytes(keyBytes(shape.key) + 2 + value.length * (each + 1));
  } else {
    budget.addBytes(keyBytes(shape.key) + (shape.hasSelection ? objectBytes(info) : LEAF_VALUE_BYTES));
  }
  return value;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Wraps, in place, every field that has its own resolver or returns a list (call once per schema). */
export function instrumentSchema(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const isList = isListType(getNullableType(field.type));
      if (field.resolve === undefined && !isList) continue;
      const inner: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      const shape: FieldShape = { key: field.name, isList, hasSelection: !isLeafType(getNamedType(field.type)) };
      field.resolve = (source, args, context, info) => {
        const budget = budgetOf(context);
        if (!budget) return inner(source, args, context, info);
        budget.check();
        const value = inner(source, args, context, info);
        if (isPromiseLike(value)) return value.then((v) => account(budget, shape, info, v));
        return account(budget, shape, info, value);
      };
    }
  }
  return schema;
}
