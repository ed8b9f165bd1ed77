/**
 * The documentation holds together: every relative link of every tracked Markdown file (README.md,
 * docs/, each folder's README) reaches a file of the repository, and a link to a section reaches a
 * heading of that file (by the anchor GitHub makes of it); the configuration reference lists
 * exactly the settings the gateway reads; and the README stays a page a newcomer reads in five
 * minutes. (The examples run in test/integration/docs-examples.test.ts.)
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { loadConfig } from '../../src/config';
import { ROOT, trackedFiles } from '../helpers/outside-references';

const markdown = trackedFiles().filter((file) => file.endsWith('.md'));

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens; repeats get -1, -2, … */
function anchors(text: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading?.[1]) continue;
    const base = heading[1]
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

/** Relative links and images outside code: `[text](target)`. */
function links(text: string): Array<{ line: number; target: string }> {
  const found: Array<{ line: number; target: string }> = [];
  let fenced = false;
  text.split('\n').forEach((line, i) => {
    if (line.startsWith('```')) fenced = !fenced;
    if (fenced) return;
    const prose = line.replace(/`[^`]*`/g, '');
    for (const match of prose.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = match[1] ?? '';
      if (!/^[a-z][a-z+.-]*:/i.test(target)) found.push({ line: i + 1, target });
    }
  });
  return found;
}

it('every relative link in the Markdown files reaches a file and, with an anchor, a heading of it', () => {
  expect(markdown).toEqual(expect.arrayContaining(['README.md', 'docs/configuration.md']));
  const broken: string[] = [];
  for (const file of markdown) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    for (const { line, target } of links(text)) {
      const [path = '', anchor] = target.split('#');
      const resolved = path === '' ? file : normalize(join(dirname(file), decodeURIComponent(path)));
      if (!existsSync(join(ROOT, resolved))) {
        broken.push(`${file}:${line}: ${target} (no ${resolved})`);
        continue;
      }
      if (anchor !== undefined && resolved.endsWith('.md') && !anchors(readFileSync(join(ROOT, resolved), 'utf8')).has(anchor)) {
        broken.push(`${file}:${line}: ${target} (no heading #${anchor} in ${resolved})`);
      }
    }
  }
  expect(broken).toEqual([]);
});

it('anchors are made as GitHub makes them', () => {
  const made = anchors('# netgraph\n## One pipeline, every door\n## The management API v2 (core/v2)\n## `networkChanges`: the live network\n## Notes\n## Notes\n```\n# not a heading\n```');
  expect([...made]).toEqual(['netgraph', 'one-pipeline-every-door', 'the-management-api-v2-corev2', 'networkchanges-the-live-network', 'notes', 'notes-1']);
});

it('the README is a five-minute page: under 250 lines, with the rest in docs/', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  expect(readme.split('\n').length).toBeLessThan(250);
  const docs = links(readme).map((l) => l.target.split('#')[0]).filter((t) => t?.startsWith('docs/') && t.endsWith('.md'));
  expect(new Set(docs).size).toBeGreaterThanOrEqual(10);
});

it('docs/configuration.md has a row for every setting loadConfig reads, and for nothing else', () => {
  const read = new Set<string>();
  const env = new Proxy<Record<string, string | undefined>>({}, {
    get(_target, name) {
      if (typeof name === 'string') read.add(name);
      return undefined;
    },
  });
  loadConfig(env);
  const table = readFileSync(join(ROOT, 'docs', 'configuration.md'), 'utf8');
  const rows = new Set([...table.matchAll(/^\| ((?:`[A-Z_]+`(?:, )?)+) \|/gm)].flatMap((m) => [...(m[1] ?? '').matchAll(/`([A-Z_]+)`/g)].map((n) => n[1] ?? '')));
  expect([...read].filter((name) => !rows.has(name)).sort()).toEqual([]);
  expect([...rows].filter((name) => !read.has(name)).sort()).toEqual([]);
});
