/** Appends `value` to the list at `key` (created when absent), in place: grouping thousands of items stays linear. */
export function appendTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list === undefined) map.set(key, [value]);
  else list.push(value);
}
