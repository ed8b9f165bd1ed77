/**
 * The executor's side of the budget: every field of the schema is wrapped once, at start-up, so
 * that it counts what it produces (list items as nodes, an approximate JSON size as bytes) on the
 * operation's budget, and answers the budget's error instead of running once a budget is crossed.
 * graphql-js then does the rest: the error lands on that field (or its nearest nullable parent)
 * and the data resolved so far stays. A closed request (client gone, shutdown) stops its fields too.
 */
import { defaultFieldResolver, getNullableType, isListType, isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import { OperationBudget } from './budget';

/** The budget of a resolver's context, when it has one (contexts built outside the gateway may not). */
function budgetOf(context: unknown): OperationBudget | undefined {
  if (typeof context !== 'object' || context === null) return undefined;
  const budget = (context as { budget?: unknown }).budget;
  return budget instanceof OperationBudget ? budget : undefined;
}

/** JSON size of a leaf value, its key and punctuation: cheap, close enough for a cap. */
function leafBytes(key: string, value: unknown): number {
  const overhead = key.length + 4;
  if (typeof value === 'string') return overhead + value.length;
  if (value === null || value === undefined) return overhead + 4;
  if (typeof value === 'object') return overhead + 2;
  return overhead + 8;
}

function account(budget: OperationBudget, key: string, isList: boolean, value: unknown): unknown {
  if (isList && Array.isArray(value)) {
    budget.addNodes(value.length);
    budget.addBytes(key.length + 4 + value.length);
  } else {
    budget.addBytes(leafBytes(key, value));
  }
  return value;
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

/** Wraps every object field's resolver in place (call once per schema). */
export function instrumentSchema(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith('__')) continue;
    for (const field of Object.values(type.getFields())) {
      const inner: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      const isList = isListType(getNullableType(field.type));
      const key = field.name;
      field.resolve = (source, args, context, info) => {
        const budget = budgetOf(context);
        if (!budget) return inner(source, args, context, info);
        budget.check();
        const value = inner(source, args, context, info);
        if (isPromiseLike(value)) return Promise.resolve(value).then((v) => account(budget, key, isList, v));
        return account(budget, key, isList, value);
      };
    }
  }
  return schema;
}
