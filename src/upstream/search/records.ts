/**
 * Search answers (the ordinary Elasticsearch response: `hits { total, hits [ { _index, _id, _source, sort } ] }`,
 * `aggregations`) read into typed records. Lenient like every record here: a hit needs `_id`,
 * anything else absent reads as null; a body without `hits` is not a search answer (ShapeError).
 */
import { Fields, isObject, type JsonObject } from '../../core/parse';
import { ShapeError } from '../../errors/shape-error';

export interface SearchHitRecord {
  index: string | null;
  id: string;
  source: JsonObject;
}

export interface SearchAnswer {
  /** `hits.total.value` (or a bare number); null when the service left it out. */
  total: number | null;
  hits: SearchHitRecord[];
  aggregations: JsonObject;
}

export function parseSearchAnswer(body: unknown): SearchAnswer {
  const f = Fields.of(body, 'search answer');
  const hits = f.object('hits');
  if (hits === null) throw new ShapeError('search answer: hits missing');
  const rawTotal = hits['total'];
  const total = typeof rawTotal === 'number' ? rawTotal : isObject(rawTotal) && typeof rawTotal['value'] === 'number' ? rawTotal['value'] : null;
  const list = Array.isArray(hits['hits']) ? hits['hits'] : [];
  return {
    total,
    hits: list.map((h) => {
      const hf = Fields.of(h, 'search hit');
      return { index: hf.str('_index'), id: hf.id('_id'), source: hf.object('_source') ?? {} };
    }),
    aggregations: f.object('aggregations') ?? {},
  };
}

/** One `terms` or `date_histogram` bucket with the sums asked for. */
export interface BucketRecord {
  key: string;
  /** The numeric key (date histograms: epoch ms); null for a string key. */
  keyNumber: number | null;
  docCount: number;
  /** Sub-aggregations of the bucket, by name. */
  sub: JsonObject;
}

/** The buckets of aggregation `name` in `aggs`; a missing aggregation is an empty list. */
export function bucketsOf(aggs: JsonObject, name: string): BucketRecord[] {
  const agg = aggs[name];
  if (!isObject(agg)) return [];
  const buckets = agg['buckets'];
  if (!Array.isArray(buckets)) throw new ShapeError(`aggregations.${name}.buckets: expected an array`);
  return buckets.filter(isObject).map((b) => {
    const key = b['key_as_string'] ?? b['key'];
    return { key: typeof key === 'string' ? key : String(key), keyNumber: typeof b['key'] === 'number' ? b['key'] : null, docCount: typeof b['doc_count'] === 'number' ? b['doc_count'] : 0, sub: b };
  });
}

/** A single-value metric (`sum`): its `value`, 0 when absent or null. */
export function metricOf(aggs: JsonObject, name: string): number {
  const agg = aggs[name];
  if (!isObject(agg)) return 0;
  return typeof agg['value'] === 'number' ? agg['value'] : 0;
}

/** `sum_other_doc_count` of a terms aggregation; 0 when absent. */
export function otherDocsOf(aggs: JsonObject, name: string): number {
  const agg = aggs[name];
  return isObject(agg) && typeof agg['sum_other_doc_count'] === 'number' ? agg['sum_other_doc_count'] : 0;
}
