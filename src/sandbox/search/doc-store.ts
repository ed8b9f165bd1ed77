/**
 * Column-oriented, append-only document store. Each flattened field (`zfw.usage.circuit.tx`) is
 * one column: numbers and dates in Float64Arrays (NaN = missing), strings as dictionary codes in
 * Int32Arrays (-1 = missing), anything else (arrays, objects) as plain values. This keeps 100,000
 * usage documents cheap to seed and a top-talker aggregation over them a few linear passes.
 */

export type FlatValue = string | number | boolean | null | unknown[] | Record<string, unknown>;
export type FlatDoc = Record<string, FlatValue>;

/** The field every document has, stored as epoch milliseconds, rendered as ISO 8601. */
export const TIMESTAMP_FIELD = '@timestamp';

export class NumColumn {
  readonly kind: 'num' | 'date';
  values: Float64Array;

  constructor(kind: 'num' | 'date', capacity: number) {
    this.kind = kind;
    this.values = new Float64Array(capacity).fill(NaN);
  }

  grow(capacity: number): void {
    const next = new Float64Array(capacity).fill(NaN);
    next.set(this.values);
    this.values = next;
  }

  has(i: number): boolean {
    return !Number.isNaN(this.values[i] ?? NaN);
  }
}

export class StrColumn {
  readonly kind = 'str' as const;
  codes: Int32Array;
  readonly dict: string[] = [];
  private readonly lookup = new Map<string, number>();

  constructor(capacity: number) {
    this.codes = new Int32Array(capacity).fill(-1);
  }

  grow(capacity: number): void {
    const next = new Int32Array(capacity).fill(-1);
    next.set(this.codes);
    this.codes = next;
  }

  codeOf(value: string): number {
    return this.lookup.get(value) ?? -1;
  }

  intern(value: string): number {
    let code = this.lookup.get(value);
    if (code === undefined) {
      code = this.dict.length;
      this.dict.push(value);
      this.lookup.set(value, code);
    }
    return code;
  }

  value(i: number): string | undefined {
    const code = this.codes[i] ?? -1;
    return code < 0 ? undefined : this.dict[code];
  }
}

export class AnyColumn {
  readonly kind = 'any' as const;
  values: unknown[] = [];

  grow(): void {
    // Plain arrays grow by themselves.
  }
}

export type Column = NumColumn | StrColumn | AnyColumn;

export class DocStore {
  size = 0;
  private capacity = 1024;
  readonly index = new StrColumn(1024);
  /** Salt of the generated document ids (set by the seeder so ids are stable per seed). */
  idSalt = 0;
  readonly columns = new Map<string, Column>();

  constructor() {
    this.columns.set(TIMESTAMP_FIELD, new NumColumn('date', this.capacity));
  }

  /** Appends one document; `@timestamp` must be epoch milliseconds. */
  add(indexName: string, doc: FlatDoc): number {
    if (this.size === this.capacity) this.growTo(this.capacity * 2);
    const i = this.size;
    this.size += 1;
    this.index.codes[i] = this.index.intern(indexName);
    for (const [field, value] of Object.entries(doc)) {
      if (value === null || value === undefined) continue;
      const column = this.columns.get(field) ?? this.newColumn(field, value);
      if (column.kind === 'str') column.codes[i] = column.intern(typeof value === 'string' ? value : JSON.stringify(value));
      else if (column.kind === 'any') column.values[i] = value;
      else if (typeof value === 'number') column.values[i] = value;
    }
    return i;
  }

  /**
   * A fast appender for bulk seeding with a fixed field list: no per-document objects, columns
   * looked up once. Values are given in the order of `fields` (null = missing).
   */
  writer(fields: { name: string; kind: 'num' | 'date' | 'str' }[]): (indexName: string, values: (number | string | null)[]) => void {
    const columns = fields.map((f) => {
      const existing = this.columns.get(f.name);
      if (existing) return existing;
      const created = f.kind === 'str' ? new StrColumn(this.capacity) : new NumColumn(f.kind, this.capacity);
      this.columns.set(f.name, created);
      return created;
    });
    let lastIndexName = '';
    let lastIndexCode = -1;
    return (indexName, values) => {
      if (this.size === this.capacity) this.growTo(this.capacity * 2);
      const i = this.size;
      this.size += 1;
      if (indexName !== lastIndexName) {
        lastIndexName = indexName;
        lastIndexCode = this.index.intern(indexName);
      }
      this.index.codes[i] = lastIndexCode;
      for (let k = 0; k < columns.length; k++) {
        const column = columns[k] as Column;
        const value = values[k];
        if (value === null || value === undefined) continue;
        if (column.kind === 'str') column.codes[i] = column.intern(String(value));
        else if (column.kind === 'any') column.values[i] = value;
        else if (typeof value === 'number') column.values[i] = value;
      }
    };
  }

  /** Reserves room for `count` more documents (seeding in bulk avoids repeated doubling). */
  reserve(count: number): void {
    if (this.size + count > this.capacity) this.growTo(this.size + count);
  }

  /**
   * The `_id` of a document: 20 characters like Elasticsearch's, derived from its position and
   * the salt, so 100,000 documents need no stored id strings.
   */
  id(i: number): string {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let h = (Math.imul(i + 1, 0x9e3779b1) ^ this.idSalt) >>> 0;
    let out = '';
    for (let k = 0; k < 20; k++) {
      h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d) >>> 0;
      h = (h + 0x6d2b79f5 + k) >>> 0;
      out += alphabet[h & 63];
    }
    return out;
  }

  indexNames(): string[] {
    return [...this.index.dict];
  }

  /** The document as nested JSON (`zfw.usage.circuit.tx` → `{ zfw: { usage: … } }`). */
  source(i: number): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (const [field, column] of this.columns) {
      const value = readColumn(column, i);
      if (value === undefined) continue;
      setPath(out, field.split('.'), value);
    }
    return out;
  }

  private newColumn(field: string, value: FlatValue): Column {
    const column: Column = typeof value === 'number' ? new NumColumn('num', this.capacity) : typeof value === 'string' ? new StrColumn(this.capacity) : new AnyColumn();
    this.columns.set(field, column);
    return column;
  }

  private growTo(capacity: number): void {
    this.capacity = capacity;
    this.index.grow(capacity);
    for (const column of this.columns.values()) column.grow(capacity);
  }
}

/** One field of one document in its JSON form (dates as ISO 8601); undefined when missing. */
export function readColumn(column: Column, i: number): unknown {
  if (column.kind === 'str') return column.value(i);
  if (column.kind === 'any') return column.values[i];
  const v = column.values[i] ?? NaN;
  if (Number.isNaN(v)) return undefined;
  return column.kind === 'date' ? new Date(v).toISOString() : v;
}

function setPath(target: Record<string, unknown>, parts: string[], value: unknown): void {
  let node = target;
  for (let k = 0; k < parts.length - 1; k++) {
    const part = parts[k] as string;
    const next = node[part];
    if (typeof next === 'object' && next !== null && !Array.isArray(next)) {
      node = next as Record<string, unknown>;
    } else {
      const created: Record<string, unknown> = {};
      node[part] = created;
      node = created;
    }
  }
  node[parts[parts.length - 1] as string] = value;
}
