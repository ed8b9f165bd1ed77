/**
 * What a reader of this repository cannot follow: citations of documents that are not in it
 * (the platform's specifications by number, design notes, an issue tracker's numbers, a folder
 * beside the checkout). The repository states its rules itself, in the platform's terms: the
 * authorization API, the network-management API, the management API v2, event search.
 *
 * This file holds the patterns, so the repository-wide test skips it; its examples below are the
 * patterns' own check.
 */
import { execFileSync } from 'node:child_process';
import { basename, dirname, join, normalize } from 'node:path';

export interface Pattern {
  /** What a hit cites, for the failure message. */
  what: string;
  pattern: RegExp;
}

/** Citations no tracked file may hold. */
export const OUTSIDE_DOCUMENTS: readonly Pattern[] = [
  { what: 'a specification by number', pattern: /\bseeds?[ _-]?0\d\d\b/i },
  { what: 'the specifications folder', pattern: /\bthe seeds\b|(?<![\w.-])seeds\// },
  { what: 'a rule by its number in another document', pattern: /\brule \d+\b/i },
  // Markdown files by name are checked against the tracked files (missingDocuments).
  { what: 'notes outside the repository', pattern: /\bPUBLIC[-_ ]RECORD\b(?!\.md)/i },
  { what: 'a folder beside the checkout', pattern: /(?:\.\.\/|\/work\/)shared\b/ },
  { what: 'an issue or pull request by number', pattern: /\b(?:issues?|PR|pull request) #?\d+\b|(?<![\w/&])#\d{1,2}(?![\w;])/i },
];

/**
 * More for the public schema's descriptions, which every IDE user reads: they say what a field
 * does, never where a rule was read (the specification's words "seed", "not shown", "on record",
 * "the guide", "the contract").
 */
export const DESCRIPTION_ONLY: readonly Pattern[] = [
  { what: 'the specifications', pattern: /\bseeds?\b|\bthe contract\b|\bthe guide\b/i },
  { what: "the specifications' words", pattern: /\bnot shown\b|\bon record\b/i },
];

/** Citations in `text`, as `what: "the matched text"`. */
export function citations(text: string, patterns: readonly Pattern[]): string[] {
  const found: string[] = [];
  for (const { what, pattern } of patterns) {
    const global = new RegExp(pattern.source, pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`);
    for (const match of text.matchAll(global)) found.push(`${what}: "${match[0]}"`);
  }
  return found;
}

/** The repository's root. */
export const ROOT = join(__dirname, '..', '..');

/** What git tracks in the repository (node_modules never). */
export function trackedFiles(): string[] {
  const out = execFileSync('git', ['ls-files', '-z'], { cwd: ROOT, encoding: 'utf8' });
  return out.split('\0').filter((path) => path !== '' && !path.startsWith('node_modules/'));
}

/** `*.md` names, with any folder before them (`docs/limits.md`, `README.md`). */
const MARKDOWN_NAME = /(?<![\w/.@-])((?:[\w.-]+\/)*[\w.-]+\.md)\b/g;

/**
 * Given the tracked files: the Markdown documents a text (the content of `file`) names that the
 * repository does not have. A name with a folder must exist relative to the file or to the root,
 * a bare name anywhere.
 */
export function missingDocuments(tracked: ReadonlySet<string>): (file: string, text: string) => string[] {
  const names = new Set([...tracked].map((path) => basename(path)));
  return (file, text) => {
    const missing: string[] = [];
    for (const match of text.matchAll(MARKDOWN_NAME)) {
      const name = match[1] ?? '';
      const exists = name.includes('/') ? tracked.has(normalize(join(dirname(file), name))) || tracked.has(normalize(name)) : names.has(name);
      if (!exists) missing.push(`a document the repository does not have: "${name}"`);
    }
    return missing;
  };
}

/** Each pattern's own check: what it must catch, and neighbours it must leave alone. */
export const EXAMPLES: {
  cited: readonly string[];
  fine: readonly string[];
  descriptionCited: readonly string[];
  /** A text naming Markdown documents the repository does not have, and their names. */
  missingDocuments: { text: string; names: readonly string[] };
} = {
  // The citations are assembled from parts, so that this file itself cites nothing a reader would try to follow.
  cited: [
    "seed 042's creation order",
    'Seed 002 rule 2',
    'see the seeds',
    '`/work/shared/seeds/`',
    'a redefine sends everything (rule 2)',
    `what the public record says (${'PUBLIC'}-RECORD)`,
    `${'..'}/shared/NOTES.md`,
    'the goals of issue #12',
    'before #12',
  ],
  fine: [
    "the sandbox seeds every area from the seed's tables",
    'rules[0]: atStep must be an integer >= 1',
    'color: #2e9d57; border: #333333;',
    "'&#39;' escapes a quote",
    'the IDE waits for the editor (graphql/graphiql#1807)',
    'the `#all` tag and `#tag` selectors',
    'see src/server/README.md',
  ],
  descriptionCited: ['Name of `status`; null for a code not on record.', 'The seed requires `name`.', '`IP` in the guide.'],
  missingDocuments: { text: 'see HANDBOOK.md "Errors", NOTES.md and docs/limits.md', names: ['HANDBOOK.md', 'NOTES.md', 'docs/limits.md'] },
};
