/**
 * Checked reading of request bodies and query parameters. Every violation is a 400 whose
 * message starts with the field path (`resourceType.code: must match …`), so a client can
 * tell which field was wrong. Shared by the auth/v1 and core/v2 areas.
 */
import { HttpError, type SandboxRequest } from '../core/types';

export type JsonMap = { [key: string]: unknown };

/** Lowercase words of letters and digits joined by single hyphens: `resource-type`, `read`. */
export const CODE_PATTERN = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export function isMap(value: unknown): value is JsonMap {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function invalid(field: string, problem: string): HttpError {
  return new HttpError(400, `${field}: ${problem}`);
}

/** The JSON object body of a create request. */
export function bodyOf(req: SandboxRequest): JsonMap {
  if (req.json === undefined) throw new HttpError(400, 'request body: a JSON object with Content-Type application/json is required');
  if (!isMap(req.json)) throw new HttpError(400, 'request body: must be a JSON object');
  return req.json;
}

/** Field readers over one JSON object; `prefix` is the object's path in the body. */
export class Input {
  constructor(
    readonly obj: JsonMap,
    readonly prefix = '',
  ) {}

  path(key: string): string {
    return this.prefix === '' ? key : `${this.prefix}.${key}`;
  }

  has(key: string): boolean {
    return this.obj[key] !== undefined && this.obj[key] !== null;
  }

  /** Must not be null; a string (empty allowed unless `nonEmpty`). */
  string(key: string, opts: { nonEmpty?: boolean } = {}): string {
    const v = this.obj[key];
    if (v === undefined || v === null) throw invalid(this.path(key), 'must not be null');
    if (typeof v !== 'string') throw invalid(this.path(key), 'must be a string');
    if (opts.nonEmpty === true && v.trim() === '') throw invalid(this.path(key), 'must not be empty');
    return v;
  }

  optString(key: string): string | null {
    return this.has(key) ? this.string(key) : null;
  }

  code(key: string): string {
    const v = this.string(key);
    if (!CODE_PATTERN.test(v)) throw invalid(this.path(key), `must match ${CODE_PATTERN.source}`);
    return v;
  }

  optBoolean(key: string): boolean | null {
    if (!this.has(key)) return null;
    const v = this.obj[key];
    if (typeof v !== 'boolean') throw invalid(this.path(key), 'must be a boolean');
    return v;
  }

  optInteger(key: string, min: number, max: number): number | null {
    if (!this.has(key)) return null;
    const v = this.obj[key];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
      throw invalid(this.path(key), `must be an integer from ${min} to ${max}`);
    }
    return v;
  }

  integer(key: string, min: number, max: number): number {
    const v = this.optInteger(key, min, max);
    if (v === null) throw invalid(this.path(key), 'must not be null');
    return v;
  }

  map(key: string): JsonMap {
    const v = this.obj[key];
    if (v === undefined || v === null) throw invalid(this.path(key), 'must not be null');
    if (!isMap(v)) throw invalid(this.path(key), 'must be an object');
    return v;
  }

  child(key: string): Input {
    return new Input(this.map(key), this.path(key));
  }

  optChild(key: string): Input | null {
    return this.has(key) ? this.child(key) : null;
  }

  array(key: string, opts: { nonEmpty?: boolean } = {}): unknown[] {
    const v = this.obj[key];
    if (v === undefined || v === null) throw invalid(this.path(key), 'must not be null');
    if (!Array.isArray(v)) throw invalid(this.path(key), 'must be an array');
    if (opts.nonEmpty === true && v.length === 0) throw invalid(this.path(key), 'must not be empty');
    return v;
  }

  /** Items of an array of objects, each as an Input with an indexed path (`actions[2]`). */
  children(key: string, opts: { nonEmpty?: boolean } = {}): Input[] {
    return this.array(key, opts).map((item, i) => {
      const at = `${this.path(key)}[${i}]`;
      if (!isMap(item)) throw invalid(at, 'must be an object');
      return new Input(item, at);
    });
  }

  /** An array of non-empty strings (attribute lists); absent reads as []. */
  stringList(key: string, opts: { nonEmpty?: boolean } = {}): string[] {
    if (!this.has(key)) {
      if (opts.nonEmpty === true) throw invalid(this.path(key), 'must not be empty');
      return [];
    }
    return this.array(key, opts).map((item, i) => {
      if (typeof item !== 'string' || item.trim() === '') throw invalid(`${this.path(key)}[${i}]`, 'must be a non-empty string');
      return item;
    });
  }
}

/** A boolean query parameter (`true`/`false`); null when absent. */
export function queryBoolean(req: SandboxRequest, name: string): boolean | null {
  const v = req.query.get(name);
  if (v === null || v === '') return null;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw invalid(name, 'must be true or false');
}

export function queryString(req: SandboxRequest, name: string): string | null {
  const v = req.query.get(name);
  return v === null || v === '' ? null : v;
}

/** A non-negative integer query parameter with a default and an upper bound. */
export function queryInteger(req: SandboxRequest, name: string, fallback: number, max: number): number {
  const v = req.query.get(name);
  if (v === null || v === '') return fallback;
  if (!/^\d+$/.test(v)) throw invalid(name, 'must be a non-negative integer');
  return Math.min(Number(v), max);
}

/** The calling identity; the router guarantees it on bearer routes. */
export function callerOf(req: SandboxRequest): NonNullable<SandboxRequest['caller']> {
  if (req.caller === null) throw new HttpError(401, 'a valid bearer token is required');
  return req.caller;
}
