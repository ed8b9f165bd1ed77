/**
 * Aggregations over a set of matching documents: `terms` (field, `size`, `min_doc_count`,
 * `order` by `_count`, `_key` or a metric sub-aggregation, asc/desc, ties broken by key ascending)
 * with nested sub-aggregations, and the single-value metrics `sum`, `avg`, `min`, `max`,
 * `value_count`, `cardinality`; and `date_histogram` (`fixed_interval` in ms/s/m/h/d, or a
 * `calendar_interval` of a minute, hour, day or week; buckets from the first to the last
 * document's interval, empty ones included unless `min_doc_count` ≥ 1; `extended_bounds` and
 * `offset`/`time_zone` are not implemented) with sub-aggregations. Parsed and checked completely
 * before any evaluation.
 */
import type { DocStore } from './doc-store';
import { EsError, illegalArgument, parsingError } from './es-error';
import { docValueField, type FieldRef } from './fields';

type Json = { [key: string]: unknown };

function isJson(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const METRICS = ['sum', 'avg', 'min', 'max', 'value_count', 'cardinality'] as const;
type MetricKind = (typeof METRICS)[number];

function isMetric(kind: string): kind is MetricKind {
  return (METRICS as readonly string[]).includes(kind);
}

interface OrderKey {
  by: '_count' | '_key' | string;
  desc: boolean;
}

type AggNode =
  | { name: string; kind: 'metric'; metric: MetricKind; field: FieldRef | null }
  | { name: string; kind: 'terms'; field: FieldRef | null; size: number; minDocCount: number; order: OrderKey[]; subs: AggNode[] }
  | { name: string; kind: 'date_histogram'; field: FieldRef | null; intervalMs: number; minDocCount: number; subs: AggNode[] };

const FIXED_UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const CALENDAR_UNITS: Readonly<Record<string, number>> = { minute: 60_000, '1m': 60_000, hour: 3_600_000, '1h': 3_600_000, day: 86_400_000, '1d': 86_400_000, week: 604_800_000, '1w': 604_800_000 };

function histogramInterval(name: string, body: Json): number {
  const fixed = body['fixed_interval'] ?? body['interval'];
  const calendar = body['calendar_interval'];
  if (typeof calendar === 'string') {
    const ms = CALENDAR_UNITS[calendar];
    if (ms === undefined) throw illegalArgument(`The supplied interval [${calendar}] could not be parsed as a calendar interval (the sandbox knows minute, hour, day, week).`);
    return ms;
  }
  if (typeof fixed !== 'string') throw illegalArgument(`Required one of fields [fixed_interval, calendar_interval], but none were specified in [${name}].`);
  const m = /^(\d+)(ms|s|m|h|d)$/.exec(fixed);
  if (!m || Number(m[1]) === 0) throw illegalArgument(`failed to parse setting [date_histogram.fixedInterval] with value [${fixed}] as a time value`);
  return Number(m[1]) * (FIXED_UNITS[m[2] ?? 's'] ?? 1000);
}

function parseOrder(name: string, raw: unknown, subs: AggNode[]): OrderKey[] {
  if (raw === undefined) return [{ by: '_count', desc: true }];
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((item) => {
    const entry = isJson(item) ? Object.entries(item)[0] : undefined;
    if (!entry || typeof entry[1] !== 'string' || !['asc', 'desc'].includes(entry[1].toLowerCase())) {
      throw parsingError(`[terms] aggregation [${name}]: order must be an object like { "_count": "desc" }`);
    }
    const by = entry[0] === '_term' ? '_key' : entry[0].replace(/\.value$/, '');
    if (by !== '_count' && by !== '_key') {
      const sub = subs.find((s) => s.name === by);
      if (!sub) throw new EsError(400, 'aggregation_execution_exception', `Invalid aggregator order path [${entry[0]}]. Unknown aggregation [${by}]`);
      if (sub.kind !== 'metric') {
        throw new EsError(400, 'aggregation_execution_exception', `Invalid aggregation order path [${entry[0]}]. Buckets can only be sorted on a sub-aggregator path that is built out of zero or more single-bucket aggregations within the path and a final single-bucket or a metrics aggregation at the path end.`);
      }
    }
    return { by, desc: entry[1].toLowerCase() === 'desc' };
  });
}

export function parseAggs(store: DocStore, spec: unknown): AggNode[] {
  if (spec === undefined) return [];
  if (!isJson(spec)) throw parsingError('[aggs] must be an object');
  return Object.entries(spec).map(([name, def]) => {
    if (!isJson(def)) throw parsingError(`Expected [START_OBJECT] under [${name}]`);
    const types = Object.keys(def).filter((k) => k !== 'aggs' && k !== 'aggregations' && k !== 'meta');
    const kind = types[0];
    if (types.length !== 1 || kind === undefined) throw parsingError(`Expected exactly one aggregation type under [${name}], found [${types.join(', ')}]`);
    const body = def[kind];
    if (!isJson(body)) throw parsingError(`[${kind}] aggregation [${name}] must be an object`);
    const fieldName = body['field'];
    if (typeof fieldName !== 'string') throw parsingError(`Required [field] missing for aggregation [${name}]`);
    const field = docValueField(store, fieldName);
    const subSpec = def['aggs'] ?? def['aggregations'];
    if (isMetric(kind)) {
      if (subSpec !== undefined) throw new EsError(400, 'aggregation_initialization_exception', `Aggregator [${name}] of type [${kind}] cannot accept sub-aggregations`);
      if (field && field.column.kind === 'str' && kind !== 'value_count' && kind !== 'cardinality') {
        throw illegalArgument(`Field [${fieldName}] of type [keyword] is not supported for aggregation [${kind}]`);
      }
      return { name, kind: 'metric', metric: kind, field };
    }
    if (kind === 'date_histogram') {
      if (field && field.column.kind === 'str') throw illegalArgument(`Field [${fieldName}] of type [keyword] is not supported for aggregation [date_histogram]`);
      const minDocCount = typeof body['min_doc_count'] === 'number' ? Math.max(0, body['min_doc_count']) : 0;
      return { name, kind: 'date_histogram', field, intervalMs: histogramInterval(name, body), minDocCount, subs: parseAggs(store, subSpec) };
    }
    if (kind !== 'terms') throw parsingError(`Unknown aggregation type [${kind}] did you mean [terms]?`);
    const size = body['size'] ?? 10;
    if (typeof size !== 'number' || !Number.isInteger(size) || size < 1) throw illegalArgument(`[size] must be greater than 0. Found [${String(size)}] in [${name}]`);
    const minDocCount = typeof body['min_doc_count'] === 'number' ? Math.max(1, body['min_doc_count']) : 1;
    const subs = parseAggs(store, subSpec);
    return { name, kind: 'terms', field, size, minDocCount, order: parseOrder(name, body['order'], subs), subs };
  });
}

function metricValue(store: DocStore, node: Extract<AggNode, { kind: 'metric' }>, docs: Int32Array): number | null {
  const column = node.field?.column;
  if (!column) return node.metric === 'sum' || node.metric === 'value_count' || node.metric === 'cardinality' ? 0 : null;
  if (column.kind === 'str') {
    if (node.metric === 'value_count') return docs.reduce((n, d) => n + ((column.codes[d] ?? -1) >= 0 ? 1 : 0), 0);
    return new Set(Array.from(docs, (d) => column.codes[d] ?? -1).filter((c) => c >= 0)).size;
  }
  if (column.kind === 'any') return null;
  const values = column.values;
  let count = 0;
  let sum = 0;
  let min = Infinity;
  let max = -Infinity;
  const seen = node.metric === 'cardinality' ? new Set<number>() : null;
  for (let k = 0; k < docs.length; k++) {
    const v = values[docs[k] as number] ?? NaN;
    if (Number.isNaN(v)) continue;
    count += 1;
    sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
    seen?.add(v);
  }
  switch (node.metric) {
    case 'sum':
      return sum;
    case 'value_count':
      return count;
    case 'cardinality':
      return seen?.size ?? 0;
    case 'avg':
      return count === 0 ? null : sum / count;
    case 'min':
      return count === 0 ? null : min;
    case 'max':
      return count === 0 ? null : max;
  }
}

interface Group {
  key: string | number;
  docs: Int32Array;
}

/** Splits the documents by the field's value in linear passes (counting sort on string codes). */
function group(ref: FieldRef, docs: Int32Array): Group[] {
  const column = ref.column;
  if (column.kind === 'str') {
    const counts = new Int32Array(column.dict.length);
    for (let k = 0; k < docs.length; k++) {
      const c = column.codes[docs[k] as number] ?? -1;
      if (c >= 0) counts[c] = (counts[c] ?? 0) + 1;
    }
    const out: (Group & { fill: number })[] = [];
    const slot = new Int32Array(column.dict.length).fill(-1);
    counts.forEach((n, c) => {
      if (n > 0) {
        slot[c] = out.length;
        out.push({ key: column.dict[c] as string, docs: new Int32Array(n), fill: 0 });
      }
    });
    for (let k = 0; k < docs.length; k++) {
      const d = docs[k] as number;
      const c = column.codes[d] ?? -1;
      if (c < 0) continue;
      const g = out[slot[c] as number];
      if (g) g.docs[g.fill++] = d;
    }
    return out;
  }
  if (column.kind === 'any') return [];
  const byValue = new Map<number, number[]>();
  for (let k = 0; k < docs.length; k++) {
    const d = docs[k] as number;
    const v = column.values[d] ?? NaN;
    if (Number.isNaN(v)) continue;
    const list = byValue.get(v);
    if (list) list.push(d);
    else byValue.set(v, [d]);
  }
  return [...byValue].map(([key, list]) => ({ key, docs: Int32Array.from(list) }));
}

function compareKeys(a: string | number, b: string | number): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function runTerms(store: DocStore, node: Extract<AggNode, { kind: 'terms' }>, docs: Int32Array): Record<string, unknown> {
  const groups = node.field ? group(node.field, docs).filter((g) => g.docs.length >= node.minDocCount) : [];
  // Only the metrics the order needs are computed for every bucket; the rest for the top ones.
  const orderValues = new Map<string, (number | null)[]>();
  for (const o of node.order) {
    if (o.by === '_count' || o.by === '_key' || orderValues.has(o.by)) continue;
    const sub = node.subs.find((s) => s.name === o.by);
    if (sub?.kind === 'metric') orderValues.set(o.by, groups.map((g) => metricValue(store, sub, g.docs)));
  }
  const positions = groups.map((_, i) => i);
  const keys = [...node.order, { by: '_key', desc: false }];
  positions.sort((x, y) => {
    const gx = groups[x] as Group;
    const gy = groups[y] as Group;
    for (const o of keys) {
      let diff: number;
      if (o.by === '_count') diff = gx.docs.length - gy.docs.length;
      else if (o.by === '_key') diff = compareKeys(gx.key, gy.key);
      else {
        const vx = orderValues.get(o.by)?.[x] ?? null;
        const vy = orderValues.get(o.by)?.[y] ?? null;
        if (vx === null || vy === null) {
          if (vx !== vy) return vx === null ? 1 : -1; // missing values last, either direction
          continue;
        }
        diff = vx - vy;
      }
      if (diff !== 0) return o.desc ? -diff : diff;
    }
    return 0;
  });
  const top = positions.slice(0, node.size);
  let other = 0;
  for (const p of positions.slice(node.size)) other += (groups[p] as Group).docs.length;
  const isDate = node.field?.column.kind === 'date';
  const buckets = top.map((p) => {
    const g = groups[p] as Group;
    const bucket: Record<string, unknown> = { key: g.key };
    if (isDate && typeof g.key === 'number') bucket['key_as_string'] = new Date(g.key).toISOString();
    bucket['doc_count'] = g.docs.length;
    for (const sub of node.subs) {
      const known = orderValues.get(sub.name);
      bucket[sub.name] = known ? { value: known[p] ?? null } : runOne(store, sub, g.docs);
    }
    return bucket;
  });
  return { doc_count_error_upper_bound: 0, sum_other_doc_count: other, buckets };
}

/** Buckets of `intervalMs` aligned on the epoch, oldest first; gaps filled unless `min_doc_count` ≥ 1. */
function runHistogram(store: DocStore, node: Extract<AggNode, { kind: 'date_histogram' }>, docs: Int32Array): Record<string, unknown> {
  const column = node.field?.column;
  const byStart = new Map<number, number[]>();
  if (column && column.kind !== 'str' && column.kind !== 'any') {
    for (let k = 0; k < docs.length; k++) {
      const d = docs[k] as number;
      const v = column.values[d] ?? NaN;
      if (Number.isNaN(v)) continue;
      const start = Math.floor(v / node.intervalMs) * node.intervalMs;
      const list = byStart.get(start);
      if (list) list.push(d);
      else byStart.set(start, [d]);
    }
  }
  const starts = [...byStart.keys()].sort((a, b) => a - b);
  const first = starts[0];
  const last = starts.at(-1);
  const keys: number[] = [];
  if (first !== undefined && last !== undefined) {
    if (node.minDocCount === 0) for (let t = first; t <= last; t += node.intervalMs) keys.push(t);
    else keys.push(...starts.filter((t) => (byStart.get(t)?.length ?? 0) >= node.minDocCount));
  }
  const buckets = keys.map((key) => {
    const bucketDocs = Int32Array.from(byStart.get(key) ?? []);
    const bucket: Record<string, unknown> = { key_as_string: new Date(key).toISOString(), key, doc_count: bucketDocs.length };
    for (const sub of node.subs) bucket[sub.name] = runOne(store, sub, bucketDocs);
    return bucket;
  });
  return { buckets };
}

function runOne(store: DocStore, node: AggNode, docs: Int32Array): Record<string, unknown> {
  if (node.kind === 'metric') return { value: metricValue(store, node, docs) };
  return node.kind === 'terms' ? runTerms(store, node, docs) : runHistogram(store, node, docs);
}

export function runAggs(store: DocStore, nodes: AggNode[], docs: Int32Array): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const node of nodes) out[node.name] = runOne(store, node, docs);
  return out;
}

export type { AggNode };
