/**
 * `npm run bench` (compiled by bench/tsconfig.json to dist-bench/bench/run.js): parses the flags, runs the benchmark, prints
 * the table on stdout (progress on stderr) and writes bench/results.json.
 */
import { resolve } from 'node:path';
import { packageRoot } from './package-root';
import { parseArgs, USAGE, UsageError, type BenchOptions } from './args';
import { runBenchmark } from './benchmark';
import type { BenchResults } from './results';
import { readResultsField, writeResults, writeResultsField } from './results';
import { runSubscribers, type SubscribersResult } from './subscribers';
import { runFleetSubscribers } from './subscribers-fleet';
import { formatSubscribers, formatTable } from './table';
import { runFaultScenario, type FaultScenarioResult } from './fault-scenario';
import { formatDefer, runDeferScenario, type DeferScenarioResult } from './defer-scenario';

export interface RunIo {
  /** Progress lines. */
  log(line: string): void;
  /** The final table. */
  print(text: string): void;
}

const consoleIo: RunIo = {
  log: (line) => process.stderr.write(`[bench] ${line}\n`),
  print: (text) => process.stdout.write(text + '\n'),
};

/** The subscribers scenario alone: its figures printed, and added to results.json (`subscribers`). */
async function subscribersScenario(options: BenchOptions, io: RunIo): Promise<SubscribersResult> {
  const result = await runSubscribers({ subscribers: options.subscribers, perSocket: options.perSocket, warm: options.warm, snapshots: options.snapshots, semiSpaceMb: options.semiSpaceMb, churnSeconds: options.churnSeconds, gateway: options.gateway, log: io.log });
  io.print(formatSubscribers(result));
  if (options.out !== null) {
    const path = resolve(packageRoot(), options.out);
    // The run before this one stays beside it (before → after), as the full run keeps both.
    const previous = readResultsField(path, 'subscribers');
    if (previous !== undefined) writeResultsField(path, 'subscribersBefore', previous);
    writeResultsField(path, 'subscribers', { ...result, date: new Date().toISOString() });
    io.log(`subscribers figures added to ${path}`);
  }
  return result;
}

/** The defer scenario alone: its figures printed, and added to results.json (`deferScenario`). */
async function deferScenario(options: BenchOptions, io: RunIo): Promise<DeferScenarioResult> {
  const result = await runDeferScenario(options, io.log);
  io.print(formatDefer(result));
  if (options.out !== null) {
    const path = resolve(packageRoot(), options.out);
    writeResultsField(path, 'deferScenario', { ...result, date: new Date().toISOString() });
    io.log(`defer figures added to ${path}`);
  }
  return result;
}

/** `--faults-only`: the fault scenario alone, its figures added to the results file. */
export async function mainFaultsOnly(argv: readonly string[], io: RunIo = consoleIo): Promise<FaultScenarioResult> {
  const options = parseArgs(argv);
  const faults = await runFaultScenario(options, io.log);
  io.print(`fault scenario: ${faults.callsPerQuery} upstream calls per query, p50 ${faults.p50Ms} ms, p99 ${faults.p99Ms} ms, ${faults.answeredShare * 100}% answered without error`);
  if (options.out !== null) {
    const path = resolve(packageRoot(), options.out);
    writeResultsField(path, 'faultScenario', faults);
    io.log(`fault scenario added to ${path}`);
  }
  return faults;
}

/** Figures of the scenarios run on their own (`--scenario …`), kept across full runs. */
const SCENARIO_FIELDS = ['deferScenario', 'subscribers', 'subscribersBefore', 'subscribersFleet'] as const;

export async function main(argv: readonly string[], io: RunIo = consoleIo): Promise<BenchResults> {
  const options = parseArgs(argv);
  const results = await runBenchmark(options, io.log);
  io.print(formatTable(results));
  if (options.out !== null) {
    // Relative paths are taken from the package root, so `bench/results.json` lands in bench/ from any directory.
    const path = resolve(packageRoot(), options.out);
    // The scenarios that run on their own keep their last figures in the file.
    const kept = SCENARIO_FIELDS.map((field) => [field, readResultsField(path, field)] as const);
    writeResults(path, results);
    for (const [field, value] of kept) if (value !== undefined) writeResultsField(path, field, value);
    io.log(`results written to ${path} (${(results.elapsedMs / 1000).toFixed(1)} s)`);
  }
  return results;
}

/** The command line: one scenario alone (subscribers, faults), or the queries' benchmark; the process's exit status. */
async function cli(argv: readonly string[]): Promise<number> {
  const options = parseArgs(argv);
  // Children inherit this process's environment: a query-heavy replica's young generation for all of them.
  if (options.semiSpaceMb !== null) process.env['NODE_OPTIONS'] = [process.env['NODE_OPTIONS'], `--max-semi-space-size=${options.semiSpaceMb}`].filter(Boolean).join(' ');
  if (options.scenario === 'subscribers' && options.replicas > 1) {
    const fleet = await runFleetSubscribers({ replicas: options.replicas, subscribers: options.subscribers, perSocket: options.perSocket, gateway: options.gateway, log: consoleIo.log });
    consoleIo.print(JSON.stringify(fleet, null, 2));
    if (options.out !== null) {
      writeResultsField(resolve(packageRoot(), options.out), 'subscribersFleet', { ...fleet, date: new Date().toISOString() });
    }
    return fleet.reached === fleet.connected && fleet.connected === fleet.replicas * fleet.perReplica ? 0 : 1;
  }
  if (options.scenario === 'subscribers') {
    const result = await subscribersScenario(options, consoleIo);
    return result.reached === result.subscribers ? 0 : 1;
  }
  if (options.scenario === 'defer') {
    const result = await deferScenario(options, consoleIo);
    return result.mergedEqualsPlain ? 0 : 1;
  }
  if (options.faultsOnly) {
    await mainFaultsOnly(argv);
    return 0;
  }
  const results = await main(argv);
  // A wrong answer (also at any scale of the scale series) fails the run, after the results are written.
  return results.failed.length > 0 || results.scaleSeries.some((p) => p.error !== null) ? 1 : 0;
}

if (require.main === module) {
  cli(process.argv.slice(2)).then(
    (status) => process.exit(status),
    (err: unknown) => {
      if (err instanceof UsageError) process.stderr.write(`${err.message}\n${USAGE}\n`);
      else process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
