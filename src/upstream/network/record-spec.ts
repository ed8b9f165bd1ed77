/**
 * Table-driven wire records: a record is described once as `{ field: kind }` and both its
 * TypeScript type and its parser come from that description, so the two cannot drift apart.
 *
 * Records are read lazily. Parsing checks what can fail (the body is an object, `id` is a
 * non-empty string) and keeps the upstream object; every other field is read, with parse.ts's
 * leniency rule, when something asks for it. A whole-network graph parses ~10,000 endpoint
 * records of ~30 fields and reads three of them: reading all of them up front cost more CPU than
 * executing the query. The leniency rule never throws, so reading later cannot fail later.
 *
 * A record's fields are getters on its prototype, not own properties: `{ ...record }` and
 * `Object.keys(record)` do not see them, and tests compare records with `toMatchObject`. Assigning a field stores the value on the record itself.
 */
import { asObject, isObject, readBool, readId, readInt, readRaw, readStr, readStrList, type JsonObject } from '../../core/parse';

/** How one field is read (see parse.ts for the leniency rule). */
export type FieldKind = 'id' | 'str' | 'int' | 'bool' | 'json' | 'strList';

interface KindType {
  id: string;
  str: string | null;
  int: number | null;
  bool: boolean | null;
  json: unknown;
  strList: string[];
}

export type RecordSpec = Readonly<Record<string, FieldKind>>;

/** HAL relations of a record: relation name → href. */
export type HalLinks = Readonly<Record<string, string>>;

/** The record type a spec describes, plus its HAL links (never exposed as such in the schema). */
export type RecordOf<S extends RecordSpec> = { -readonly [K in keyof S]: KindType[S[K]] } & { links: HalLinks };

/** Fields computed from the upstream object by a function (nested objects, secrets left out, …). */
export type Derived<X> = { readonly [K in keyof X]: (obj: JsonObject) => X[K] };

/** The lenient readers of the non-id kinds (an id field is read, and checked, at parse time). */
const READERS: { [K in Exclude<FieldKind, 'id'>]: (obj: JsonObject, key: string) => KindType[K] } = {
  str: readStr,
  int: readInt,
  bool: readBool,
  json: readRaw,
  strList: readStrList,
};

/** `_links` → `{ rel: href }`; relations without a string href are dropped. */
export function parseLinks(obj: JsonObject): HalLinks {
  const links: Record<string, string> = {};
  const raw = obj['_links'];
  if (!isObject(raw)) return links;
  for (const rel in raw) {
    const value = raw[rel];
    if (isObject(value) && typeof value['href'] === 'string') links[rel] = value['href'];
  }
  return links;
}

/**
 * What every record holds: the upstream object its fields are read from, and its id. Both are
 * stored by the constructor (no class-field definitions, no property added later), so every
 * record of a kind is made with its final shape: ~10,000 of them in a large graph.
 */
class WireRecord {
  declare readonly wire: JsonObject;
  declare readonly id: string;

  constructor(wire: JsonObject, id: string) {
    this.wire = wire;
    this.id = id;
  }

  /** The record's fields as read (never the upstream object: it may hold fields the gateway leaves out on purpose). */
  toJSON(): JsonObject {
    const out: JsonObject = {};
    for (const key in this) if (key !== 'wire') out[key] = this[key];
    return out;
  }
}

/** The upstream object a record was parsed from (to parse it again elsewhere, e.g. on another replica); null for anything else. */
export function wireObjectOf(record: object): JsonObject | null {
  return record instanceof WireRecord ? record.wire : null;
}

/** Stores `value` as the record's own `key` (shadowing the prototype's getter from then on). */
function keep(record: WireRecord, key: string, value: unknown): void {
  Object.defineProperty(record, key, { value, writable: true, enumerable: true, configurable: true });
}

/**
 * Defines `key` on a record prototype as a getter over the wire object, and a setter that stores
 * on the record. `once`: the value is built (an array, an object) and then kept on the record, so
 * a field read in a loop (core/v2's attribute matching) is not rebuilt on every read.
 */
function defineField(proto: object, key: string, read: (obj: JsonObject) => unknown, once: boolean): void {
  Object.defineProperty(proto, key, {
    enumerable: true,
    configurable: true,
    get(this: WireRecord) {
      const value = read(this.wire);
      if (once) keep(this, key, value);
      return value;
    },
    set(this: WireRecord, value: unknown) {
      keep(this, key, value);
    },
  });
}

/** The spec's id fields: read and checked at parse, by the full parser and the id-only one alike. */
function idKeys(spec: RecordSpec): string[] {
  return Object.keys(spec).filter((key) => spec[key] === 'id');
}

/**
 * Builds the parser of a spec (and of fields derived from the whole upstream object, read lazily
 * too). Id fields are read and checked at once; a record without its id is a ShapeError.
 */
export function recordParser<S extends RecordSpec & { id: 'id' }, X extends object = Record<never, never>>(
  spec: S,
  what: string,
  derived?: Derived<X>,
): (value: unknown) => RecordOf<S> & X {
  const otherIds = idKeys(spec).filter((key) => key !== 'id');
  // One class per spec: records of a kind share their prototype, so property reads stay fast.
  const Parsed = class extends WireRecord {};
  for (const [key, kind] of Object.entries(spec)) {
    if (kind === 'id') continue;
    const read = READERS[kind];
    defineField(Parsed.prototype, key, (obj) => read(obj, key), kind === 'strList');
  }
  // Links, lists and derived fields build a value: built once, on first use, and kept.
  defineField(Parsed.prototype, 'links', parseLinks, true);
  for (const [key, read] of Object.entries<(obj: JsonObject) => unknown>(derived ?? {})) defineField(Parsed.prototype, key, read, true);

  return (value) => {
    const obj = asObject(value, what);
    // Ids are own properties: checked here, and read on every record in every list.
    const record = new Parsed(obj, readId(obj, 'id', what));
    for (const key of otherIds) Reflect.set(record, key, readId(obj, key, what));
    // The prototype defines every other field of the spec (and the derived ones) as a getter over `obj`.
    return record as unknown as RecordOf<S> & X;
  };
}

/**
 * The reader of a spec's `id` alone, with every check its full parser makes (an object, each id
 * field a non-empty string, the same ShapeError), for lists of which only the ids are used: no
 * record is built, so nothing keeps the upstream object alive.
 */
export function recordIdParser(spec: RecordSpec, what: string): (value: unknown) => string {
  const ids = idKeys(spec);
  return (value) => {
    const obj = asObject(value, what);
    for (const key of ids) readId(obj, key, what);
    return readId(obj, 'id', what);
  };
}

/** The record's own fields without HAL (for `attributes: JSON` of records whose fields are not in the contract). */
export function withoutHal(obj: JsonObject): JsonObject {
  const rest: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) if (k !== '_links' && k !== '_embedded') rest[k] = v;
  return rest;
}
