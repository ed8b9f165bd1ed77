/**
 * `npm run bench` (compiled by bench/tsconfig.json to dist-bench/bench/run.js): parses the flags, runs the benchmark, prints
 * the table on stdout (progress on stderr) and writes bench/results.json.
 */
import { resolve } from 'node:path';
import { packageRoot } from './package-root';
import { parseArgs, USAGE, UsageError } from './args';
import { runBenchmark } from './benchmark';
import type { BenchResults } from './results';
import { writeResults } from './results';
import { formatTable } from './table';

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

if (require.main === module) {
  main(process.argv.slice(2)).then(
    // A wrong answer (also at any scale of the scale series) fails the run, after the results are written.
    (results) => process.exit(results.failed.length > 0 || results.scaleSeries.some((p) => p.error !== null) ? 1 : 0),
    (err: unknown) => {
      if (err instanceof UsageError) process.stderr.write(`${err.message}\n${USAGE}\n`);
      else process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
      process.exit(1);
    },
  );
}
