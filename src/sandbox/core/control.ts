/**
 * The sandbox-only control path, `/__sandbox/…` (no auth, never logged, never faulted), and the
 * same operations in-process through `SandboxControl`:
 *
 * | method | path | body / answer |
 * |---|---|---|
 * | POST | /__sandbox/reset | `{ seed?: 'tiny'\|'demo'\|'large' }` → 200 `{ seed }`: reseeds every area, clears the call log and the async failure rules |
 * | GET | /__sandbox/faults | the active rules |
 * | POST | /__sandbox/faults | a rule, an array of rules or `{ rules: [...] }` (replaces the rules) → 200 `{ rules }` |
 * | DELETE | /__sandbox/faults | removes every rule → 204 |
 * | GET | /__sandbox/async-failures | the active failure rules for asynchronous progress (`{ rules }`) |
 * | POST | /__sandbox/async-failures | a rule, an array of rules or `{ rules: [...] }` (added after the others) → 200 `{ rules }` |
 * | DELETE | /__sandbox/async-failures | removes every failure rule → 204 |
 * | GET, POST | /__sandbox/latency | `{ latencyMs }`: the fixed latency added to every contract call |
 * | GET | /__sandbox/calls | `{ total, byRoute: { "GET /rest/v1/networks": 3 } }` |
 * | DELETE | /__sandbox/calls | clears the call log (counts and recorded requests) → 204 |
 * | GET | /__sandbox/requests | `{ requests: RecordedRequest[] }`: the last 2000 contract calls with what was sent |
 * | GET | /__sandbox/timings | `{ timings: CallTiming[] }`: when each of those calls arrived and was answered |
 * | GET | /__sandbox/describe | the seed's key facts (ids of the first network group, network, …) |
 * | GET | /__sandbox/caching | `{ rules, notModified }`: the caching mode's rules and the 304s answered since the call log was cleared |
 * | POST | /__sandbox/caching | a rule, an array of rules or `{ rules: [...] }` (replaces the rules; `[]` turns the mode off) → 200 the state |
 * | DELETE | /__sandbox/caching | turns the caching mode off → 204 |
 * | POST | /__sandbox/status | `{ kind: 'network'\|'endpoint'\|'service'\|'appWan', id, status }` → 200 the same: sets a rest/v1 resource's status now (404 unknown id) |
 */
import { parseAsyncFailureRules, type AsyncFailureRule } from './async-failures';
import { parseCachingRules, type CachingRule, type CachingState } from './caching';
import type { CallCounts, CallTiming, RecordedRequest } from './call-log';
import { isRecord, parseFaultRules, type FaultRule } from './faults';
import { HttpError, type AsyncChangeKind, type SandboxRoute, type SeedSize } from './types';

export interface SandboxFacts {
  seed: SeedSize;
  /** Facts per area (rest/v1's are RestV1Facts, see rest-v1/seed.ts). */
  areas: Record<string, unknown>;
}

export interface SandboxControl {
  reset(seed?: SeedSize): void;
  setFaults(rules: FaultRule[]): void;
  clearFaults(): void;
  faults(): FaultRule[];
  /**
   * Makes the next matching asynchronous change fail (see async-failures.ts); one rule or several.
   * A bad rule throws HttpError 400 naming the field, and none is added. Rules add up (unlike
   * `setFaults`, which replaces); `reset()` clears them.
   */
  failAsync(rule: AsyncFailureRule | readonly AsyncFailureRule[]): void;
  /** The active failure rules, `times` counting what is left. */
  asyncFailures(): AsyncFailureRule[];
  clearAsyncFailures(): void;
  setLatency(ms: number): void;
  latency(): number;
  calls(): CallCounts;
  /** The last MAX_RECORDED_REQUESTS contract calls, oldest first, with their bodies. */
  requests(): RecordedRequest[];
  /**
   * When each of the same calls arrived and was answered (sandbox clock, ms), oldest first: the
   * sequential round trips of a gateway's operation are the "waves" of these intervals.
   */
  timings(): CallTiming[];
  /** Clears the counts and the recorded requests. */
  resetCalls(): void;
  describe(): SandboxFacts;
  /** The caching mode (caching.ts): rules replace the old ones; none is off (the default). */
  setCaching(rules: CachingRule[]): void;
  caching(): CachingState;
  clearCaching(): void;
  /**
   * Sets a rest/v1 resource's `status` now, as the platform may on its own (a gateway reaching
   * ERROR), dropping what was scheduled for it. Throws HttpError 404 for an unknown id.
   */
  setStatus(change: StatusChange): void;
}

/** `setStatus`'s argument (and `POST /__sandbox/status`'s body). */
export interface StatusChange {
  kind: AsyncChangeKind;
  id: string;
  /** A life-cycle code (100 NEW … 500 ERROR … 900 DELETED). */
  status: number;
}

const STATUS_KINDS: readonly AsyncChangeKind[] = ['network', 'endpoint', 'service', 'appWan'];
const isStatusKind = (value: unknown): value is AsyncChangeKind => (STATUS_KINDS as readonly unknown[]).includes(value);

function parseStatusChange(body: unknown): StatusChange {
  if (!isRecord(body)) throw new HttpError(400, 'body must be an object { kind, id, status }');
  const { kind, id, status } = body;
  if (!isStatusKind(kind)) throw new HttpError(400, `kind must be one of ${STATUS_KINDS.join(', ')}`);
  if (typeof id !== 'string' || id === '') throw new HttpError(400, 'id must be a non-empty string');
  if (typeof status !== 'number' || !Number.isInteger(status) || status < 0) throw new HttpError(400, 'status must be an integer >= 0');
  return { kind, id, status };
}

export const SEED_SIZES: readonly SeedSize[] = ['tiny', 'demo', 'large'];

export function isSeedSize(value: unknown): value is SeedSize {
  return typeof value === 'string' && (SEED_SIZES as readonly string[]).includes(value);
}

export function createControlRoutes(control: SandboxControl): SandboxRoute[] {
  const route = (method: SandboxRoute['method'], name: string, handle: SandboxRoute['handle']): SandboxRoute => ({
    method,
    template: `/__sandbox/${name}`,
    auth: 'none',
    handle,
  });
  return [
    route('POST', 'reset', (req) => {
      const seed = isRecord(req.json) ? req.json['seed'] : undefined;
      if (seed !== undefined && !isSeedSize(seed)) throw new HttpError(400, `seed must be one of ${SEED_SIZES.join(', ')}`);
      control.reset(seed);
      return { status: 200, json: { seed: control.describe().seed } };
    }),
    route('GET', 'faults', () => ({ status: 200, json: { rules: control.faults() } })),
    route('POST', 'faults', (req) => {
      control.setFaults(parseFaultRules(req.json));
      return { status: 200, json: { rules: control.faults() } };
    }),
    route('DELETE', 'faults', () => {
      control.clearFaults();
      return { status: 204 };
    }),
    route('GET', 'async-failures', () => ({ status: 200, json: { rules: control.asyncFailures() } })),
    route('POST', 'async-failures', (req) => {
      control.failAsync(parseAsyncFailureRules(req.json));
      return { status: 200, json: { rules: control.asyncFailures() } };
    }),
    route('DELETE', 'async-failures', () => {
      control.clearAsyncFailures();
      return { status: 204 };
    }),
    route('GET', 'latency', () => ({ status: 200, json: { latencyMs: control.latency() } })),
    route('POST', 'latency', (req) => {
      const ms = isRecord(req.json) ? req.json['latencyMs'] : undefined;
      if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0) throw new HttpError(400, 'latencyMs must be a number >= 0');
      control.setLatency(ms);
      return { status: 200, json: { latencyMs: ms } };
    }),
    route('GET', 'calls', () => ({ status: 200, json: control.calls() })),
    route('DELETE', 'calls', () => {
      control.resetCalls();
      return { status: 204 };
    }),
    route('GET', 'requests', () => ({ status: 200, json: { requests: control.requests() } })),
    route('GET', 'timings', () => ({ status: 200, json: { timings: control.timings() } })),
    route('GET', 'describe', () => ({ status: 200, json: control.describe() })),
    route('GET', 'caching', () => ({ status: 200, json: control.caching() })),
    route('POST', 'caching', (req) => {
      control.setCaching(parseCachingRules(req.json));
      return { status: 200, json: control.caching() };
    }),
    route('DELETE', 'caching', () => {
      control.clearCaching();
      return { status: 204 };
    }),
    route('POST', 'status', (req) => {
      const change = parseStatusChange(req.json);
      control.setStatus(change);
      return { status: 200, json: change };
    }),
  ];
}
