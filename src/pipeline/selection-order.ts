/**
 * An answer's keys in the order the operation selected them. The incremental executor
 * (`@graphql-tools/executor`) writes an object's fields as their values resolve, so a slow field
 * selected first comes last; GraphQL asks for the selection's order (graphql-jit and graphql-js
 * keep it), and a client comparing answers byte for byte should not see a difference between a
 * part and the same data answered whole. Only answers in parts pass here.
 */
import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { isObject } from '../core/parse';

/** The response keys selected at one place, in order, and what each selects below it. */
interface Keys {
  readonly order: readonly string[];
  readonly below: ReadonlyMap<string, readonly SelectionSetNode[]>;
}

const NO_SETS: readonly SelectionSetNode[] = [];

const made = new WeakMap<OperationDefinitionNode, SelectionOrder>();

/** The order of `operation` of `document`, made once per operation. */
export function selectionOrderOf(document: DocumentNode, operation: OperationDefinitionNode): SelectionOrder {
  let order = made.get(operation);
  if (order === undefined) {
    order = new SelectionOrder(operation, document.definitions.filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION));
    made.set(operation, order);
  }
  return order;
}

/** Orders answers (or parts of them, by their path) of one operation. */
export class SelectionOrder {
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly root: readonly SelectionSetNode[];
  /** Keys per list of selection sets (the lists `below` holds are made once, so they key this). */
  private readonly keys = new WeakMap<readonly SelectionSetNode[], Keys>();

  constructor(operation: OperationDefinitionNode, fragments: readonly FragmentDefinitionNode[]) {
    for (const fragment of fragments) this.fragments.set(fragment.name.value, fragment);
    this.root = [operation.selectionSet];
  }

  /** `value`, found at `path` of the answer, with its objects' keys in selection order. */
  at<T>(value: T, path: readonly (string | number)[] = []): T {
    let sets = this.root;
    for (const segment of path) if (typeof segment === 'string') sets = this.keysOf(sets).below.get(segment) ?? NO_SETS;
    return this.order(value, sets) as T;
  }

  private order(value: unknown, sets: readonly SelectionSetNode[]): unknown {
    if (sets.length === 0) return value;
    if (Array.isArray(value)) return value.map((item: unknown) => this.order(item, sets));
    if (!isObject(value)) return value;
    const object = value;
    const { order, below } = this.keysOf(sets);
    const out: Record<string, unknown> = {};
    for (const key of order) if (key in object) out[key] = this.order(object[key], below.get(key) ?? NO_SETS);
    // Anything not selected (none is expected) keeps its place after the selected keys.
    for (const key of Object.keys(object)) if (!(key in out)) out[key] = object[key];
    return out;
  }

  private keysOf(sets: readonly SelectionSetNode[]): Keys {
    let keys = this.keys.get(sets);
    if (keys === undefined) {
      const order: string[] = [];
      const below = new Map<string, SelectionSetNode[]>();
      for (const set of sets) this.collect(set, order, below);
      keys = { order, below };
      this.keys.set(sets, keys);
    }
    return keys;
  }

  /** Fields of `set`, through its fragments (a valid document has no cycle of spreads). */
  private collect(set: SelectionSetNode, order: string[], below: Map<string, SelectionSetNode[]>): void {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        let sets = below.get(key);
        if (sets === undefined) {
          sets = [];
          below.set(key, sets);
          order.push(key);
        }
        if (selection.selectionSet) sets.push(selection.selectionSet);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        this.collect(selection.selectionSet, order, below);
      } else {
        const fragment = this.fragments.get(selection.name.value);
        if (fragment) this.collect(fragment.selectionSet, order, below);
      }
    }
  }
}
