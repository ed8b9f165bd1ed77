/**
 * auth/v1 list bodies. The service answers bare JSON arrays, but also has a Spring page object
 * (`content`, `totalElements`, `totalPages`, `size`, `number`, …) without saying which operations
 * use it: both forms are accepted, and a page object is followed through its `totalPages`.
 */
import { Fields, isObject } from '../../core/parse';
import { ShapeError } from '../../errors/shape-error';
import type { UpstreamPage } from '../paging';

export function parseListBody<T>(body: unknown, parseItem: (value: unknown) => T, what: string): UpstreamPage<T> {
  if (Array.isArray(body)) return { items: body.map(parseItem), page: null };
  if (isObject(body) && Array.isArray(body['content'])) {
    const f = new Fields(body, what);
    return {
      items: body['content'].map(parseItem),
      page: {
        number: f.int('number'),
        size: f.int('size'),
        totalElements: f.int('totalElements'),
        totalPages: f.int('totalPages'),
      },
    };
  }
  throw new ShapeError(`${what}: expected an array or a page object with content`);
}
