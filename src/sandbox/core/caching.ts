/**
 * The sandbox's optional caching mode: with rules set, successful GETs of matching routes carry
 * `ETag` (a hash of the body), `Last-Modified` (when this representation was first served to
 * this caller) and `Cache-Control: private, max-age=N` (or `no-store`), and a request whose
 * `If-None-Match` names the current ETag — or, without one, whose `If-Modified-Since` is not
 * older than the representation — is answered 304 with no body. No rules (the default): the
 * answers carry no caching header at all, as before.
 *
 * Rules are checked in order and the first whose `route` matches applies (`route` as in fault
 * rules: template, `^` regular expression or glob; none matches every route).
 */
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { isRecord, routeMatcher } from './faults';
import { HttpError, type SandboxResponse } from './types';

export interface CachingRule {
  route?: string;
  /** Seconds a response stays fresh (`Cache-Control: private, max-age=N`). @default 60 */
  maxAgeS?: number;
  /** `Cache-Control: no-store` instead (still with an ETag: a validator never makes a response storable). */
  noStore?: boolean;
}

export interface CachingState {
  rules: CachingRule[];
  /** 304 answers given since the last reset of the call log. */
  notModified: number;
}

const DEFAULT_MAX_AGE_S = 60;
/** Representations remembered for `Last-Modified` (oldest forgotten first). */
const MAX_REMEMBERED = 10_000;

interface Compiled {
  rule: CachingRule;
  matches: (path: string, template: string) => boolean;
}

interface Seen {
  etag: string;
  lastModifiedS: number;
}

export class Caching {
  private rules: Compiled[] = [];
  private notModified = 0;
  /** Per caller and URL: the current representation and when it was first served. */
  private readonly seen = new Map<string, Seen>();

  constructor(private readonly nowMs: () => number = Date.now) {}

  set(rules: CachingRule[]): void {
    this.rules = rules.map((rule) => ({ rule, matches: routeMatcher(rule.route) }));
  }

  clear(): void {
    this.rules = [];
    this.seen.clear();
  }

  state(): CachingState {
    return { rules: this.rules.map((r) => r.rule), notModified: this.notModified };
  }

  resetCounts(): void {
    this.notModified = 0;
  }

  /** The response as sent in caching mode (unchanged when no rule matches or it is not a 2xx with a body). */
  apply(url: string, template: string, path: string, headers: IncomingHttpHeaders, response: SandboxResponse): SandboxResponse {
    if (this.rules.length === 0 || response.status < 200 || response.status >= 300) return response;
    const rule = this.rules.find((r) => r.matches(path, template))?.rule;
    if (rule === undefined) return response;
    const text = response.json !== undefined ? JSON.stringify(response.json) : response.text;
    if (text === undefined) return response;
    const etag = `"${createHash('sha1').update(text).digest('base64url')}"`;
    const lastModifiedS = this.lastModified(`${headers.authorization ?? ''} ${url}`, etag);
    const cacheHeaders: Record<string, string> = {
      ETag: etag,
      'Last-Modified': new Date(lastModifiedS * 1000).toUTCString(),
      'Cache-Control': rule.noStore === true ? 'no-store' : `private, max-age=${rule.maxAgeS ?? DEFAULT_MAX_AGE_S}`,
    };
    if (notModified(headers, etag, lastModifiedS)) {
      this.notModified += 1;
      return { status: 304, headers: { ...(response.headers ?? {}), ...cacheHeaders } };
    }
    const contentType = response.contentType ?? (response.json !== undefined ? 'application/json' : undefined);
    const sent: SandboxResponse = { status: response.status, text, headers: { ...(response.headers ?? {}), ...cacheHeaders } };
    if (contentType !== undefined) sent.contentType = contentType;
    return sent;
  }

  /** A new representation is newer than the one before it, by at least a second (the header's resolution). */
  private lastModified(key: string, etag: string): number {
    const before = this.seen.get(key);
    if (before?.etag === etag) return before.lastModifiedS;
    const now = Math.floor(this.nowMs() / 1000);
    const lastModifiedS = before === undefined ? now : Math.max(now, before.lastModifiedS + 1);
    this.seen.delete(key);
    this.seen.set(key, { etag, lastModifiedS });
    if (this.seen.size > MAX_REMEMBERED) {
      const oldest = this.seen.keys().next().value;
      if (oldest !== undefined) this.seen.delete(oldest);
    }
    return lastModifiedS;
  }
}

/** RFC 9110 §13.2.2: If-None-Match wins; If-Modified-Since only without it. */
function notModified(headers: IncomingHttpHeaders, etag: string, lastModifiedS: number): boolean {
  const inm = headers['if-none-match'];
  if (inm !== undefined) {
    const tags = inm.split(',').map((t) => t.trim().replace(/^W\//, ''));
    return tags.includes('*') || tags.includes(etag);
  }
  const ims = headers['if-modified-since'];
  if (ims === undefined) return false;
  const since = Date.parse(ims);
  return Number.isFinite(since) && lastModifiedS * 1000 <= since;
}

/** Parses caching rules from a control-path body (an array, `{ rules: [...] }`, or one rule). */
export function parseCachingRules(body: unknown): CachingRule[] {
  const list = Array.isArray(body) ? body : isRecord(body) && Array.isArray(body['rules']) ? body['rules'] : [body];
  return list.map((item, i) => {
    if (!isRecord(item)) throw new HttpError(400, `rules[${i}]: expected an object`);
    const rule: CachingRule = {};
    for (const key of Object.keys(item)) {
      if (!['route', 'maxAgeS', 'noStore'].includes(key)) throw new HttpError(400, `rules[${i}]: unknown field ${key}`);
    }
    const { route, maxAgeS, noStore } = item;
    if (route !== undefined) {
      if (typeof route !== 'string') throw new HttpError(400, `rules[${i}]: route must be a string`);
      if (route.startsWith('^')) {
        try {
          new RegExp(route);
        } catch {
          throw new HttpError(400, `rules[${i}]: route is not a valid regular expression`);
        }
      }
      rule.route = route;
    }
    if (maxAgeS !== undefined) {
      if (typeof maxAgeS !== 'number' || !Number.isInteger(maxAgeS) || maxAgeS < 0) throw new HttpError(400, `rules[${i}]: maxAgeS must be an integer >= 0`);
      rule.maxAgeS = maxAgeS;
    }
    if (noStore !== undefined) {
      if (typeof noStore !== 'boolean') throw new HttpError(400, `rules[${i}]: noStore must be a boolean`);
      rule.noStore = noStore;
    }
    return rule;
  });
}
