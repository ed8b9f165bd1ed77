/**
 * What followers hold, from two heap snapshots (`npm run bench -- --scenario subscribers
 * --snapshots DIR` writes them): `node dist-bench/bench/heap-diff.js DIR N [ROWS]` prints, per
 * kind of object (a constructor's name, a closure's name, a string, V8's hidden objects), how
 * many more there are after the first events and how many bytes (self sizes) that is per
 * follower, largest first. Self sizes, not retained ones: the rows add up to the heap's growth.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isObject } from '../src/core/parse';

interface Tally {
  count: number;
  bytes: number;
}

function numbers(value: unknown, what: string): number[] {
  if (!Array.isArray(value) || !value.every((n): n is number => typeof n === 'number')) throw new Error(`heap snapshot: ${what} is not a list of numbers`);
  return value;
}

function texts(value: unknown, what: string): string[] {
  if (!Array.isArray(value) || !value.every((n): n is string => typeof n === 'string')) throw new Error(`heap snapshot: ${what} is not a list of strings`);
  return value;
}

/** A node's kind: what the rows are grouped by. */
function kindOf(type: string, name: string): string {
  if (type === 'object') return name;
  if (type === 'closure') return `closure ${name || '(anonymous)'}`;
  if (type.includes('string')) return '(strings)';
  if (type === 'hidden' || type === 'code' || type === 'array' || type === 'native') return `(${type}) ${name.slice(0, 60)}`;
  return `(${type})`;
}

/** Self sizes and counts by kind in one snapshot file. */
export function tallySnapshot(path: string): Map<string, Tally> {
  const parsed: unknown = JSON.parse(readFileSync(path, 'utf8'));
  if (!isObject(parsed) || !isObject(parsed['snapshot']) || !isObject(parsed['snapshot']['meta'])) throw new Error(`${path}: not a heap snapshot`);
  const meta = parsed['snapshot']['meta'];
  const fields = texts(meta['node_fields'], 'node_fields');
  const nodeTypes = Array.isArray(meta['node_types']) ? texts(meta['node_types'][0], 'node_types') : [];
  const nodes = numbers(parsed['nodes'], 'nodes');
  const strings = texts(parsed['strings'], 'strings');
  const [typeAt, nameAt, sizeAt] = ['type', 'name', 'self_size'].map((f) => fields.indexOf(f));
  if (typeAt === undefined || nameAt === undefined || sizeAt === undefined || Math.min(typeAt, nameAt, sizeAt) < 0) throw new Error(`${path}: no type, name or self_size field`);
  const tallies = new Map<string, Tally>();
  for (let i = 0; i < nodes.length; i += fields.length) {
    const kind = kindOf(nodeTypes[nodes[i + typeAt] ?? 0] ?? '?', strings[nodes[i + nameAt] ?? 0] ?? '');
    const tally = tallies.get(kind) ?? { count: 0, bytes: 0 };
    tally.count += 1;
    tally.bytes += nodes[i + sizeAt] ?? 0;
    tallies.set(kind, tally);
  }
  return tallies;
}

function main(argv: readonly string[]): void {
  const [dir, followersText, rowsText] = argv;
  const followers = Number(followersText);
  if (dir === undefined || !(followers > 0)) throw new Error('usage: node dist-bench/bench/heap-diff.js DIR FOLLOWERS [ROWS]');
  const before = tallySnapshot(join(dir, 'before.heapsnapshot'));
  const after = tallySnapshot(join(dir, 'after.heapsnapshot'));
  const rows = [...after].map(([kind, tally]) => {
    const was = before.get(kind) ?? { count: 0, bytes: 0 };
    return { kind, count: (tally.count - was.count) / followers, bytes: (tally.bytes - was.bytes) / followers };
  });
  rows.sort((a, b) => b.bytes - a.bytes);
  const total = rows.reduce((sum, row) => sum + row.bytes, 0);
  process.stdout.write(`per follower: ${total.toFixed(0)} bytes of heap (self sizes)\n`);
  for (const row of rows.slice(0, Number(rowsText ?? 40))) process.stdout.write(`${row.bytes.toFixed(1).padStart(9)} B ${row.count.toFixed(2).padStart(7)}×  ${row.kind}\n`);
}

if (require.main === module) main(process.argv.slice(2));
