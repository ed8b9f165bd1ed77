import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../package-root';

/** Reads `bench/queries/<file>` from the source tree (tsc does not copy `.graphql` files to dist/). */
export function loadDocument(file: string): string {
  return readFileSync(join(packageRoot(), 'bench', 'queries', file), 'utf8');
}
