/** JSON value types and checked readers for request bodies (a failed check is a 400). */
import { HttpError } from '../core/types';

export type JsonObject = { [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function requireObject(value: unknown, what = 'request body'): JsonObject {
  if (!isObject(value)) throw new HttpError(400, `${what} must be a JSON object`);
  return value;
}

/** `ids` (array of id strings) from a membership change body. */
export function readIds(body: unknown): string[] {
  const ids = requireObject(body)['ids'];
  if (!Array.isArray(ids) || ids.length === 0 || !ids.every((x): x is string => typeof x === 'string' && x !== '')) {
    throw new HttpError(400, 'ids must be a non-empty array of id strings');
  }
  return ids;
}
