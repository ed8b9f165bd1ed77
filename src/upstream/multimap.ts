/** Appends `value` to the list at `key` (created when absent), in place: grouping thousands of items stays linear. */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}

/** Items of one list grouped by a key, in list order. */
export type Grouping<K, T> = ReadonlyMap<K, readonly T[]>;

/**
 * A grouping by `keyOf`, built once per list and remembered while the list lives: n parents
 * answered from one shared list cost one pass over it, not n (filtering it per parent is n × items).
 */
export function grouper<T, K>(keyOf: (item: T) => K): (items: readonly T[]) => Grouping<K, T> {
  const built = new WeakMap<readonly T[], Map<K, T[]>>();
  return (items) => {
    let groups = built.get(items);
    if (groups === undefined) {
      groups = new Map();
      for (const item of items) appendTo(groups, keyOf(item), item);
      built.set(items, groups);
    }
    return groups;
  };
}
