/**
 * The import rules of docs/architecture.md's folder table, enforced by dependency-cruiser
 * (`npm run lint:imports`, part of `npm test`). The table is the one source: each row's third
 * column names, in backticks, the parts of src/ the folder may import; any other import of src/
 * from that folder is an error. A column that reads "any folder but `x`" forbids only those named.
 */
const { existsSync, readFileSync } = require('node:fs');
const { join } = require('node:path');

const SRC = join(__dirname, 'src');
const isSrcPart = (name) => existsSync(join(SRC, name)) || existsSync(join(SRC, `${name}.ts`));
const escape = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A path pattern for a folder or one module of src/. */
const pattern = (name) => `^src/${escape(name)}(/|\\.ts$)`;

function folderRules() {
  const doc = readFileSync(join(__dirname, 'docs', 'architecture.md'), 'utf8');
  // A row names a folder (`src/core`) or a top-level module (`src/context.ts`).
  const rows = [...doc.matchAll(/^\| \[src\/([\w-]+)(?:\.ts)?\]\([^)]*\) \|[^|]*\| ([^|]*) \|$/gm)];
  if (rows.length === 0) throw new Error('docs/architecture.md: no folder table found');
  return rows.map(([, folder, cell]) => {
    const named = [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]).filter(isSrcPart);
    const from = { path: pattern(folder) };
    if (/any folder but/.test(cell)) {
      return { name: `${folder}-never`, comment: `src/${folder} may import any folder but ${named.join(', ')} (docs/architecture.md)`, severity: 'error', from, to: { path: named.map(pattern) } };
    }
    return {
      name: `${folder}-imports`,
      comment: `src/${folder} may import only ${named.length ? named.join(', ') : 'nothing'} of src/ (docs/architecture.md)`,
      severity: 'error',
      from,
      to: { path: '^src/', pathNot: [pattern(folder), ...named.map(pattern)] },
    };
  });
}

module.exports = {
  forbidden: folderRules(),
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  },
};
