/**
 * The repository root (where package.json and schema/ live), found by walking up from this file,
 * so the same code works from `src/` under ts-jest and from `dist/src/` after a build.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

let cached: string | null = null;

export function projectRoot(): string {
  if (cached !== null) return cached;
  for (let dir = __dirname; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'schema'))) {
      cached = dir;
      return dir;
    }
    if (dirname(dir) === dir) throw new Error('cannot find the netgraph project root (package.json next to schema/)');
  }
}

export function packageVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(join(projectRoot(), 'package.json'), 'utf8'));
  const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined;
  return typeof version === 'string' ? version : '0.0.0';
}
