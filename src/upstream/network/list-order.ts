/**
 * The order of `Network.endpoints`, made total and checkable so that one group-wide list can
 * answer for several per-network lists (list-plan.ts).
 *
 * The contract says neither list's default order, so "the upstream's default" of one list tells
 * nothing about the other's. Both are therefore asked for the same explicit order: the caller's
 * sort keys, or creation order (`createdAt`) when there are none, then `id` to break ties. A
 * partition of the group list is the network's list only if it really is in that order: the
 * gateway checks it (strings by code unit, numbers by value) and otherwise answers from the
 * per-network lists, so an upstream that ignores `sort` on that list, or collates differently,
 * costs calls, never a wrong order.
 */
import type { SortSpec } from './client';
import type { EndpointRecord } from './records';

/** Creation order: what a list without sort keys is asked for. */
const DEFAULT_ORDER: readonly SortSpec[] = [{ field: 'createdAt', direction: 'ASC' }];

/** The caller's keys (or creation order), then `id`: no two records tie. */
export function totalOrder(sort: readonly SortSpec[]): SortSpec[] {
  const keys = sort.length > 0 ? [...sort] : [...DEFAULT_ORDER];
  return keys.some((k) => k.field === 'id') ? keys : [...keys, { field: 'id', direction: 'ASC' }];
}

type SortValue = string | number | null;

/** Sortable endpoint fields as the record holds them (lists.ts `SORTABLE.endpoint`). */
const ENDPOINT_SORT_VALUES: Readonly<Record<string, (e: EndpointRecord) => SortValue>> = {
  id: (e) => e.id,
  name: (e) => e.name,
  status: (e) => e.status,
  createdAt: (e) => e.createdAt,
  updatedAt: (e) => e.updatedAt,
  endpointType: (e) => e.endpointType,
  currentState: (e) => e.currentState,
};

/** -1/0/1, or null when the two cannot be compared without guessing the upstream's collation. */
function compare(a: SortValue, b: SortValue): number | null {
  if (typeof a === 'number' && typeof b === 'number') return Math.sign(a - b);
  if (typeof a === 'string' && typeof b === 'string') return a === b ? 0 : a < b ? -1 : 1;
  return null;
}

/** True when every endpoint follows the next in `order` (as `totalOrder` built it). */
export function endpointsInOrder(items: readonly EndpointRecord[], order: readonly SortSpec[]): boolean {
  const readers = order.map((k) => ({ read: ENDPOINT_SORT_VALUES[k.field], sign: k.direction === 'DESC' ? -1 : 1 }));
  for (let i = 1; i < items.length; i++) {
    const prev = items[i - 1];
    const next = items[i];
    if (prev === undefined || next === undefined) return false;
    let settled = false;
    for (const { read, sign } of readers) {
      if (read === undefined) return false;
      const c = compare(read(prev), read(next));
      if (c === null) return false;
      if (c * sign < 0) {
        settled = true;
        break;
      }
      if (c * sign > 0) return false;
    }
    if (!settled) return false; // a tie on every key, `id` included: not the list asked for
  }
  return true;
}
