import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * The package root (the folder holding package.json), found upwards from this file, so the
 * compiled runner (dist-bench/bench/…) and ts-jest (bench/…) find `bench/queries/*.graphql` and write
 * `bench/results.json` in the same place, whatever the working directory.
 */
export function packageRoot(): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`bench: package root not found above ${__dirname}`);
    dir = parent;
  }
  return dir;
}
