/**
 * A bench child entry (bench/gateway-child.ts, bench/floor-child.ts) bundled with esbuild, since
 * ts-jest cannot fork a .ts file. Packages stay external; the bundle lives under the project root,
 * where the gateway finds schema/.
 */
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { packageRoot } from '../../bench/package-root';

export interface BenchBundle {
  script: string;
  remove(): void;
}

export function bundleBenchEntry(name: string): Promise<BenchBundle> {
  return bundleEntry('bench', name);
}

/** Any entry of the project, e.g. `bundleEntry('src', 'main')` for `npm start`'s. */
export async function bundleEntry(folder: string, name: string): Promise<BenchBundle> {
  const tmp = join(packageRoot(), '.tmp');
  mkdirSync(tmp, { recursive: true });
  const dir = mkdtempSync(join(tmp, `${name}-`));
  const script = join(dir, `${name}.js`);
  await build({
    entryPoints: [join(packageRoot(), folder, `${name}.ts`)],
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
