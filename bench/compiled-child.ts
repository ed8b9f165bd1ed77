import { existsSync } from 'node:fs';
import { join } from 'node:path';

/** A compiled child entry next to this file (`gateway-child`, `floor-child`), when running from dist-bench/; null under ts-jest. */
export function compiledChild(name: string): string | null {
  const script = join(__dirname, `${name}.js`);
  return existsSync(script) ? script : null;
}
