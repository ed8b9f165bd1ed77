/**
 * Field specs drive input checking for every table-driven resource: types, required fields,
 * closed value sets and defaults on creation. Fields marked `server` are set by the sandbox and
 * ignored in requests (status, ownerIdentityId, parent ids taken from the path).
 */
import { HttpError } from '../core/types';
import type { JsonObject } from './json';

export type FieldType = 'string' | 'int' | 'bool' | 'object' | 'stringList';

export interface FieldSpec {
  name: string;
  type: FieldType;
  required?: boolean;
  /** Value on creation when the request leaves it out (null when not given). */
  default?: unknown;
  oneOf?: readonly string[];
  pattern?: RegExp;
  patternHint?: string;
  /** Set by the service, never taken from the request. */
  server?: boolean;
}

export function f(name: string, type: FieldType, extra: Omit<FieldSpec, 'name' | 'type'> = {}): FieldSpec {
  return { name, type, ...extra };
}

function typeOk(type: FieldType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'int':
      return typeof value === 'number' && Number.isInteger(value);
    case 'bool':
      return typeof value === 'boolean';
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'stringList':
      return Array.isArray(value) && value.every((x) => typeof x === 'string');
  }
}

/**
 * Reads the client-settable fields of `input`. On creation (`base` undefined) missing fields take
 * their default; on a redefine missing required fields are a 400 (a PUT sends all attributes) and
 * other missing fields keep their current value. Throws 400 naming the field; mutates nothing.
 */
export function readFields(specs: readonly FieldSpec[], input: JsonObject, base?: JsonObject): JsonObject {
  const out: JsonObject = {};
  for (const spec of specs) {
    if (spec.server === true) continue;
    const value = input[spec.name];
    if (value === undefined || value === null) {
      if (spec.required === true) throw new HttpError(400, `${spec.name} is required`);
      if (base === undefined) out[spec.name] = cloneDefault(spec.default);
      else if (value === null) out[spec.name] = null;
      continue;
    }
    if (!typeOk(spec.type, value)) throw new HttpError(400, `${spec.name} must be of type ${spec.type}`);
    if (spec.required === true && value === '') throw new HttpError(400, `${spec.name} must not be empty`);
    if (typeof value === 'string' && spec.oneOf !== undefined && !spec.oneOf.includes(value)) {
      throw new HttpError(400, `${spec.name} must be one of ${spec.oneOf.join(', ')}`);
    }
    if (typeof value === 'string' && spec.pattern !== undefined && !spec.pattern.test(value)) {
      throw new HttpError(400, `${spec.name} ${spec.patternHint ?? `must match ${String(spec.pattern)}`}`);
    }
    out[spec.name] = copy(value);
  }
  return out;
}

function cloneDefault(value: unknown): unknown {
  return value === undefined ? null : copy(value);
}

/** Objects and arrays are copied so stored records never share structure with requests or defaults. */
function copy(value: unknown): unknown {
  return typeof value === 'object' && value !== null ? structuredClone(value) : value;
}

/** Sort keys a list accepts: its fields plus the common ones. */
export function sortableFields(specs: readonly FieldSpec[]): Set<string> {
  return new Set(['id', 'createdAt', 'updatedAt', ...specs.filter((s) => s.type !== 'object').map((s) => s.name)]);
}
