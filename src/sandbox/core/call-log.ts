/**
 * The call log of contract calls: counts by `METHOD template` (the benchmark's upstream call
 * counts, and tests' exact call counts), and a record of the last MAX_RECORDED_REQUESTS calls
 * with what was sent (so gateway tests can check the bodies of their changes). Both cover the
 * same calls and are cleared together.
 */
import { isJsonType, mediaType } from './body';

export interface CallCounts {
  total: number;
  byRoute: Record<string, number>;
}

/** One contract call as the sandbox received it. Headers are not kept (no Authorization, ever). */
export interface RecordedRequest {
  /** The call's number in the counter: 1 for the first call since the last reset, so the last record's seq is `calls().total`. */
  seq: number;
  method: string;
  /** The route template, as in `calls().byRoute` (`/rest/v1/networks/{networkId}`). */
  route: string;
  /** The request path without the query string, as sent (percent-encoding kept). */
  path: string;
  /** Query parameters; a parameter given more than once is an array of its values in order. */
  query: Record<string, string | string[]>;
  /** The Content-Type header as sent (parameters included), null when absent. */
  contentType: string | null;
  /**
   * The body: parsed JSON when the media type is JSON (`application/json`, `*+json`) and it
   * parses; the text otherwise (CSV, YAML, malformed JSON); null when empty or over the size limit.
   */
  body: unknown;
}

/**
 * When one contract call arrived and when its answer was written (`performance.now()` ms in the
 * sandbox's process): tests count the sequential round trips ("waves") a gateway makes.
 */
export interface CallTiming {
  /** As in RecordedRequest: 1 for the first call since the last reset. */
  seq: number;
  method: string;
  route: string;
  path: string;
  /** The request was routed and its body read (before latency and faults). */
  receivedMs: number;
  /** The response was handed to the socket; null while unanswered (or when the socket was dropped). */
  answeredMs: number | null;
}

/** What a request brings to the log; the body is kept as text and parsed when read. */
export interface CallRecordInput {
  method: string;
  route: string;
  path: string;
  query: URLSearchParams;
  contentType: string | null;
  rawBody: string | null;
}

/** The record keeps the last this many calls (the benchmark makes thousands; tests need a few). */
export const MAX_RECORDED_REQUESTS = 2000;

interface StoredRequest extends Omit<RecordedRequest, 'body'> {
  rawBody: string | null;
}

export class CallLog {
  private counts = new Map<string, number>();
  private total = 0;
  /** Oldest first; at most MAX_RECORDED_REQUESTS. */
  private recorded: StoredRequest[] = [];
  /** Oldest first; at most MAX_RECORDED_REQUESTS, like `recorded`. */
  private timed: CallTiming[] = [];

  /** Logs one call; the answer is `seq`, for `answered(seq)`. */
  record(call: CallRecordInput): number {
    const key = `${call.method} ${call.route}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
    this.total += 1;
    this.recorded.push({
      seq: this.total,
      method: call.method,
      route: call.route,
      path: call.path,
      query: queryRecord(call.query),
      contentType: call.contentType,
      rawBody: call.rawBody === '' ? null : call.rawBody,
    });
    if (this.recorded.length > MAX_RECORDED_REQUESTS) this.recorded.shift();
    this.timed.push({ seq: this.total, method: call.method, route: call.route, path: call.path, receivedMs: performance.now(), answeredMs: null });
    if (this.timed.length > MAX_RECORDED_REQUESTS) this.timed.shift();
    return this.total;
  }

  /** Marks call `seq` answered now (a call no longer recorded, or from before a reset, is ignored). */
  answered(seq: number): void {
    const first = this.timed[0];
    if (first === undefined) return;
    const timing = this.timed[seq - first.seq];
    if (timing !== undefined && timing.seq === seq) timing.answeredMs = performance.now();
  }

  /** Arrival and answer times of the recorded calls, oldest first (copies). */
  timings(): CallTiming[] {
    return this.timed.map((t) => ({ ...t }));
  }

  snapshot(): CallCounts {
    const byRoute: Record<string, number> = {};
    for (const [key, count] of [...this.counts.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      byRoute[key] = count;
    }
    return { total: this.total, byRoute };
  }

  /**
   * The recorded calls, oldest first. Bodies are parsed here, on every read, so callers get
   * their own copies and the hot path (the benchmark) pays nothing for bodies nobody reads.
   */
  requests(): RecordedRequest[] {
    return this.recorded.map(({ rawBody, query, ...rest }) => ({
      ...rest,
      query: structuredClone(query),
      body: readBody(rawBody, rest.contentType),
    }));
  }

  reset(): void {
    this.counts.clear();
    this.total = 0;
    this.recorded = [];
    this.timed = [];
  }
}

function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  // Through a Map and fromEntries, so a parameter named `__proto__` stays an ordinary key.
  const byName = new Map<string, string | string[]>();
  for (const [name, value] of params) {
    const seen = byName.get(name);
    byName.set(name, seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value]);
  }
  return Object.fromEntries(byName);
}

function readBody(rawBody: string | null, contentType: string | null): unknown {
  if (rawBody === null) return null;
  if (!isJsonType(mediaType(contentType ?? undefined))) return rawBody;
  try {
    return JSON.parse(rawBody) as unknown;
  } catch {
    return rawBody;
  }
}
