/**
 * The import rules `npm run lint:imports` enforces are read from docs/architecture.md's folder
 * table (.dependency-cruiser.cjs): every folder and top-level module of src/ must have its row, or its imports would
 * go unchecked.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

interface Rule {
  name: string;
  from: { path: string };
}

const ROOT = join(__dirname, '..', '..');
// The configuration is CommonJS that dependency-cruiser loads; its shape is dependency-cruiser's.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require(join(ROOT, '.dependency-cruiser.cjs')) as { forbidden: Rule[] };

it('has a rule from docs/architecture.md for every folder and every top-level module of src/', () => {
  const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true })
    .filter((e) => e.isDirectory() || e.name.endsWith('.ts'))
    .map((e) => e.name.replace(/\.ts$/, ''))
    .sort();
  const ruled = config.forbidden.map((rule) => /^\^src\/([\w-]+)/.exec(rule.from.path)?.[1]).sort();
  expect(ruled).toEqual(folders);
});

it('forbids an arrow the table does not name (pollers may not import upstream)', () => {
  const rule = config.forbidden.find((r) => r.name === 'pollers-imports') as (Rule & { to: { path: string; pathNot: string[] } }) | undefined;
  const allowed = (target: string): boolean => !new RegExp(rule?.to.path ?? '$^').test(target) || (rule?.to.pathNot ?? []).some((p) => new RegExp(p).test(target));
  expect(allowed('src/upstream/http.ts')).toBe(false);
  expect(allowed('src/core/cancellation.ts')).toBe(true);
  expect(allowed('src/pollers/registry.ts')).toBe(true);
});

it('holds a top-level module to its row too (context may not import the server)', () => {
  const rule = config.forbidden.find((r) => r.name === 'context-imports') as (Rule & { to: { path: string; pathNot: string[] } }) | undefined;
  const allowed = (target: string): boolean => !new RegExp(rule?.to.path ?? '$^').test(target) || (rule?.to.pathNot ?? []).some((p) => new RegExp(p).test(target));
  expect(allowed('src/server/compose.ts')).toBe(false);
  expect(allowed('src/upstream/network/loaders.ts')).toBe(true);
});
