/**
 * Every folder of src/ with a README names each of its files (and the files of its subfolders
 * that have no README of their own), so the map a newcomer reads is the folder they open.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..', '..', 'src');

/** Folders under src/ that keep a README, generated code aside. */
function foldersWithReadme(dir: string): string[] {
  const found = existsSync(join(dir, 'README.md')) ? [dir] : [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory() && name !== 'generated') found.push(...foldersWithReadme(path));
  }
  return found;
}

/** The .ts files a folder's README answers for: its own, and those of subfolders without a README. */
function filesOf(dir: string, prefix = ''): string[] {
  const files: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (!existsSync(join(path, 'README.md'))) files.push(...filesOf(path, `${prefix}${name}/`));
    } else if (name.endsWith('.ts')) files.push(`${prefix}${name}`);
  }
  return files;
}

it('each folder README names each file it answers for', () => {
  const missing: string[] = [];
  for (const dir of foldersWithReadme(SRC)) {
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    for (const file of filesOf(dir)) {
      // A file is named by its path in the folder, or by its own name as a word of its own.
      const base = file.slice(file.lastIndexOf('/') + 1);
      const named = new RegExp(`(^|[^\\w.-])${base.replace(/[.]/g, '\\.')}($|[^\\w-])`, 'm');
      if (!readme.includes(file) && !named.test(readme)) missing.push(`${relative(join(SRC, '..'), dir)}/README.md does not name ${file}`);
    }
  }
  expect(missing).toEqual([]);
});
