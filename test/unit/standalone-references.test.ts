/**
 * The repository stands alone: no tracked file cites a document it does not have (a specification
 * by number, design notes, an issue number, a folder beside the checkout, a Markdown file that is
 * not here). The patterns live in test/helpers/outside-references.ts, the one file skipped.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { citations, EXAMPLES, missingDocuments, OUTSIDE_DOCUMENTS, ROOT, trackedFiles } from '../helpers/outside-references';

const PATTERN_FILE = 'test/helpers/outside-references.ts';
/** Not the repository's own words: the lock file is written by npm. */
const SKIPPED = new Set(['package-lock.json', PATTERN_FILE]);

describe('the patterns', () => {
  it.each(EXAMPLES.cited)('catch %j', (text) => {
    expect(citations(text, OUTSIDE_DOCUMENTS)).not.toEqual([]);
  });

  it.each(EXAMPLES.fine)('leave %j alone', (text) => {
    expect(citations(text, OUTSIDE_DOCUMENTS)).toEqual([]);
  });

  it('find a Markdown document only when the repository does not have it', () => {
    const missing = missingDocuments(new Set(['README.md', 'src/server/README.md', 'bench/README.md']));
    expect(missing('src/server/index.ts', 'see README.md, src/server/README.md and ../../bench/README.md')).toEqual([]);
    expect(missing('bench/run.ts', 'see README.md')).toEqual([]);
    const { text, names } = EXAMPLES.missingDocuments;
    expect(missing('src/errors/codes.ts', text)).toEqual(names.map((name) => `a document the repository does not have: "${name}"`));
  });
});

it('no tracked file cites a document outside the repository', () => {
  const files = trackedFiles();
  expect(files.length).toBeGreaterThan(100);
  const missing = missingDocuments(new Set(files));
  const offending: string[] = [];
  for (const file of files) {
    if (SKIPPED.has(file)) continue;
    const bytes = readFileSync(join(ROOT, file));
    if (bytes.includes(0)) continue; // binary (images)
    const lines = bytes.toString('utf8').split('\n');
    lines.forEach((line, i) => {
      for (const hit of [...citations(line, OUTSIDE_DOCUMENTS), ...missing(file, line)]) offending.push(`${file}:${i + 1}: ${hit}`);
    });
  }
  // One line per citation, file by file, so whoever owns a file sees what to rewrite.
  if (offending.length > 0) {
    const files = new Set(offending.map((line) => line.slice(0, line.indexOf(':'))));
    throw new Error(
      `${offending.length} citation(s) of documents outside the repository, in ${files.size} file(s) ` +
        `(say the rule itself, in the platform's terms):\n${offending.join('\n')}`,
    );
  }
});
