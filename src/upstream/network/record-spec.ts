/**
 * Table-driven wire records: a record is described once as `{ field: kind }` and both its
 * TypeScript type and its parser come from that description, so the two cannot drift apart.
 */
import { Fields, isObject, type JsonObject } from '../parse';

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

function readField(f: Fields, key: string, kind: FieldKind): unknown {
  switch (kind) {
    case 'id':
      return f.id(key);
    case 'str':
      return f.str(key);
    case 'int':
      return f.int(key);
    case 'bool':
      return f.bool(key);
    case 'json':
      return f.raw(key);
    case 'strList':
      return f.strList(key);
  }
}

/** `_links` → `{ rel: href }`; relations without a string href are dropped. */
export function parseLinks(obj: JsonObject): HalLinks {
  const links: Record<string, string> = {};
  const raw = obj['_links'];
  if (!isObject(raw)) return links;
  for (const [rel, value] of Object.entries(raw)) {
    if (isObject(value) && typeof value['href'] === 'string') links[rel] = value['href'];
  }
  return links;
}

/** Builds the parser of a spec. */
export function recordParser<S extends RecordSpec>(spec: S, what: string): (value: unknown) => RecordOf<S> {
  return (value) => {
    const f = Fields.of(value, what);
    const out: Record<string, unknown> = { links: parseLinks(f.obj) };
    for (const [key, kind] of Object.entries(spec)) out[key] = readField(f, key, kind);
    // Every key of the spec was read above with the reader of its kind: the object has the spec's shape.
    return out as RecordOf<S>;
  };
}

/** The record's own fields without HAL (for `attributes: JSON` of records whose fields are not in the contract). */
export function withoutHal(obj: JsonObject): JsonObject {
  const rest: JsonObject = {};
  for (const [k, v] of Object.entries(obj)) if (k !== '_links' && k !== '_embedded') rest[k] = v;
  return rest;
}
