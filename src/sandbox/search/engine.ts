/**
 * One `_search` request end to end: resolve the index pattern, match documents, aggregate,
 * sort and page the hits, and build the ordinary Elasticsearch response. Failures are
 * Elasticsearch-style error bodies with their status; nothing here throws to the caller.
 */
import type { DocStore } from './doc-store';
import { EsError, illegalArgument, parsingError } from './es-error';
import { docValueField, type FieldRef } from './fields';
import { parseAggs, runAggs } from './aggregations';
import { compileQuery } from './query';

export interface SearchResult {
  status: number;
  json: unknown;
}

type Json = { [key: string]: unknown };

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Elasticsearch's default `index.max_result_window`. */
export const MAX_RESULT_WINDOW = 10_000;
/** Hits counted exactly up to this many unless `track_total_hits` says otherwise. */
const TRACK_TOTAL_DEFAULT = 10_000;

const BODY_KEYS = new Set(['query', 'size', 'from', 'sort', 'aggs', 'aggregations', 'track_total_hits', '_source', 'timeout', 'track_scores']);

interface SortKey {
  kind: 'field' | '_score' | '_doc';
  field: FieldRef | null;
  desc: boolean;
}

function parseSort(store: DocStore, raw: unknown): SortKey[] {
  if (raw === undefined) return [];
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((item): SortKey => {
    let name: string;
    let order: unknown;
    let unmappedType: unknown;
    if (typeof item === 'string') {
      name = item;
    } else if (isJson(item) && Object.keys(item).length === 1) {
      const [key, spec] = Object.entries(item)[0] as [string, unknown];
      name = key;
      if (isJson(spec)) {
        order = spec['order'];
        unmappedType = spec['unmapped_type'];
      } else order = spec;
    } else {
      throw parsingError('[sort] malformed: expected a field name or { field: order }');
    }
    if (order !== undefined && order !== 'asc' && order !== 'desc') throw illegalArgument(`[sort] order must be asc or desc, found [${String(order)}]`);
    if (name === '_score') return { kind: '_score', field: null, desc: order !== 'asc' };
    if (name === '_doc') return { kind: '_doc', field: null, desc: order === 'desc' };
    const field = docValueField(store, name);
    if (!field && unmappedType === undefined) throw new EsError(400, 'query_shard_exception', `No mapping found for [${name}] in order to sort on`);
    return { kind: 'field', field, desc: order === 'desc' };
  });
}

function sortValue(store: DocStore, key: SortKey, i: number): string | number | null {
  if (key.kind === '_doc') return i;
  if (key.kind === '_score') return 1;
  const column = key.field?.column;
  if (!column || column.kind === 'any') return null;
  if (column.kind === 'str') return column.value(i) ?? null;
  const v = column.values[i] ?? NaN;
  return Number.isNaN(v) ? null : v;
}

function wildcard(pattern: string): RegExp {
  return new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

export interface EngineOptions {
  /** Index names that answer empty instead of 404 when absent (per-organization event indices). */
  lenientPrefixes?: string[];
  /** Called with the index expression before it is resolved (lazy per-index data). */
  beforeResolve?: (expression: string) => void;
}

export class SearchEngine {
  constructor(
    private readonly store: () => DocStore,
    private readonly now: () => number,
    private readonly options: EngineOptions = {},
  ) {}

  search(expression: string, body: unknown): SearchResult {
    try {
      return { status: 200, json: this.run(expression, body) };
    } catch (err) {
      if (err instanceof EsError) return { status: err.status, json: err.body() };
      throw err;
    }
  }

  /** Index codes named by a comma-separated list of names and `*` patterns. */
  private resolve(store: DocStore, expression: string): Set<number> {
    this.options.beforeResolve?.(expression);
    const names = store.indexNames();
    const codes = new Set<number>();
    for (const part of expression.split(',').map((s) => s.trim()).filter((s) => s !== '')) {
      if (part === '_all' || part.includes('*')) {
        const re = part === '_all' ? /.*/ : wildcard(part);
        names.forEach((n, c) => re.test(n) && codes.add(c));
        continue;
      }
      const code = store.index.codeOf(part);
      if (code >= 0) codes.add(code);
      else if (!(this.options.lenientPrefixes ?? []).some((p) => part.startsWith(p))) {
        throw new EsError(404, 'index_not_found_exception', `no such index [${part}]`);
      }
    }
    return codes;
  }

  private run(expression: string, rawBody: unknown): Json {
    const started = Date.now();
    const store = this.store();
    const body = rawBody === undefined || rawBody === null ? {} : rawBody;
    if (!isJson(body)) throw parsingError('request body must be a JSON object');
    for (const key of Object.keys(body)) if (!BODY_KEYS.has(key)) throw parsingError(`Unknown key for a START_OBJECT in [${key}].`);
    const size = body['size'] ?? 10;
    const from = body['from'] ?? 0;
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 0) throw illegalArgument(`[size] parameter cannot be negative or fractional, found [${String(size)}]`);
    if (typeof from !== 'number' || !Number.isInteger(from) || from < 0) throw illegalArgument(`[from] parameter cannot be negative or fractional, found [${String(from)}]`);
    if (from + size > MAX_RESULT_WINDOW) {
      throw illegalArgument(`Result window is too large, from + size must be less than or equal to: [${MAX_RESULT_WINDOW}] but was [${from + size}].`);
    }

    const indexCodes = this.resolve(store, expression);
    const predicate = body['query'] === undefined ? () => true : compileQuery(store, body['query'], this.now());
    const aggs = parseAggs(store, body['aggs'] ?? body['aggregations']);
    const sort = parseSort(store, body['sort']);

    // Typed arrays and plain loops: this scan runs over every document of the store.
    const wanted = new Uint8Array(store.index.dict.length);
    for (const code of indexCodes) wanted[code] = 1;
    const indexOf = store.index.codes;
    const hitBuffer = new Int32Array(store.size);
    let count = 0;
    for (let i = 0; i < store.size; i++) if (wanted[indexOf[i] ?? 0] === 1 && predicate(i)) hitBuffer[count++] = i;
    const docs = hitBuffer.subarray(0, count);

    let page: number[] = [];
    if (size > 0) page = sort.length === 0 ? Array.from(docs.subarray(from, from + size)) : sortedPage(store, docs, sort, from, size);

    const sourceSpec = body['_source'];
    const includes = Array.isArray(sourceSpec) ? sourceSpec.filter((s): s is string => typeof s === 'string') : typeof sourceSpec === 'string' ? [sourceSpec] : null;
    const names = store.indexNames();
    const scored = sort.length === 0;
    const hits = page.map((i) => {
      const hit: Json = { _index: names[indexOf[i] ?? 0], _id: store.id(i), _score: scored ? 1 : null };
      if (sourceSpec !== false) hit['_source'] = includes ? pick(store.source(i), includes) : store.source(i);
      if (!scored) hit['sort'] = sort.map((k) => sortValue(store, k, i));
      return hit;
    });

    const track = body['track_total_hits'];
    const limit = track === true ? Infinity : typeof track === 'number' ? track : TRACK_TOTAL_DEFAULT;
    const hitsOut: Json = {};
    if (track !== false) hitsOut['total'] = { value: Math.min(docs.length, limit), relation: docs.length > limit ? 'gte' : 'eq' };
    hitsOut['max_score'] = scored && hits.length > 0 ? 1 : null;
    hitsOut['hits'] = hits;

    const out: Json = {
      took: Date.now() - started,
      timed_out: false,
      _shards: { total: indexCodes.size, successful: indexCodes.size, skipped: 0, failed: 0 },
      hits: hitsOut,
    };
    if (aggs.length > 0) out['aggregations'] = runAggs(store, aggs, docs);
    return out;
  }
}

/**
 * The `from`/`size` window of the documents in sort order. Sort values are read once into
 * arrays (numbers in a Float64Array, NaN for missing), then positions are sorted.
 */
function sortedPage(store: DocStore, docs: Int32Array, sort: SortKey[], from: number, size: number): number[] {
  const keys = sort.map((key) => {
    const numeric = new Float64Array(docs.length);
    const text: (string | null)[] = [];
    let isText = false;
    for (let k = 0; k < docs.length; k++) {
      const v = sortValue(store, key, docs[k] as number);
      if (typeof v === 'string') {
        isText = true;
        text[k] = v;
      } else {
        numeric[k] = v === null ? NaN : v;
        text[k] = null;
      }
    }
    return { desc: key.desc, isText, numeric, text };
  });
  const compare = (a: number, b: number): number => {
    for (const key of keys) {
      let diff: number;
      if (key.isText) {
        const va = key.text[a] ?? null;
        const vb = key.text[b] ?? null;
        if (va === vb) continue;
        if (va === null) return 1; // missing values last
        if (vb === null) return -1;
        diff = va < vb ? -1 : 1;
      } else {
        const va = key.numeric[a] ?? NaN;
        const vb = key.numeric[b] ?? NaN;
        if (va === vb || (Number.isNaN(va) && Number.isNaN(vb))) continue;
        if (Number.isNaN(va)) return 1;
        if (Number.isNaN(vb)) return -1;
        diff = va - vb;
      }
      return key.desc ? -diff : diff;
    }
    return a - b;
  };
  return topK(docs.length, from + size, compare)
    .slice(from)
    .map((k) => docs[k] as number);
}

/**
 * The first `k` of `n` positions in `compare` order, in order: a bounded max-heap keeps the
 * k best seen so far, so a page of 10 out of 100,000 costs n·log k comparisons, not n·log n.
 */
function topK(n: number, k: number, compare: (a: number, b: number) => number): number[] {
  const limit = Math.min(k, n);
  const heap: number[] = [];
  const swap = (x: number, y: number): void => {
    const t = heap[x] as number;
    heap[x] = heap[y] as number;
    heap[y] = t;
  };
  for (let pos = 0; pos < n && limit > 0; pos++) {
    if (heap.length < limit) {
      heap.push(pos);
      for (let c = heap.length - 1; c > 0; ) {
        const parent = (c - 1) >> 1;
        if (compare(heap[c] as number, heap[parent] as number) <= 0) break;
        swap(c, parent);
        c = parent;
      }
    } else if (compare(pos, heap[0] as number) < 0) {
      heap[0] = pos;
      for (let c = 0; ; ) {
        const l = 2 * c + 1;
        const r = l + 1;
        let worst = c;
        if (l < heap.length && compare(heap[l] as number, heap[worst] as number) > 0) worst = l;
        if (r < heap.length && compare(heap[r] as number, heap[worst] as number) > 0) worst = r;
        if (worst === c) break;
        swap(c, worst);
        c = worst;
      }
    }
  }
  return heap.sort(compare);
}

/** `_source` includes: keep fields whose dotted path equals or lies under an include (`*` allowed). */
function pick(source: Json, includes: string[]): Json {
  const tests = includes.map(wildcard);
  const walk = (node: Json, prefix: string): Json => {
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      const path = prefix === '' ? key : `${prefix}.${key}`;
      if (tests.some((t) => t.test(path))) out[key] = value;
      else if (isJson(value) && includes.some((inc) => inc.startsWith(`${path}.`) || inc.includes('*'))) {
        const inner = walk(value, path);
        if (Object.keys(inner).length > 0) out[key] = inner;
      }
    }
    return out;
  };
  return walk(source, '');
}

