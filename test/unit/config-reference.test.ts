/**
 * docs/configuration.md's reference is the settings' declarations printed: a setting added,
 * changed or removed in src/settings without `npm run config:reference` fails here.
 */
import { readFileSync } from 'node:fs';
import { configurationPath, withReference } from '../../scripts/config-reference';
import { AREAS, SETTING_NAMES } from '../../src/settings';

it('docs/configuration.md holds the reference generated from the declarations (run `npm run config:reference`)', () => {
  const page = readFileSync(configurationPath(), 'utf8');
  expect(page).toBe(withReference(page));
});

it('declares each variable once, with a meaning, a default and a range', () => {
  const settings = AREAS.flatMap((area) => area.settings);
  expect(settings.length).toBe(SETTING_NAMES.size);
  for (const setting of settings) {
    expect({ name: setting.name, blank: [setting.meaning, setting.defaultText, setting.rangeText].some((text) => text.trim() === '' || text === '—') }).toEqual({ name: setting.name, blank: false });
  }
});
