/**
 * docs/configuration.md's reference is the settings' declarations printed: a setting added,
 * changed or removed in src/settings without `npm run config:reference` fails here.
 */
import { readFileSync } from 'node:fs';
import { configurationPath, withReference } from '../../scripts/config-reference';
import { loadConfig } from '../../src/config';
import { AREAS, SETTING_NAMES, settingsOf, type Setting } from '../../src/settings';
import { isSetting, type Table } from '../../src/settings/setting';

it('docs/configuration.md holds the reference generated from the declarations (run `npm run config:reference`)', () => {
  const page = readFileSync(configurationPath(), 'utf8');
  expect(page).toBe(withReference(page));
});

it('declares each variable once, with a meaning, a default and a range', () => {
  const settings = Object.values(AREAS).flatMap((area) => settingsOf(area.settings));
  expect(settings.length).toBe(SETTING_NAMES.size);
  for (const setting of settings) {
    expect({ name: setting.name, blank: [setting.meaning, setting.defaultText, setting.rangeText].some((text) => text.trim() === '' || text === '—') }).toEqual({ name: setting.name, blank: false });
  }
});

const MISSING = Symbol('missing');

/** Each setting of a table with the path of the field it fills (`['price', 'maxDepth']`). */
function leaves(table: Table, path: readonly string[] = []): { path: string[]; setting: Setting<unknown> }[] {
  return Object.entries(table).flatMap(([field, entry]) => (isSetting(entry) ? [{ path: [...path, field], setting: entry }] : leaves(entry, [...path, field])));
}

/** The fields of a parsed slice, nested groups walked (a Set, a Map or a Buffer is one value). */
function fieldsOf(value: unknown, path: readonly string[] = []): string[] {
  if (value === null || typeof value !== 'object' || value instanceof Set || value instanceof Map || Buffer.isBuffer(value)) return [path.join('.')];
  // A slice holds the settings' values; a value that is a plain object (OTEL headers) is a leaf
  // when the table says so, which the caller checks by comparing with the declared paths.
  return Object.entries(value).flatMap(([field, inner]) => fieldsOf(inner, [...path, field]));
}

it('adding a declaration is enough: each setting fills its field in its area\'s Config slice, and has its row in that area\'s section of the docs', () => {
  const config = loadConfig({});
  const page = readFileSync(configurationPath(), 'utf8');
  for (const [slice, area] of Object.entries(AREAS)) {
    const section = page.split('\n## ').find((s) => s.startsWith(`${area.title}\n`)) ?? '';
    const declared = leaves(area.settings);
    const parsed: unknown = Reflect.get(config, slice);
    for (const { path, setting } of declared) {
      let at: unknown = parsed;
      for (const field of path) at = at !== null && typeof at === 'object' && Object.hasOwn(at, field) ? (Reflect.get(at, field) as unknown) : MISSING;
      expect({ setting: setting.name, field: `${slice}.${path.join('.')}`, inConfig: at !== MISSING, inDocs: section.includes(`| \`${setting.name}\` |`) }).toEqual({
        setting: setting.name,
        field: `${slice}.${path.join('.')}`,
        inConfig: true,
        inDocs: true,
      });
    }
    // …and the slice holds nothing the table does not declare (no second, hand-written field).
    const paths = new Set(declared.map((d) => d.path.join('.')));
    expect(fieldsOf(parsed).filter((f) => ![...paths].some((p) => f === p || f.startsWith(`${p}.`)))).toEqual([]);
  }
  expect(Object.keys(config).sort()).toEqual(Object.keys(AREAS).sort());
});
