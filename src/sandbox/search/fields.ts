/**
 * Field names of requests resolved to columns. Text fields have a `.keyword` variant:
 * `zfw.saddr.keyword` and `zfw.saddr` read the same column; exact matching works on both (the
 * sandbox does not analyse text), aggregations and sorting need `.keyword` as Elasticsearch does.
 */
import type { Column, DocStore } from './doc-store';
import { illegalArgument } from './es-error';

export interface FieldRef {
  name: string;
  column: Column;
  keyword: boolean;
}

export function resolveField(store: DocStore, name: string): FieldRef | null {
  const direct = store.columns.get(name);
  if (direct) return { name, column: direct, keyword: false };
  if (name.endsWith('.keyword')) {
    const base = store.columns.get(name.slice(0, -'.keyword'.length));
    if (base && base.kind === 'str') return { name, column: base, keyword: true };
  }
  return null;
}

/** A field for terms aggregations and sorting: text fields must be named by their `.keyword`. */
export function docValueField(store: DocStore, name: string): FieldRef | null {
  const ref = resolveField(store, name);
  if (ref && ref.column.kind === 'str' && !ref.keyword) {
    throw illegalArgument(
      `Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. Please use a keyword field instead. Alternatively, set fielddata=true on [${name}] in order to load field data by uninverting the inverted index.`,
    );
  }
  if (ref && ref.column.kind === 'any') throw illegalArgument(`field [${name}] of type [object] does not support aggregations or sorting`);
  return ref;
}

