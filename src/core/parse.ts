/**
 * Typed reading of upstream JSON. Upstream bodies are `unknown` until a parser turns them
 * into the wire records (`XxxRecord`) that codegen mappers point to; a body that does not fit
 * throws `ShapeError`, which the clients turn into UPSTREAM_BAD_RESPONSE.
 *
 * Leniency rule: required fields (an `id`) must be present and of the right type; every other
 * field reads as null when absent, null, or of a type we cannot use, so a new or odd upstream
 * value never breaks a whole response.
 */
import { ShapeError } from '../errors/shape-error';

export type JsonObject = { [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A message's JSON object (a channel's, a key's); null when it is not JSON or not an object. */
export function parseJsonObject(text: string): JsonObject | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  return isObject(value) ? value : null;
}

export function asObject(value: unknown, what: string): JsonObject {
  if (!isObject(value)) throw new ShapeError(`${what}: expected an object`);
  return value;
}

export function asArray(value: unknown, what: string): unknown[] {
  if (!Array.isArray(value)) throw new ShapeError(`${what}: expected an array`);
  return value;
}

/*
 * One reader per kind of field, over a JSON object and a key. `Fields` (below) and the wire
 * records (network/record-spec.ts) both read through these, so the leniency rule lives here once.
 */

/** A required string (ids, names the contract says are never null); `what` names the record. */
export function readId(obj: JsonObject, key: string, what: string): string {
  const v = obj[key];
  if (typeof v !== 'string' || v === '') throw new ShapeError(`${what}.${key}: expected a non-empty string`);
  return v;
}

export function readStr(obj: JsonObject, key: string): string | null {
  const v = obj[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return null;
}

export function readInt(obj: JsonObject, key: string): number | null {
  const v = obj[key];
  if (typeof v === 'number' && Number.isFinite(v)) return Math.trunc(v);
  if (typeof v === 'string' && /^-?\d+$/.test(v.trim())) return Number(v);
  return null;
}

export function readBool(obj: JsonObject, key: string): boolean | null {
  const v = obj[key];
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'YES') return true;
  if (v === 'false' || v === 'NO') return false;
  return null;
}

export function readStrList(obj: JsonObject, key: string): string[] {
  const v = obj[key];
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];
}

/** Raw value, for free-form maps exposed as the JSON scalar. */
export function readRaw(obj: JsonObject, key: string): unknown {
  return obj[key] ?? null;
}

/** Field readers over one JSON object; `what` names the record in error messages. */
export class Fields {
  constructor(
    readonly obj: JsonObject,
    readonly what: string,
  ) {}

  static of(value: unknown, what: string): Fields {
    return new Fields(asObject(value, what), what);
  }

  id(key: string): string {
    return readId(this.obj, key, this.what);
  }

  str(key: string): string | null {
    return readStr(this.obj, key);
  }

  int(key: string): number | null {
    return readInt(this.obj, key);
  }

  bool(key: string): boolean | null {
    return readBool(this.obj, key);
  }

  strList(key: string): string[] {
    return readStrList(this.obj, key);
  }

  object(key: string): JsonObject | null {
    const v = this.obj[key];
    return isObject(v) ? v : null;
  }

  raw(key: string): unknown {
    return readRaw(this.obj, key);
  }
}
