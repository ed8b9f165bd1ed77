/**
 * No function or class of src/ (the sandbox included, generated code excepted) is longer than
 * 150 lines, from its first line to its closing brace: past that, a factory or a class holds
 * several concerns, and they go to files of their own (src/upstream/network/ shows the way: one
 * file per concern, a small factory putting them together).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..');
const MAX_LINES = 150;

interface Long {
  where: string;
  name: string;
  lines: number;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return relative(ROOT, path) === join('src', 'generated') ? [] : sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** A function's or class's name, or the name it is bound to (`const f = () => …`, `{ f: () => … }`). */
function nameOf(node: ts.Node, file: ts.SourceFile): string {
  const own = (node as ts.NamedDeclaration).name;
  if (own !== undefined) return own.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  return '(anonymous)';
}

/** Every function (declaration, expression, arrow, method, accessor) and class of `text` longer than `max` lines. */
function longFunctions(path: string, text: string, max = MAX_LINES): Long[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: Long[] = [];
  const visit = (node: ts.Node): void => {
    const measured = ts.isClassLike(node) || (ts.isFunctionLike(node) && 'body' in node && node.body !== undefined);
    if (measured) {
      const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
      const lines = file.getLineAndCharacterOfPosition(node.getEnd()).line - first + 1;
      if (lines > max) found.push({ where: `${path}:${first + 1}`, name: nameOf(node, file), lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

it('measures functions, methods, arrows and classes by their lines', () => {
  const body = (n: number): string => Array.from({ length: n - 2 }, (_, i) => `  const v${i} = ${i};`).join('\n');
  const text = [`export function long() {\n${body(6)}\n}`, `const short = () => {\n${body(5)}\n};`, `class Big {\n  m() {\n${body(6)}\n  }\n}`].join('\n');
  expect(longFunctions('x.ts', text, 5).map((l) => [l.name, l.lines])).toEqual([
    ['long', 6],
    ['Big', 8],
    ['m', 6],
  ]);
});

it(`has no function or class over ${MAX_LINES} lines in src/ (generated code aside)`, () => {
  const offenders = sources(join(ROOT, 'src'))
    .flatMap((path) => longFunctions(relative(ROOT, path), readFileSync(path, 'utf8')))
    .map((long) => `${long.where} ${long.name}: ${long.lines} lines`);
  expect(offenders).toEqual([]);
});
