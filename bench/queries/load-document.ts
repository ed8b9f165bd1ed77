import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Reads `bench/queries/<file>` from the source tree. The `.graphql` files are not copied by tsc,
 * so the compiled runner (dist/bench/…) and ts-jest (bench/…) both look them up from the package root.
 */
export function loadDocument(file: string): string {
  let dir = __dirname;
  while (!existsSync(join(dir, 'package.json'))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`bench query ${file}: package root not found from ${__dirname}`);
    dir = parent;
  }
  return readFileSync(join(dir, 'bench', 'queries', file), 'utf8');
}
