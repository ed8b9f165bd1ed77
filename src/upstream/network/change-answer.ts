/**
 * Reading what rest/v1 (and core/v2) answered to a change. The platform does not say how a 202
 * carries its business key, nor the body shapes of most changes, so every plausible form in use
 * is read:
 *
 * - the changed entity: the body itself (`{ id, … }`), a wrapper (`{ businessKey, network: {…} }`),
 *   or nothing (then the id comes from `_links.self` or a `Location` header);
 * - bulk results: `{ businessKey, endpoints: [...] }`, `_embedded.endpoints`, or a bare array;
 * - the business key: a body field, the wrapper's, a `_links` relation naming a process, or a
 *   response header (`X-Business-Key`, `Business-Key`, or a `Location` at a process path).
 *
 * Nothing here throws on an odd body: the change has already happened, so an answer we cannot
 * read degrades to "no record in the answer" and the record is read back by id instead.
 */
import { isObject, type JsonObject } from '../../core/parse';
import type { WriteAnswer } from '../writes';
import { ShapeError } from '../../errors/shape-error';

/** What a change answered, as the one sender gives it. */
export type ChangeAnswer = WriteAnswer;

const KEY_FIELDS = ['businessKey', 'business_key', 'processBusinessKey'];
const KEY_HEADERS = ['x-business-key', 'business-key', 'businesskey', 'x-businesskey', 'x-process-business-key'];
/** Paths of process resources whose last segment is a business key. */
const PROCESS_PATH = /\/(workflow-status|network-processes|appWan-processes|processes)\/([^/?#]+)\/?(?:[?#].*)?$/i;

export function businessKeyOf(answer: ChangeAnswer): string | null {
  const body = answer.body;
  if (isObject(body)) {
    for (const field of KEY_FIELDS) {
      const value = body[field];
      if (typeof value === 'string' && value.trim() !== '') return value.trim();
    }
    const fromLink = keyFromLinks(body);
    if (fromLink !== null) return fromLink;
  }
  for (const name of KEY_HEADERS) {
    const value = answer.headers[name];
    if (value !== undefined && value.trim() !== '') return value.trim();
  }
  const location = answer.headers['location'];
  return location === undefined ? null : keyFromHref(location);
}

function keyFromLinks(body: JsonObject): string | null {
  const links = body['_links'];
  if (!isObject(links)) return null;
  for (const [rel, link] of Object.entries(links)) {
    if (!/workflow|process/i.test(rel) || !isObject(link) || typeof link['href'] !== 'string') continue;
    const key = keyFromHref(link['href']);
    if (key !== null) return key;
  }
  return null;
}

function keyFromHref(href: string): string | null {
  const match = PROCESS_PATH.exec(href.trim());
  return match?.[2] !== undefined ? decodeURIComponent(match[2]) : null;
}

/**
 * The one entity an answer holds: the body when it has an `id`, else the body's `wrapper` object
 * (`appWan` in `{ businessKey, appWan }`); null when neither parses.
 */
export function entityOf<R>(answer: ChangeAnswer, wrapper: string, parse: (value: unknown) => R): R | null {
  const body = answer.body;
  if (!isObject(body)) return null;
  const candidate = typeof body['id'] === 'string' ? body : body[wrapper];
  return tryParse(candidate, parse);
}

/** The entities of a bulk answer: `body[plural]`, `body._embedded[plural]`, or a bare array. */
export function entitiesOf<R>(answer: ChangeAnswer, plural: string, parse: (value: unknown) => R): R[] {
  const body = answer.body;
  let list: unknown = body;
  if (isObject(body)) {
    const embedded = body['_embedded'];
    list = body[plural] ?? (isObject(embedded) ? embedded[plural] : undefined);
  }
  if (!Array.isArray(list)) return [];
  return list.flatMap((item) => {
    const parsed = tryParse(item, parse);
    return parsed === null ? [] : [parsed];
  });
}

/** The id of the changed resource when the answer has no parsable entity: `_links.self` or `Location`. */
export function idOf(answer: ChangeAnswer): string | null {
  const body = answer.body;
  if (isObject(body)) {
    const links = body['_links'];
    const self = isObject(links) ? links['self'] : undefined;
    if (isObject(self) && typeof self['href'] === 'string') return lastSegment(self['href']);
  }
  const location = answer.headers['location'];
  return location === undefined || PROCESS_PATH.test(location) ? null : lastSegment(location);
}

function lastSegment(href: string): string | null {
  const path = href.split(/[?#]/, 1)[0] ?? '';
  const segment = path.split('/').filter((s) => s !== '').pop();
  return segment === undefined ? null : decodeURIComponent(segment);
}

function tryParse<R>(value: unknown, parse: (value: unknown) => R): R | null {
  if (!isObject(value)) return null;
  try {
    return parse(value);
  } catch (error) {
    if (error instanceof ShapeError) return null;
    throw error;
  }
}
