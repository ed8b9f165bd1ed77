/**
 * `npm run config:reference`: rewrites the reference section of docs/configuration.md (one table
 * per area) from the settings' declarations in src/settings. `npm test` fails while the file and
 * the declarations differ (test/unit/config-reference.test.ts).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectRoot } from '../src/server/project-root';
import { REFERENCE_END, REFERENCE_START, renderReference } from '../src/settings';

export function configurationPath(): string {
  return join(projectRoot(), 'docs', 'configuration.md');
}

/** The page with its reference section replaced by the one the declarations give. */
export function withReference(page: string): string {
  const start = page.indexOf(REFERENCE_START);
  const end = page.indexOf(REFERENCE_END);
  if (start < 0 || end < start) throw new Error(`docs/configuration.md lacks the reference markers (${REFERENCE_START} … ${REFERENCE_END})`);
  return page.slice(0, start) + renderReference() + page.slice(end + REFERENCE_END.length);
}

if (require.main === module) {
  const path = configurationPath();
  writeFileSync(path, withReference(readFileSync(path, 'utf8')));
}
