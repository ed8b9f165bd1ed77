/**
 * HAL collection bodies of rest/v1: `{ _embedded: { <plural>: [...] }, page?: {...} }`.
 * Tolerated too (the platform does not pin these down): a missing `_embedded` (empty list),
 * a bare array, an `_embedded` holding one array under another name. A list without `page` is
 * complete.
 */
import { Fields, isObject } from '../../core/parse';
import { ShapeError } from '../../errors/shape-error';
import type { PageMeta, UpstreamPage } from '../paging';

export function parseHalList<R>(body: unknown, embeddedKey: string, parse: (value: unknown) => R): UpstreamPage<R> {
  if (Array.isArray(body)) return { items: body.map(parse), page: null };
  if (!isObject(body)) throw new ShapeError(`${embeddedKey}: expected a HAL collection or an array`);
  const embedded = body['_embedded'];
  let raw: unknown[] = [];
  if (isObject(embedded)) {
    const named = embedded[embeddedKey];
    if (Array.isArray(named)) raw = named;
    else {
      const arrays = Object.values(embedded).filter(Array.isArray);
      if (arrays.length === 1 && arrays[0] !== undefined) raw = arrays[0];
      else if (arrays.length > 1) throw new ShapeError(`${embeddedKey}: _embedded holds several lists and none named ${embeddedKey}`);
    }
  } else if (embedded !== undefined && embedded !== null) {
    throw new ShapeError(`${embeddedKey}: _embedded is not an object`);
  }
  return { items: raw.map(parse), page: parsePageMeta(body['page']) };
}

export function parsePageMeta(value: unknown): PageMeta | null {
  if (!isObject(value)) return null;
  const f = new Fields(value, 'page');
  return { number: f.int('number'), size: f.int('size'), totalElements: f.int('totalElements'), totalPages: f.int('totalPages') };
}

/**
 * A HAL href as a request target: RFC 6570 templates (`{?page,size}`) removed and any query
 * string split off so the client can add its own paging parameters.
 */
export function hrefTarget(href: string): { path: string; query: Record<string, string> } {
  const plain = href.replace(/\{[^}]*\}/g, '');
  const q = plain.indexOf('?');
  if (q < 0) return { path: plain, query: {} };
  const query: Record<string, string> = {};
  new URLSearchParams(plain.slice(q + 1)).forEach((v, k) => {
    query[k] = v;
  });
  return { path: plain.slice(0, q), query };
}
