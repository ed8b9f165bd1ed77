/**
 * HAL output of rest/v1: absolute `_links` hrefs, `_embedded.<plural>` collections and the
 * `page` object. Paginated lists take `page` (0-based), `size` (default 20, clamped to 200); every
 * list takes `sort=field,ASC|DESC` (repeatable; `asc`/`des`/`desc` accepted too).
 */
import { HttpError } from '../core/types';
import type { JsonObject } from './json';

export const REST_PREFIX = '/rest/v1';
export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 200;

export type Links = Record<string, { href: string }>;

export function links(origin: string, rels: ReadonlyArray<readonly [string, string]>): Links {
  const out: Links = {};
  for (const [rel, path] of rels) out[rel] = { href: `${origin}${REST_PREFIX}${path}` };
  return out;
}

export interface PageObject {
  number: number;
  size: number;
  totalElements: number;
  totalPages: number;
}

export interface PageRequest {
  page: number;
  size: number;
  sort: Array<{ field: string; desc: boolean }>;
}

function intParam(query: URLSearchParams, name: string, fallback: number, min: number): number {
  const raw = query.get(name);
  if (raw === null || raw === '') return fallback;
  if (!/^\d+$/.test(raw)) throw new HttpError(400, `${name} must be a non-negative integer`);
  const value = Number(raw);
  if (value < min) throw new HttpError(400, `${name} must be at least ${min}`);
  return value;
}

export function readPageRequest(query: URLSearchParams, sortable: ReadonlySet<string>): PageRequest {
  const page = intParam(query, 'page', 0, 0);
  const size = Math.min(intParam(query, 'size', DEFAULT_PAGE_SIZE, 1), MAX_PAGE_SIZE);
  return { page, size, sort: readSort(query, sortable) };
}

export function readSort(query: URLSearchParams, sortable: ReadonlySet<string>): PageRequest['sort'] {
  return query.getAll('sort').filter((s) => s !== '').map((raw) => {
    const [field = '', dir = 'ASC', ...rest] = raw.split(',').map((s) => s.trim());
    if (rest.length > 0 || !sortable.has(field)) throw new HttpError(400, `cannot sort by "${raw}"`);
    const upper = dir.toUpperCase();
    if (!['ASC', 'DESC', 'DES'].includes(upper)) throw new HttpError(400, `sort direction must be ASC or DESC, got "${dir}"`);
    return { field, desc: upper !== 'ASC' };
  });
}

function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return -1;
  if (b === null || b === undefined) return 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

export function sortItems<T>(items: T[], sort: PageRequest['sort'], fields: (item: T) => JsonObject): T[] {
  if (sort.length === 0) return items;
  return [...items].sort((x, y) => {
    for (const { field, desc } of sort) {
      const c = compareValues(fields(x)[field], fields(y)[field]);
      if (c !== 0) return desc ? -c : c;
    }
    return 0;
  });
}

export interface CollectionOptions {
  origin: string;
  /** Path of the collection (under /rest/v1) for `self` and page links. */
  path: string;
  plural: string;
  query: URLSearchParams;
  /** Fields `sort` may name (every list honours `sort`). */
  sortable: ReadonlySet<string>;
  /** false: every item in one answer, with a page object covering them all (page/size ignored). */
  paginated: boolean;
}

/**
 * A HAL collection. Items are sorted on their `fields` and only the requested page is rendered
 * (a page of 20 out of thousands of endpoints renders 20 link sets, not thousands).
 */
export function collection<T>(
  items: T[],
  options: CollectionOptions & { fields(item: T): JsonObject; render(item: T): JsonObject },
): JsonObject {
  const self = `${options.origin}${REST_PREFIX}${options.path}`;
  if (!options.paginated) {
    const sorted = sortItems(items, readSort(options.query, options.sortable), options.fields);
    return {
      _embedded: { [options.plural]: sorted.map((item) => options.render(item)) },
      _links: { self: { href: self } },
      page: { number: 0, size: items.length, totalElements: items.length, totalPages: items.length > 0 ? 1 : 0 },
    };
  }
  const req = readPageRequest(options.query, options.sortable);
  const sorted = sortItems(items, req.sort, options.fields);
  const totalPages = Math.ceil(sorted.length / req.size);
  const pageItems = sorted.slice(req.page * req.size, (req.page + 1) * req.size).map((item) => options.render(item));
  const pageHref = (n: number): { href: string } => {
    const q = new URLSearchParams(options.query);
    q.set('page', String(n));
    q.set('size', String(req.size));
    return { href: `${self}?${q.toString()}` };
  };
  const pageLinks: Record<string, { href: string }> = { self: pageHref(req.page) };
  if (totalPages > 0) {
    pageLinks['first'] = pageHref(0);
    pageLinks['last'] = pageHref(totalPages - 1);
  }
  if (req.page > 0 && totalPages > 0) pageLinks['prev'] = pageHref(Math.min(req.page - 1, totalPages - 1));
  if (req.page + 1 < totalPages) pageLinks['next'] = pageHref(req.page + 1);
  const page: PageObject = { number: req.page, size: req.size, totalElements: sorted.length, totalPages };
  return { _embedded: { [options.plural]: pageItems }, _links: pageLinks, page };
}
