/**
 * Command-line flags of `npm run bench`. Every flag has a default that gives the documented full
 * run; the smoke test passes the same options object directly.
 */
export type GatewayMode = 'child' | 'in-process';

export interface BenchOptions {
  /** Sandbox data set. */
  seed: 'large' | 'demo' | 'tiny';
  /** Fixed latency the sandbox adds to every call during the latency phase. */
  latencyMs: number;
  /** Timed iterations per query at concurrency 1. */
  iterations: number;
  /** Length of each throughput phase. */
  durationMs: number;
  /** Workers in the throughput phase. */
  concurrency: number;
  /** Query names to run (empty: all). */
  only: string[];
  /** Where results.json goes (null: not written). */
  out: string | null;
  /** Gateway in a child process (default for real runs: its CPU is not shared with the load generator's event loop) or in this process. */
  gateway: GatewayMode;
  /** Skip the pass-through baseline. */
  skipPassthrough: boolean;
  /** Skip the floors (pass-through floor servers, direct GET latency, each query's CPU and p50 floors). */
  skipFloors: boolean;
  /**
   * Data scales of the networkGraph scale series (the seed's networks × each; empty: no series).
   * The first is the reference the growth check compares the others with.
   */
  scales: number[];
  /** `--scenario subscribers`: run only the subscribers scenario (bench/subscribers.ts) and add its figures to results.json; `--scenario defer`: the console page with a slow field (bench/defer-scenario.ts), likewise. */
  scenario: 'queries' | 'subscribers' | 'defer';
  /** WebSocket subscribers of the subscribers scenario. */
  subscribers: number;
  /** Subscriptions on each socket of the subscribers scenario (a console tab follows more than one thing). */
  perSocket: number;
  /** Gateway replicas of the subscribers scenario (more than 1: a fleet on one Redis, `--subscribers` followers on each). */
  replicas: number;
  /** `--warm`: the subscribers scenario's gateway serves a short query load before its baseline is read (the young generation grown already). */
  warm: boolean;
  /** `--snapshots DIR`: the subscribers scenario writes the gateway's heap snapshots there, before any socket and after every first event (bench/heap-diff.ts reads them). */
  snapshots: string | null;
  /** `--semi-space MB`: the gateway (and every child) runs with `NODE_OPTIONS=--max-semi-space-size=MB`, a query-heavy replica's young generation; none: V8's own, as deployed by default. */
  semiSpaceMb: number | null;
  /** `--churn SECONDS`: the subscribers scenario's followers come and go for that long once everyone has left (bench/churn.ts); 0: not run. */
  churnSeconds: number;
  /** Skip the fault scenario (bench/fault-scenario.ts). */
  skipFaults: boolean;
  /** Run the fault scenario only, adding its figures to an existing results file. */
  faultsOnly: boolean;
}

export const DEFAULT_OPTIONS: BenchOptions = {
  seed: 'large',
  latencyMs: 10,
  iterations: 50,
  durationMs: 5000,
  concurrency: 32,
  only: [],
  out: 'bench/results.json',
  gateway: 'child',
  skipPassthrough: false,
  skipFloors: false,
  scales: [1, 2, 4],
  scenario: 'queries',
  subscribers: 2000,
  perSocket: 2,
  replicas: 1,
  warm: false,
  snapshots: null,
  semiSpaceMb: null,
  churnSeconds: 0,
  skipFaults: false,
  faultsOnly: false,
};

export const USAGE = `usage: npm run bench -- [flags]
  --seed large|demo|tiny   sandbox data (default large)
  --latency-ms N           per-call upstream latency for the latency phase (default 10)
  --iterations N           timed runs per query at concurrency 1 (default 50)
  --duration T             each throughput phase, e.g. 5, 5s, 500ms (default 5s)
  --concurrency N          workers in the throughput phase (default 32)
  --only NAME[,NAME]       run only these queries (repeatable)
  --out PATH               results file (default bench/results.json; "-" to skip)
  --gateway child|in-process  where the gateway runs (default child)
  --no-passthrough         skip the pass-through baseline (and its floor servers)
  --no-floors              skip the floors (floor servers, direct GET latency, each query's CPU and p50 floors)
  --scales N[,N]           networkGraph scale series at these data scales (default 1,2,4)
  --no-scale               skip the scale series
  --scenario subscribers   run only the subscribers scenario (networkChanges followers), adding its figures to results.json
  --subscribers N          WebSocket subscribers of that scenario (default 2000)
  --per-socket N           subscriptions per socket in that scenario (default 2: N/2 sockets)
  --replicas R             that scenario on R gateways sharing one Redis (N followers on each; default 1)
  --churn SECONDS          that scenario then has followers come and go for SECONDS (1,000 a round): memory and polls after
  --semi-space MB          children run with NODE_OPTIONS=--max-semi-space-size=MB (a query-heavy replica's young generation)
  --snapshots DIR          that scenario writes the gateway's heap snapshots to DIR (before.heapsnapshot, after.heapsnapshot)
  --warm                   that scenario's gateway serves a short query load before its baseline (memory of a warmed replica)
  --scenario defer         run only the defer scenario (a console page whose event search is held 2 s: @defer's first part vs the whole), adding its figures to results.json

  --no-faults              skip the fault scenario (half the rest/v1 GETs failing)
  --faults-only            run the fault scenario alone; its figures are added to the results file`;

export class UsageError extends Error {}

function nonNegativeInt(flag: string, raw: string): number {
  if (!/^\d+$/.test(raw)) throw new UsageError(`${flag}: expected a whole number, got "${raw}"`);
  return Number(raw);
}

function positiveInt(flag: string, raw: string): number {
  const n = nonNegativeInt(flag, raw);
  if (n === 0) throw new UsageError(`${flag}: must be at least 1`);
  return n;
}

/** "5", "5s", "2.5s" are seconds; "500ms" is milliseconds. */
export function parseDuration(flag: string, raw: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(raw.trim());
  if (!m || m[1] === undefined) throw new UsageError(`${flag}: expected a duration like 5s or 500ms, got "${raw}"`);
  const ms = m[2] === 'ms' ? Number(m[1]) : Number(m[1]) * 1000;
  if (ms <= 0) throw new UsageError(`${flag}: must be more than 0`);
  return Math.round(ms);
}

type Setter = (options: BenchOptions, value: string, flag: string) => void;

// One row per flag that takes a value, so parsing and the usage text stay side by side.
const VALUE_FLAGS: Record<string, Setter> = {
  '--seed': (o, v, f) => {
    if (v !== 'large' && v !== 'demo' && v !== 'tiny') throw new UsageError(`${f}: expected large, demo or tiny`);
    o.seed = v;
  },
  '--latency-ms': (o, v, f) => (o.latencyMs = nonNegativeInt(f, v)),
  '--iterations': (o, v, f) => (o.iterations = positiveInt(f, v)),
  '--duration': (o, v, f) => (o.durationMs = parseDuration(f, v)),
  '--concurrency': (o, v, f) => (o.concurrency = positiveInt(f, v)),
  '--only': (o, v) => o.only.push(...v.split(',').map((s) => s.trim()).filter((s) => s !== '')),
  '--out': (o, v) => (o.out = v === '-' ? null : v),
  '--scales': (o, v, f) => {
    const scales = v.split(',').map((s) => positiveInt(f, s.trim()));
    if (scales.some((s, i) => i > 0 && s <= (scales[i - 1] ?? 0))) throw new UsageError(`${f}: expected increasing scales, e.g. 1,2,4`);
    o.scales = scales;
  },
  '--scenario': (o, v, f) => {
    if (v !== 'queries' && v !== 'subscribers' && v !== 'defer') throw new UsageError(`${f}: expected queries, subscribers or defer`);
    o.scenario = v;
  },
  '--subscribers': (o, v, f) => (o.subscribers = positiveInt(f, v)),
  '--per-socket': (o, v, f) => (o.perSocket = positiveInt(f, v)),
  '--replicas': (o, v, f) => (o.replicas = positiveInt(f, v)),
  '--snapshots': (o, v) => (o.snapshots = v),
  '--semi-space': (o, v, f) => (o.semiSpaceMb = positiveInt(f, v)),
  '--churn': (o, v, f) => (o.churnSeconds = positiveInt(f, v)),
  '--gateway': (o, v, f) => {
    if (v !== 'child' && v !== 'in-process') throw new UsageError(`${f}: expected child or in-process`);
    o.gateway = v;
  },
};

// Flags without a value.
const SWITCH_FLAGS: Record<string, (options: BenchOptions) => void> = {
  '--no-passthrough': (o) => (o.skipPassthrough = true),
  '--no-floors': (o) => (o.skipFloors = true),
  '--warm': (o) => (o.warm = true),
  '--no-scale': (o) => (o.scales = []),
  '--no-faults': (o) => (o.skipFaults = true),
  '--faults-only': (o) => (o.faultsOnly = true),
};

export function parseArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { ...DEFAULT_OPTIONS, only: [], scales: [...DEFAULT_OPTIONS.scales] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    const switchFlag = Object.hasOwn(SWITCH_FLAGS, arg) ? SWITCH_FLAGS[arg] : undefined;
    if (switchFlag) {
      switchFlag(options);
      continue;
    }
    const eq = arg.indexOf('=');
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const setter = VALUE_FLAGS[flag];
    if (!setter) throw new UsageError(`unknown flag "${arg}"`);
    let value: string | undefined;
    if (eq > 0) value = arg.slice(eq + 1);
    else value = argv[++i];
    if (value === undefined) throw new UsageError(`${flag}: missing value`);
    setter(options, value, flag);
  }
  return options;
}
