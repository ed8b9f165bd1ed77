/**
 * Answers in parts keep the selection's order of keys: the incremental executor writes an object's
 * fields as they resolve (a slow field selected first comes last), the gateway puts them back in
 * the order graphql-js answers them whole.
 */
import { execute as incrementalExecute } from '@graphql-tools/executor';
import { makeExecutableSchema } from '@graphql-tools/schema';
import { execute, parse, type OperationDefinitionNode } from 'graphql';
import { SelectionOrder, selectionOrderOf } from '../../../src/pipeline/selection-order';

const later = <T>(value: T, ms: number): Promise<T> => new Promise((resolve) => setTimeout(() => resolve(value), ms));

const schema = makeExecutableSchema({
  typeDefs: `
    directive @defer(if: Boolean! = true, label: String) on FRAGMENT_SPREAD | INLINE_FRAGMENT
    type Query { network: Network slow: String }
    type Network { a: String b: String c: String items: [Item] }
    type Item { x: String y: String }`,
  resolvers: {
    Query: { network: () => ({}), slow: () => later('s', 30) },
    Network: { a: () => later('a', 20), b: () => later('b', 5), c: () => 'c', items: () => [{}, {}] },
    Item: { x: () => later('x', 10), y: () => 'y' },
  },
});

function operationOf(text: string): { document: ReturnType<typeof parse>; operation: OperationDefinitionNode } {
  const document = parse(text);
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition');
  if (!operation) throw new Error('no operation');
  return { document, operation };
}

describe('SelectionOrder', () => {
  it('gives the executor answer the order graphql-js answers, through aliases, lists and fragments', async () => {
    const text = '{ network { a second: b ...F items { x y } } } fragment F on Network { c }';
    const { document, operation } = operationOf(text);
    const whole = await execute({ schema, document });
    const raw = await incrementalExecute({ schema, document });
    if (!('data' in raw)) throw new Error('expected one result');
    // Without the order, the fast fields come first (the test would pass without the gateway's work otherwise).
    expect(JSON.stringify(raw.data)).not.toBe(JSON.stringify(whole.data));
    expect(JSON.stringify(selectionOrderOf(document, operation).at(raw.data))).toBe(JSON.stringify(whole.data));
  });

  it('orders a deferred part by its path', async () => {
    const { operation } = operationOf('{ network { ... @defer { a c b } } }');
    const order = new SelectionOrder(operation, []);
    expect(JSON.stringify(order.at({ b: 'b', c: 'c', a: 'a' }, ['network']))).toBe('{"a":"a","c":"c","b":"b"}');
    expect(JSON.stringify(order.at([{ y: 1, x: 2 }], ['network', 'items', 0]))).toBe('[{"y":1,"x":2}]');
  });

  it('keeps values that are not objects, and keys it was not told of after the selected ones', () => {
    const { operation } = operationOf('{ network { b a } }');
    const order = new SelectionOrder(operation, []);
    expect(order.at(null)).toBeNull();
    expect(JSON.stringify(order.at({ network: { z: 1, a: 2, b: 3 } }))).toBe('{"network":{"b":3,"a":2,"z":1}}');
  });
});
