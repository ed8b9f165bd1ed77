/**
 * Readers for checking GraphQL results: each names the path it failed at, so a failed check
 * says exactly which part of the answer was wrong.
 */
import { isObject, type JsonObject } from '../../src/core/parse';

export class CheckError extends Error {}

export function field(parent: JsonObject, key: string, path: string): JsonObject {
  const v = parent[key];
  if (!isObject(v)) throw new CheckError(`${path}.${key}: expected an object, got ${JSON.stringify(v)}`);
  return v;
}

/** The `nodes` of a connection field, after checking the connection returned the whole list. */
export function allNodes(parent: JsonObject, key: string, path: string): JsonObject[] {
  const conn = field(parent, key, path);
  const nodes = conn['nodes'];
  if (!Array.isArray(nodes) || !nodes.every(isObject)) throw new CheckError(`${path}.${key}.nodes: expected a list of objects`);
  const total = conn['totalCount'];
  if (typeof total === 'number' && total !== nodes.length) {
    throw new CheckError(`${path}.${key}: ${nodes.length} nodes returned but totalCount is ${total} (list not complete)`);
  }
  return nodes;
}

export function idsOf(nodes: JsonObject[], path: string): string[] {
  return nodes.map((n, i) => {
    const id = n['id'];
    if (typeof id !== 'string') throw new CheckError(`${path}[${i}].id: expected a string`);
    return id;
  });
}

export function sameIds(actual: readonly string[], expected: readonly string[], path: string): void {
  const a = [...actual].sort();
  const e = [...expected].sort();
  if (a.length !== e.length || a.some((v, i) => v !== e[i])) {
    const missing = e.filter((x) => !a.includes(x)).slice(0, 3);
    const extra = a.filter((x) => !e.includes(x)).slice(0, 3);
    throw new CheckError(
      `${path}: ${a.length} ids, expected ${e.length}` +
        (missing.length > 0 ? `; missing ${missing.join(', ')}` : '') +
        (extra.length > 0 ? `; unexpected ${extra.join(', ')}` : ''),
    );
  }
}

export function expectEqual(actual: unknown, expected: unknown, path: string): void {
  if (actual !== expected) throw new CheckError(`${path}: got ${JSON.stringify(actual)}, expected ${JSON.stringify(expected)}`);
}

/** Lists needing more than one page cost one extra sequential round trip (the first page tells how many). */
export function pagingTrip(...pages: number[]): number {
  return pages.some((p) => p > 1) ? 1 : 0;
}

export const sum = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0);
