/**
 * Search bodies the gateway sends, built in one place, in the shape the search service takes:
 * always a `range` filter on `@timestamp` (`format: strict_date_optional_time`, `gte`/`lte` as
 * RFC 3339 or date math), `.keyword` fields for exact matches and aggregations, `size: 0` when
 * only aggregations are wanted.
 */
import type { JsonObject } from '../../core/parse';

/** A time window as the caller gave it (already checked: RFC 3339 or date math). */
export interface TimeWindow {
  from: string;
  to: string;
}

/** Index patterns of the search service. Alerts: `svc.alert*` (the platform names it in prose only). */
export const USAGE_INDEX = 'zfw.events*';
export const ALERT_INDEX = 'svc.alert*';

export function timeFilter(window: TimeWindow): JsonObject {
  return { range: { '@timestamp': { format: 'strict_date_optional_time', gte: window.from, lte: window.to } } };
}

/** The platform's top-talker aggregation: sources by transmitted bytes, per source its addresses by received bytes. */
export function topTalkersBody(window: TimeWindow, limit: number, addressLimit: number): JsonObject {
  return {
    size: 0,
    query: { bool: { filter: [timeFilter(window)] } },
    aggs: {
      zfw_source: {
        terms: { field: 'zfw.source_id.keyword', order: { circuit_tx: 'desc' }, size: limit },
        aggs: {
          circuit_tx: { sum: { field: 'zfw.usage.circuit.tx' } },
          saddr: {
            terms: { field: 'zfw.saddr.keyword', order: { circuit_rx: 'desc' }, size: addressLimit },
            aggs: { circuit_rx: { sum: { field: 'zfw.usage.circuit.rx' } } },
          },
        },
      },
    },
  };
}

/**
 * A page of hits, newest first: `@timestamp` descending, ties broken by index
 * order (`_doc`), so offsets are stable and consecutive pages neither overlap nor skip.
 */
export function hitsBody(window: TimeWindow, filters: readonly JsonObject[], from: number, size: number): JsonObject {
  return {
    size,
    from,
    track_total_hits: true,
    query: { bool: { filter: [timeFilter(window), ...filters] } },
    sort: [{ '@timestamp': 'desc' }, '_doc'],
  };
}

/** Usage over time: a `date_histogram` with transmitted and received sums per bucket. */
export function usageSeriesBody(window: TimeWindow, interval: string): JsonObject {
  return {
    size: 0,
    query: { bool: { filter: [timeFilter(window)] } },
    aggs: {
      usage: {
        date_histogram: { field: '@timestamp', fixed_interval: interval, min_doc_count: 0 },
        aggs: { circuit_tx: { sum: { field: 'zfw.usage.circuit.tx' } }, circuit_rx: { sum: { field: 'zfw.usage.circuit.rx' } } },
      },
    },
  };
}
