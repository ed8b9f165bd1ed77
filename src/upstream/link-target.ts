/**
 * Where an upstream request may go. Every path the HTTP layer sends passes here: a path below the
 * service's base (built by a client from ids, or a relative link from an upstream answer) or an
 * absolute URL (a HAL href). What an upstream answer links to is not trusted, and ids in built
 * paths come from answers too, so every target is normalized and must stay under the service's
 * base path on the configured origin:
 *
 * - dot segments are resolved (`%2E` is a dot, RFC 3986 unreserved) and empty segments dropped
 *   (`a//b` is `a/b`); a `..` above the root is refused;
 * - an encoded slash or backslash (`%2F`, `%5C`), an encoded percent sign (`%25`, decoded twice by
 *   some proxies into either), an encoded control character or a backslash is refused: a server or
 *   proxy behind the configured origin may read them as path separators after our check;
 * - an absolute link on another origin, or outside the base path, is rebased onto the configured
 *   base when its path holds the service's own path (`/rest/v1/…`: production links name the
 *   platform's public host, which may not be the address the gateway reaches it at); else refused.
 *
 * A refused target is never sent; the HTTP layer answers it as UPSTREAM_BAD_RESPONSE.
 */

/** Where a service lives: the configured origin and the path every one of its requests stays under. */
export interface ServiceBase {
  origin: string;
  /** Path prefix without a trailing slash (`''` for a service at the origin's root). */
  basePath: string;
  /** The service's own path (`/rest/v1`) that a link on the public host holds; null: links are never rebased. */
  servicePath: string | null;
}

export type LinkTarget =
  | { ok: true; pathname: string; query: string }
  | { ok: false; reason: string; /** The offending path, without its query string. */ path: string };

const ABSOLUTE = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;
/** A relative path without anything to normalize: no dot, percent sign, backslash or double slash. */
const NEEDS_NORMALIZING = /[.%\\]|\/\//;
const REFUSED_ENCODINGS = /%(?:2f|5c|25|[01][\da-f]|7f)/i;

/** The target of `ref` (a path below the service's base, or an absolute URL) for a service at `base`. */
export function linkTarget(ref: string, base: ServiceBase): LinkTarget {
  if (ABSOLUTE.test(ref)) return absoluteTarget(ref, base);
  const hash = ref.indexOf('#');
  const plain = hash < 0 ? ref : ref.slice(0, hash);
  const q = plain.indexOf('?');
  const path = q < 0 ? plain : plain.slice(0, q);
  const query = q < 0 ? '' : plain.slice(q + 1);
  const joined = `${base.basePath}${path.startsWith('/') ? '' : '/'}${path}`;
  // Most targets are built paths of ids: one test, nothing to resolve.
  if (!NEEDS_NORMALIZING.test(path)) return { ok: true, pathname: joined, query };
  const normalized = normalizePath(joined);
  if (!normalized.ok) return normalized;
  if (!isUnder(normalized.path, base.basePath)) return outside(normalized.path, base);
  return { ok: true, pathname: normalized.path, query };
}

function absoluteTarget(ref: string, base: ServiceBase): LinkTarget {
  let url: URL;
  try {
    url = new URL(ref, base.origin);
  } catch {
    return { ok: false, reason: 'sent a link that is not a URL', path: ref.split(/[?#]/, 1)[0] ?? '' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { ok: false, reason: `sent a link that is not http(s) (${url.protocol})`, path: url.pathname };
  const normalized = normalizePath(url.pathname);
  if (!normalized.ok) return normalized;
  const query = url.search.slice(1);
  if (url.origin === base.origin && isUnder(normalized.path, base.basePath)) return { ok: true, pathname: normalized.path, query };
  const rebased = rebase(normalized.path, base);
  if (rebased !== null) return { ok: true, pathname: rebased, query };
  return url.origin === base.origin ? outside(normalized.path, base) : { ok: false, reason: 'linked to another origin', path: url.pathname };
}

/** A path holding the service's own path, moved under the configured base; null without it. */
function rebase(path: string, base: ServiceBase): string | null {
  if (base.servicePath === null) return null;
  const at = `${path}/`.indexOf(`${base.servicePath}/`);
  return at < 0 ? null : `${base.basePath}${path.slice(at + base.servicePath.length)}`;
}

function isUnder(path: string, basePath: string): boolean {
  return basePath === '' || path === basePath || path.startsWith(`${basePath}/`);
}

function outside(path: string, base: ServiceBase): LinkTarget {
  return { ok: false, reason: `linked outside its base path ${base.basePath || '/'}`, path };
}

/** Resolves dot segments and drops empty ones; refuses what could turn into a separator later. */
export function normalizePath(path: string): { ok: true; path: string } | { ok: false; reason: string; path: string } {
  if (path.includes('\\')) return { ok: false, reason: 'sent a link with a backslash', path };
  if (REFUSED_ENCODINGS.test(path)) return { ok: false, reason: 'sent a link with an encoded slash, backslash, percent sign or control character', path };
  const raw = path.replace(/%2e/gi, '.').split('/');
  const segments: string[] = [];
  for (const segment of raw) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (segments.pop() === undefined) return { ok: false, reason: 'sent a link above the root', path };
      continue;
    }
    segments.push(segment);
  }
  const last = raw[raw.length - 1];
  // A trailing slash, or a path ending in a dot segment, names a directory: keep the slash.
  const trailing = segments.length > 0 && (last === '' || last === '.' || last === '..');
  return { ok: true, path: `/${segments.join('/')}${trailing ? '/' : ''}` };
}
