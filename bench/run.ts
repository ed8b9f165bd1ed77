/**
 * `npm run bench` (compiled by bench/tsconfig.json to dist-bench/bench/run.js): parses the flags, runs the benchmark, prints
 * the table on stdout (progress on stderr) and writes bench/results.json.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { packageRoot } from './package-root';
import { parseArgs, USAGE, UsageError } from './args';
import { runBenchmark } from './benchmark';
import type { BenchResults } from './results';
import { writeResults } from './results';
import { formatTable } from './table';
import { runFaultScenario, type FaultScenarioResult } from './fault-scenario';

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

/** `--faults-only`: the fault scenario alone, its figures added to the results file. */
export async function mainFaultsOnly(argv: readonly string[], io: RunIo = consoleIo): Promise<FaultScenarioResult> {
  const options = parseArgs(argv);
  const faults = await runFaultScenario(options, io.log);
  io.print(`fault scenario: ${faults.callsPerQuery} upstream calls per query, p50 ${faults.p50Ms} ms, p99 ${faults.p99Ms} ms, ${faults.answeredShare * 100}% answered without error`);
  if (options.out !== null) {
    const path = resolve(packageRoot(), options.out);
    addFaultScenario(path, faults);
    io.log(`fault scenario added to ${path}`);
  }
  return faults;
}

export async function main(argv: readonly string[], io: RunIo = consoleIo): Promise<BenchResults> {
  const options = parseArgs(argv);
  const results = await runBenchmark(options, io.log);
  io.print(formatTable(results));
  if (options.out !== null) {
    // Relative paths are taken from the package root, so `bench/results.json` lands in bench/ from any directory.
    const path = resolve(packageRoot(), options.out);
    writeResults(path, results);
    io.log(`results written to ${path} (${(results.elapsedMs / 1000).toFixed(1)} s)`);
  }
  return results;
}

/** Adds (or replaces) `faultScenario` in the results file, keeping every other field; a file of its own when there is none. */
function addFaultScenario(path: string, faults: FaultScenarioResult): void {
  let existing: Record<string, unknown> = {};
  if (existsSync(path)) {
    const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) existing = { ...parsed };
  }
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify({ ...existing, faultScenario: faults }, null, 2) + '\n');
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  const run = argv.includes('--faults-only') ? mainFaultsOnly(argv).then(() => false) : main(argv).then((results) => results.failed.length > 0 || results.scaleSeries.some((p) => p.error !== null));
  run.then(
    // A wrong answer (also at any scale of the scale series) fails the run, after the results are written.
    (failed) => process.exit(failed ? 1 : 0),
    (err: unknown) => {
      if (err instanceof UsageError) process.stderr.write(`${err.message}\n${USAGE}\n`);
      else process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
