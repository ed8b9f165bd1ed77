/**
 * Compiles the query DSL subset into a predicate over document positions:
 * `match_all`, `match_none`, `bool` (`filter`, `must`, `should`, `must_not`,
 * `minimum_should_match`), `range` (numbers, strings, and dates with date math), `term`,
 * `terms`, `exists`, and `match` / `match_phrase` on text (lowercased word tokens, no stemming).
 * Anything else is a 400 `parsing_exception`, as Elasticsearch answers.
 */
import { resolveDate } from './date-math';
import type { DocStore } from './doc-store';
import { parsingError } from './es-error';
import { resolveField, type FieldRef } from './fields';

export type Predicate = (i: number) => boolean;

type Json = { [key: string]: unknown };

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const NEVER: Predicate = () => false;
const ALWAYS: Predicate = () => true;

/** The one `{ field: spec }` entry of a leaf query (ignoring `boost`/`_name`). */
function fieldEntry(kind: string, body: unknown): [string, unknown] {
  if (!isJson(body)) throw parsingError(`[${kind}] query malformed, no start_object after query name`);
  const entries = Object.entries(body).filter(([k]) => k !== 'boost' && k !== '_name');
  const first = entries[0];
  if (entries.length !== 1 || first === undefined) throw parsingError(`[${kind}] query doesn't support multiple fields, found [${entries.map(([k]) => k).join(', ')}]`);
  return first;
}

function clauses(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** Equality on one field's column for a term value. */
function equals(ref: FieldRef, value: unknown): Predicate {
  const column = ref.column;
  if (column.kind === 'str') {
    if (typeof value !== 'string' && typeof value !== 'number' && typeof value !== 'boolean') return NEVER;
    const code = column.codeOf(String(value));
    const codes = column.codes;
    return code < 0 ? NEVER : (i) => codes[i] === code;
  }
  if (column.kind === 'any') {
    const wanted = JSON.stringify(value);
    return (i) => {
      const v = column.values[i];
      return Array.isArray(v) ? v.some((x) => JSON.stringify(x) === wanted) : JSON.stringify(v) === wanted;
    };
  }
  const n = column.kind === 'date' ? resolveDate(value, 0, false) : typeof value === 'number' ? value : Number(value);
  if (Number.isNaN(n)) return NEVER;
  const values = column.values;
  return (i) => values[i] === n;
}

function tokens(text: string): string[] {
  return text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((t) => t !== '');
}

/**
 * Full-text match on one field: `match` wants any (or, with `operator: and`, every) query token
 * among the value's tokens; `match_phrase` wants the tokens contiguous. String columns are
 * tested once per distinct value, not once per document.
 */
function textMatch(store: DocStore, kind: 'match' | 'match_phrase', body: unknown): Predicate {
  const [field, spec] = fieldEntry(kind, body);
  const raw = isJson(spec) ? spec['query'] : spec;
  if (typeof raw !== 'string' && typeof raw !== 'number' && typeof raw !== 'boolean') throw parsingError(`[${kind}] query on [${field}] needs a [query] value`);
  const wanted = tokens(String(raw));
  const all = isJson(spec) && typeof spec['operator'] === 'string' && spec['operator'].toLowerCase() === 'and';
  const test = (value: string): boolean => {
    const have = tokens(value);
    if (kind === 'match_phrase') return ` ${have.join(' ')} `.includes(` ${wanted.join(' ')} `);
    return all ? wanted.every((t) => have.includes(t)) : wanted.some((t) => have.includes(t));
  };
  const ref = resolveField(store, field);
  if (!ref || wanted.length === 0) return NEVER;
  const column = ref.column;
  if (column.kind === 'str') {
    const ok = column.dict.map((value) => (ref.keyword ? value === String(raw) : test(value)));
    return (i) => ok[column.codes[i] ?? -1] === true;
  }
  if (column.kind === 'any') {
    return (i) => {
      const v = column.values[i];
      return Array.isArray(v) ? v.some((x) => typeof x === 'string' && test(x)) : typeof v === 'string' && test(v);
    };
  }
  return equals(ref, raw);
}

function range(store: DocStore, body: unknown, now: number): Predicate {
  const [field, spec] = fieldEntry('range', body);
  if (!isJson(spec)) throw parsingError(`[range] query malformed, no start_object after field [${field}]`);
  const known = new Set(['gte', 'gt', 'lte', 'lt', 'format', 'time_zone', 'boost', 'relation', 'from', 'to', 'include_lower', 'include_upper']);
  for (const key of Object.keys(spec)) if (!known.has(key)) throw parsingError(`[range] query does not support [${key}]`);
  const ref = resolveField(store, field);
  if (!ref) return NEVER;
  const format = typeof spec['format'] === 'string' ? spec['format'] : undefined;
  const column = ref.column;
  const bounds: [op: 'gte' | 'gt' | 'lte' | 'lt', value: unknown][] = [];
  for (const op of ['gte', 'gt', 'lte', 'lt'] as const) if (spec[op] !== undefined && spec[op] !== null) bounds.push([op, spec[op]]);
  if (column.kind === 'str') {
    const tests = bounds.map(([op, v]) => {
      const s = String(v);
      return op === 'gte' ? (x: string) => x >= s : op === 'gt' ? (x: string) => x > s : op === 'lte' ? (x: string) => x <= s : (x: string) => x < s;
    });
    return (i) => {
      const v = column.value(i);
      return v !== undefined && tests.every((t) => t(v));
    };
  }
  if (column.kind === 'any') return NEVER;
  let lo = -Infinity;
  let hi = Infinity;
  for (const [op, v] of bounds) {
    const n = column.kind === 'date' ? resolveDate(v, now, op === 'gt' || op === 'lte', format) : Number(v);
    if (Number.isNaN(n)) throw parsingError(`[range] query: [${String(v)}] is not a number`);
    // Dates and numbers are compared as inclusive bounds; exclusive ones step past the value.
    if (op === 'gte') lo = Math.max(lo, n);
    if (op === 'gt') lo = Math.max(lo, column.kind === 'date' ? n + 1 : nextUp(n));
    if (op === 'lte') hi = Math.min(hi, n);
    if (op === 'lt') hi = Math.min(hi, column.kind === 'date' ? n - 1 : nextDown(n));
  }
  const values = column.values;
  return (i) => {
    const v = values[i] ?? NaN;
    return v >= lo && v <= hi;
  };
}

function nextUp(n: number): number {
  return n + Math.max(Number.EPSILON, Math.abs(n) * Number.EPSILON);
}

function nextDown(n: number): number {
  return n - Math.max(Number.EPSILON, Math.abs(n) * Number.EPSILON);
}

function bool(store: DocStore, body: unknown, now: number): Predicate {
  if (!isJson(body)) throw parsingError('[bool] query malformed, no start_object after query name');
  const known = new Set(['must', 'filter', 'should', 'must_not', 'minimum_should_match', 'boost', '_name']);
  for (const key of Object.keys(body)) if (!known.has(key)) throw parsingError(`[bool] query does not support [${key}]`);
  const required = [...clauses(body['must']), ...clauses(body['filter'])].map((q) => compileQuery(store, q, now));
  const excluded = clauses(body['must_not']).map((q) => compileQuery(store, q, now));
  const optional = clauses(body['should']).map((q) => compileQuery(store, q, now));
  const msm = body['minimum_should_match'];
  const minShould = typeof msm === 'number' ? msm : typeof msm === 'string' && /^\d+$/.test(msm) ? Number(msm) : required.length === 0 && optional.length > 0 ? 1 : 0;
  // Indexed loops: this runs once per document.
  return (i) => {
    for (let k = 0; k < required.length; k++) if (!(required[k] as Predicate)(i)) return false;
    for (let k = 0; k < excluded.length; k++) if ((excluded[k] as Predicate)(i)) return false;
    if (minShould > 0) {
      let hits = 0;
      for (let k = 0; k < optional.length; k++) if ((optional[k] as Predicate)(i) && ++hits >= minShould) return true;
      return false;
    }
    return true;
  };
}

export function compileQuery(store: DocStore, query: unknown, now: number): Predicate {
  if (!isJson(query)) throw parsingError('query malformed, must start with start_object');
  const keys = Object.keys(query);
  const kind = keys[0];
  if (keys.length !== 1 || kind === undefined) throw parsingError(`[_na] query malformed, expected exactly one query clause, found [${keys.join(', ')}]`);
  const body = query[kind];
  switch (kind) {
    case 'match_all':
      return ALWAYS;
    case 'match_none':
      return NEVER;
    case 'bool':
      return bool(store, body, now);
    case 'range':
      return range(store, body, now);
    case 'term': {
      const [field, spec] = fieldEntry('term', body);
      const value = isJson(spec) ? spec['value'] : spec;
      const ref = resolveField(store, field);
      return ref ? equals(ref, value) : NEVER;
    }
    case 'terms': {
      const [field, values] = fieldEntry('terms', body);
      if (!Array.isArray(values)) throw parsingError(`[terms] query does not support [${field}] with a non-array value`);
      const ref = resolveField(store, field);
      if (!ref) return NEVER;
      const tests = values.map((v) => equals(ref, v));
      return (i) => tests.some((t) => t(i));
    }
    case 'match':
    case 'match_phrase':
      return textMatch(store, kind, body);
    case 'exists': {
      const field = isJson(body) ? body['field'] : undefined;
      if (typeof field !== 'string') throw parsingError('[exists] must be provided with a [field]');
      const ref = resolveField(store, field);
      if (!ref) return NEVER;
      const column = ref.column;
      if (column.kind === 'str') return (i) => (column.codes[i] ?? -1) >= 0;
      if (column.kind === 'any') return (i) => column.values[i] !== undefined;
      return (i) => !Number.isNaN(column.values[i] ?? NaN);
    }
    default:
      throw parsingError(`unknown query [${kind}]`);
  }
}
