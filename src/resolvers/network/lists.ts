/**
 * Connection arguments → upstream windows and sort keys, and upstream results → connections.
 * Validation happens here, before any loader call: a bad `first`, `after` or `sort` costs no
 * upstream call.
 */
import { BadInputError } from '../../errors/codes';
import type { RelationParent, SortSpec } from '../../upstream/network/client';
import type { PagedResult, PageWindow } from '../../upstream/paging';
import { ShapeError } from '../../upstream/parse';
import { buildConnection, pageWindow, type Connection, type ConnectionArgs } from '../connection';

export interface SortArg {
  field: string;
  direction?: 'ASC' | 'DESC' | null;
}

/** Fields every paginated rest/v1 list sorts by; lists add their own. */
const COMMON_SORT = ['id', 'name', 'status', 'createdAt', 'updatedAt'] as const;
export const SORTABLE = {
  network: [...COMMON_SORT],
  endpoint: [...COMMON_SORT, 'endpointType', 'currentState'],
  service: [...COMMON_SORT, 'serviceClass'],
  appWan: [...COMMON_SORT],
} as const;

/** `sort` → upstream `sort=field,DIRECTION` keys; an unknown field is BAD_USER_INPUT on `sort[i].field`. */
export function sortSpecs(sort: readonly SortArg[] | null | undefined, allowed: readonly string[]): SortSpec[] {
  return (sort ?? []).map((key, i) => {
    if (!allowed.includes(key.field)) {
      throw new BadInputError(`sort[${i}].field`, `cannot sort by ${JSON.stringify(key.field)}; allowed: ${allowed.join(', ')}`);
    }
    return { field: key.field, direction: key.direction === 'DESC' ? 'DESC' : 'ASC' };
  });
}

/** Validates the arguments, then fetches exactly the window they select. */
export async function listConnection<T>(args: ConnectionArgs, fetch: (window: PageWindow) => Promise<PagedResult<T>>): Promise<Connection<T>> {
  const window = pageWindow(args);
  const result = await fetch({ offset: window.offset, count: window.limit });
  return buildConnection(result.items, window, result.totalCount);
}

/** A record as the parent of a member list; its network id is required to build paths. */
export function relationParent(record: { id: string; networkId: string | null; links: Readonly<Record<string, string>> }): RelationParent {
  if (record.networkId === null) throw new ShapeError(`record ${record.id}: networkId missing`);
  return { id: record.id, networkId: record.networkId, links: record.links };
}

export { arrayConnection } from '../connection';
