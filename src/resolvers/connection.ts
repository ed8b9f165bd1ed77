/**
 * Connection helpers shared by every list field (every list of the schema is a connection):
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
 * A connection over one window. `edges` and `pageInfo` are built on first read: most queries
 * select `nodes` only, and a large graph has ~10,000 connections whose cursors nobody asked for.
 * A class (getters on the prototype), so a connection is one small object, not two closures more.
 */
class WindowConnection<T> implements Connection<T> {
  private builtEdges: Edge<T>[] | undefined;

  constructor(
    readonly nodes: T[],
    readonly totalCount: number,
    private readonly offset: number,
  ) {}

  get edges(): Edge<T>[] {
    this.builtEdges ??= this.nodes.map((node, i) => ({ cursor: encodeCursor(this.offset + i), node }));
    return this.builtEdges;
  }

  get pageInfo(): PageInfo {
    const { nodes, offset, totalCount } = this;
    return {
      hasNextPage: offset + nodes.length < totalCount,
      hasPreviousPage: offset > 0,
      startCursor: nodes.length > 0 ? encodeCursor(offset) : null,
      endCursor: nodes.length > 0 ? encodeCursor(offset + nodes.length - 1) : null,
    };
  }
}

/**
 * Build a connection from the items of one window. `items` starts at `window.offset` (extra
 * items beyond `window.limit` are dropped); `totalCount` is the size of the whole list.
 */
export function buildConnection<T>(items: readonly T[], window: PageWindow, totalCount: number): Connection<T> {
  // The usual case (the whole window fits) shares the array. Nothing writes to `nodes` (the
  // executor only reads it); the type is mutable because the generated resolver types are.
  const nodes = items.length <= window.limit ? (items as T[]) : items.slice(0, window.limit);
  return new WindowConnection(nodes, totalCount, window.offset);
}

/** The window's part of a list in memory (the list itself when the window covers it). */
function windowOf<T>(all: readonly T[], window: PageWindow): readonly T[] {
  return window.offset === 0 && all.length <= window.limit ? all : all.slice(window.offset, window.offset + window.limit);
}

/** A connection over a list already in memory (e.g. an inverted membership list). */
export function connectionFromArray<T>(all: readonly T[], args: ConnectionArgs): Connection<T> {
  const window = pageWindow(args);
  return buildConnection(windowOf(all, window), window, all.length);
}

/** A value now, or later. */
export type MaybePromise<T> = T | Promise<T>;

/** A connection over a whole list loaded in memory; the arguments are checked before `load` runs (a bad `first`/`after` costs no call). */
export function arrayConnection<T>(args: ConnectionArgs, load: () => Promise<readonly T[]>): Promise<Connection<T>> {
  const window = pageWindow(args);
  return load().then((all) => buildConnection(windowOf(all, window), window, all.length));
}
