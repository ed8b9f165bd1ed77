/**
 * Where a request's time goes inside a server (the gateway, or a floor), read from Node's and
 * undici's diagnostics channels, with no change to the server:
 *
 * - before: the request arrived → its first upstream call was created (read the body, parse,
 *   validate, plan, start executing);
 * - upstream: first call created → the last call's body received (the round trips);
 * - after: last body received → the answer handed to the socket (parse, resolve, serialize, write).
 *
 * Upstream calls cannot be told apart by the request they serve, so a request is counted only when
 * it was the server's only one open from start to finish (the latency phases run one at a time);
 * requests with no upstream call are not counted either.
 *
 * The clock listens only between start() and stop(): while nobody listens, Node and undici publish
 * nothing, so the throughput phases measure the server without it.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { isObject } from '../src/core/parse';
import { median } from './stats';

/** Medians over the requests counted since the last reset (ms). */
export interface PhaseSummary {
  requests: number;
  beforeMs: number;
  upstreamMs: number;
  afterMs: number;
  totalMs: number;
}

export interface PhaseClock {
  /** Forgets what was counted and listens from now on. */
  start(): void;
  /** What was counted since start(), and listens no more; null when no request was counted. */
  stop(): PhaseSummary | null;
}

/** The pure part of a clock: what was counted, fed events with their times. */
export interface PhaseRecorder {
  requestStart(key: object, at: number): void;
  callCreated(at: number): void;
  callDone(at: number): void;
  requestFinish(key: object, at: number): void;
  reset(): void;
  /** Null when no request was counted. */
  read(): PhaseSummary | null;
}

interface Open {
  start: number;
  firstCall: number | null;
  lastBody: number | null;
  /** Another request was open at some time during this one. */
  shared: boolean;
}

interface Timed {
  before: number;
  upstream: number;
  after: number;
  total: number;
}

export function createPhaseRecorder(): PhaseRecorder {
  const open = new Map<object, Open>();
  let done: Timed[] = [];
  return {
    requestStart(key, at) {
      for (const other of open.values()) other.shared = true;
      open.set(key, { start: at, firstCall: null, lastBody: null, shared: open.size > 0 });
    },
    callCreated(at) {
      for (const r of open.values()) r.firstCall ??= at;
    },
    callDone(at) {
      for (const r of open.values()) r.lastBody = at;
    },
    requestFinish(key, at) {
      const r = open.get(key);
      if (r === undefined) return;
      open.delete(key);
      if (r.shared || r.firstCall === null || r.lastBody === null) return;
      done.push({ before: r.firstCall - r.start, upstream: r.lastBody - r.firstCall, after: at - r.lastBody, total: at - r.start });
    },
    reset() {
      done = [];
    },
    read() {
      if (done.length === 0) return null;
      const of = (pick: (t: Timed) => number): number => Math.round(median(done.map(pick)) * 1000) / 1000;
      return { requests: done.length, beforeMs: of((t) => t.before), upstreamMs: of((t) => t.upstream), afterMs: of((t) => t.after), totalMs: of((t) => t.total) };
    },
  };
}

/** A recorder fed from this process's diagnostics channels (Node's HTTP server, undici's requests) while started. */
export function createPhaseClock(): PhaseClock {
  const recorder = createPhaseRecorder();
  const now = (): number => performance.now();
  const responseOf = (message: unknown): object | null => (isObject(message) && isObject(message['response']) ? message['response'] : null);
  const listeners: ReadonlyArray<[string, (message: unknown) => void]> = [
    ['http.server.request.start', (message) => {
      const key = responseOf(message);
      if (key) recorder.requestStart(key, now());
    }],
    ['http.server.response.finish', (message) => {
      const key = responseOf(message);
      if (key) recorder.requestFinish(key, now());
    }],
    ['undici:request:create', () => recorder.callCreated(now())],
    ['undici:request:trailers', () => recorder.callDone(now())],
    ['undici:request:error', () => recorder.callDone(now())],
  ];
  let listening = false;
  return {
    start() {
      recorder.reset();
      if (!listening) for (const [name, listener] of listeners) subscribe(name, listener);
      listening = true;
    },
    stop() {
      if (listening) for (const [name, listener] of listeners) unsubscribe(name, listener);
      listening = false;
      return recorder.read();
    },
  };
}

/** A PhaseSummary sent over IPC (or null), checked. */
export function readPhaseSummary(value: unknown): PhaseSummary | null {
  if (value === null) return null;
  if (!isObject(value)) throw new Error('phases: expected an object or null');
  const num = (name: keyof PhaseSummary): number => {
    const n = value[name];
    if (typeof n !== 'number' || !Number.isFinite(n)) throw new Error(`phases.${name}: expected a finite number`);
    return n;
  };
  return { requests: num('requests'), beforeMs: num('beforeMs'), upstreamMs: num('upstreamMs'), afterMs: num('afterMs'), totalMs: num('totalMs') };
}
