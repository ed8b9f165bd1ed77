/**
 * What the event fields return (the mappers of events.graphql): search answers read into the
 * schema's shapes. Aggregation buckets become plain objects; hits stay `SearchHitRecord`.
 */
import { bucketsOf, metricOf, otherDocsOf, type SearchAnswer } from '../../upstream/search/records';

export interface TopTalkerAddressRecord {
  address: string;
  received: number;
  documents: number;
}
export interface TopTalkerRecord {
  sourceId: string;
  transmitted: number;
  documents: number;
  addresses: TopTalkerAddressRecord[];
  otherAddressDocuments: number;
}
export interface TopTalkersRecord {
  from: string;
  to: string;
  sources: TopTalkerRecord[];
  otherSourceDocuments: number;
}
export interface UsagePointRecord {
  /** RFC 3339. */
  at: string;
  transmitted: number;
  received: number;
  documents: number;
}
export interface UsageSeriesRecord {
  from: string;
  to: string;
  interval: string;
  points: UsagePointRecord[];
}

/** Event search's top-talker answer: `zfw_source` buckets (sum `circuit_tx`), each with `saddr` buckets (sum `circuit_rx`). */
export function topTalkersOf(answer: SearchAnswer, window: { from: string; to: string }): TopTalkersRecord {
  return {
    ...window,
    sources: bucketsOf(answer.aggregations, 'zfw_source').map((source) => ({
      sourceId: source.key,
      transmitted: metricOf(source.sub, 'circuit_tx'),
      documents: source.docCount,
      addresses: bucketsOf(source.sub, 'saddr').map((a) => ({ address: a.key, received: metricOf(a.sub, 'circuit_rx'), documents: a.docCount })),
      otherAddressDocuments: otherDocsOf(source.sub, 'saddr'),
    })),
    otherSourceDocuments: otherDocsOf(answer.aggregations, 'zfw_source'),
  };
}

/**
 * The `usage` date histogram as a series with one point per interval from the window's start to
 * its end: intervals the service left out (no documents) are zero, whatever its `min_doc_count`
 * and bounds behaviour.
 */
export function usageSeriesOf(answer: SearchAnswer, window: { from: string; to: string; fromMs: number; toMs: number }, interval: string, intervalMs: number): UsageSeriesRecord {
  const byStart = new Map<number, UsagePointRecord>();
  for (const b of bucketsOf(answer.aggregations, 'usage')) {
    const start = b.keyNumber ?? Date.parse(b.key);
    if (Number.isNaN(start)) continue;
    byStart.set(start, { at: new Date(start).toISOString(), transmitted: metricOf(b.sub, 'circuit_tx'), received: metricOf(b.sub, 'circuit_rx'), documents: b.docCount });
  }
  const points: UsagePointRecord[] = [];
  for (let t = Math.floor(window.fromMs / intervalMs) * intervalMs; t <= window.toMs; t += intervalMs) {
    points.push(byStart.get(t) ?? { at: new Date(t).toISOString(), transmitted: 0, received: 0, documents: 0 });
  }
  return { from: window.from, to: window.to, interval, points };
}
