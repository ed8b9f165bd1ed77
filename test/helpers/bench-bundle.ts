/**
 * A bench child entry (bench/gateway-child.ts, bench/floor-child.ts) bundled with esbuild, since
 * ts-jest cannot fork a .ts file. Packages stay external; the bundle lives under the project root,
 * where the gateway finds schema/.
 */
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { packageRoot } from '../../bench/package-root';

export interface BenchBundle {
  script: string;
  remove(): void;
}

export function bundleBenchEntry(name: string): Promise<BenchBundle> {
  return bundleEntry(join('bench', `${name}.ts`));
}

/** Any entry of the project (a path from its root), bundled the same way. */
export async function bundleEntry(entry: string): Promise<BenchBundle> {
  const name = basename(entry, '.ts');
  const tmp = join(packageRoot(), '.tmp');
  mkdirSync(tmp, { recursive: true });
  const dir = mkdtempSync(join(tmp, `${name}-`));
  const script = join(dir, `${name}.js`);
  await build({
    entryPoints: [join(packageRoot(), entry)],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    outfile: script,
    logLevel: 'silent',
  });
  return { script, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
