/**
 * Connection helpers shared by every list field (DESIGN.md "Schema conventions"):
 * `first` (default 100, at most 1000) and opaque `after` cursors in, `{ nodes, edges, pageInfo,
 * totalCount }` out. A cursor encodes the item's offset in the whole list, so a resolver can turn
 * the window into upstream `page`/`size` parameters and fetch only what it needs.
 */
import { BadInputError } from '../errors/codes';

export const DEFAULT_FIRST = 100;
export const MAX_FIRST = 1000;

const CURSOR_PREFIX = 'offset:';

export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
}

/** The part of the whole list a request asks for: items `offset` .. `offset + limit - 1`. */
export interface PageWindow {
  offset: number;
  limit: number;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface PageInfo {
  hasNextPage: boolean;
  hasPreviousPage: boolean;
  startCursor: string | null;
  endCursor: string | null;
}

export interface Connection<T> {
  nodes: T[];
  edges: Edge<T>[];
  pageInfo: PageInfo;
  totalCount: number;
}

export function encodeCursor(offset: number): string {
  return Buffer.from(`${CURSOR_PREFIX}${offset}`, 'utf8').toString('base64');
}

/** Offset encoded in a cursor; a cursor this gateway did not hand out → BadInputError on `argName`. */
export function decodeCursor(cursor: string, argName = 'after'): number {
  const text = Buffer.from(cursor, 'base64').toString('utf8');
  const digits = text.startsWith(CURSOR_PREFIX) ? text.slice(CURSOR_PREFIX.length) : '';
  // Re-encoding must give the same text, so only cursors we issued pass (no `offset:007`, no junk).
  if (!/^\d{1,9}$/.test(digits) || encodeCursor(Number(digits)) !== cursor) {
    throw new BadInputError(argName, `${argName} is not a cursor returned by this list`);
  }
  return Number(digits);
}

/** Validate `first`/`after` and return the window they select. */
export function pageWindow(args: ConnectionArgs, names: { first?: string; after?: string } = {}): PageWindow {
  const firstName = names.first ?? 'first';
  const first = args.first ?? DEFAULT_FIRST;
  if (!Number.isInteger(first) || first < 0 || first > MAX_FIRST) {
    throw new BadInputError(firstName, `${firstName} must be between 0 and ${MAX_FIRST}; got ${first}`);
  }
  const offset = args.after == null ? 0 : decodeCursor(args.after, names.after ?? 'after') + 1;
  return { offset, limit: first };
}

/**
 * Build a connection from the items of one window. `items` starts at `window.offset` (extra
 * items beyond `window.limit` are dropped); `totalCount` is the size of the whole list.
 */
export function buildConnection<T>(items: readonly T[], window: PageWindow, totalCount: number): Connection<T> {
  const nodes = items.slice(0, window.limit);
  const edges = nodes.map((node, i) => ({ cursor: encodeCursor(window.offset + i), node }));
  return {
    nodes,
    edges,
    totalCount,
    pageInfo: {
      hasNextPage: window.offset + nodes.length < totalCount,
      hasPreviousPage: window.offset > 0,
      startCursor: edges[0]?.cursor ?? null,
      endCursor: edges[edges.length - 1]?.cursor ?? null,
    },
  };
}

/** A connection over a list already in memory (e.g. an inverted membership list). */
export function connectionFromArray<T>(all: readonly T[], args: ConnectionArgs): Connection<T> {
  const window = pageWindow(args);
  return buildConnection(all.slice(window.offset, window.offset + window.limit), window, all.length);
}

/**
 * Upstream pages (0-based `page`, fixed `size`) that cover a window. Callers fetch them and pass
 * `itemsInWindow(...)` to `buildConnection`.
 */
export function upstreamPagesFor(window: PageWindow, size: number): number[] {
  if (window.limit === 0) return [];
  const firstPage = Math.floor(window.offset / size);
  const lastPage = Math.floor((window.offset + window.limit - 1) / size);
  const pages: number[] = [];
  for (let p = firstPage; p <= lastPage; p += 1) pages.push(p);
  return pages;
}

/** The items of a window, given the concatenated items of `upstreamPagesFor(window, size)`. */
export function itemsInWindow<T>(pageItems: readonly T[], window: PageWindow, size: number): T[] {
  const skip = window.offset - Math.floor(window.offset / size) * size;
  return pageItems.slice(skip, skip + window.limit);
}

export interface SortKey {
  field: string;
  direction?: 'ASC' | 'DESC' | null;
}

/**
 * Validate `sort` against the fields a list supports and render the upstream's Spring-style
 * `sort=field,asc` parameters. An unknown field → BadInputError naming `sort[i].field`.
 */
export function upstreamSort(sort: readonly SortKey[] | null | undefined, allowed: readonly string[], argName = 'sort'): string[] {
  return (sort ?? []).map((key, i) => {
    if (!allowed.includes(key.field)) {
      throw new BadInputError(`${argName}[${i}].field`, `cannot sort by ${JSON.stringify(key.field)}; allowed: ${allowed.join(', ')}`);
    }
    return `${key.field},${key.direction === 'DESC' ? 'desc' : 'asc'}`;
  });
}

/** Sort records in memory with the same keys (for lists the upstream cannot sort). */
export function sortInMemory<T>(items: readonly T[], sort: readonly SortKey[] | null | undefined, valueOf: (item: T, field: string) => unknown): T[] {
  const keys = sort ?? [];
  if (keys.length === 0) return [...items];
  return [...items].sort((a, b) => {
    for (const key of keys) {
      const c = compareValues(valueOf(a, key.field), valueOf(b, key.field));
      if (c !== 0) return key.direction === 'DESC' ? -c : c;
    }
    return 0;
  });
}

function compareValues(a: unknown, b: unknown): number {
  // Nulls last in ascending order.
  if (a == null || b == null) return a == null ? (b == null ? 0 : 1) : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}
