/**
 * Every setting of the gateway, by area. How to add a setting:
 *
 * 1. Declare it once, in its area's table (server, upstream, resilience, cache, callers, documents,
 *    limits, transports, subscriptions, provisioning, idempotency, fleet, mcp, telemetry), under
 *    the field it fills: `myField: int({ name, meaning, min, max, fallback })` (or `choice`,
 *    `onOff`, `url`, `optionalInt`, `custom`; see setting.ts), where its row should appear. One
 *    another setting reads is a named `const` above the table instead, and the table names it.
 * 2. Run `npm run config:reference`: docs/configuration.md's reference is generated from the
 *    declarations (test/unit/config-reference.test.ts fails while they differ).
 *
 * The Config's slice of the area (`config.<area>.myField`) and its type follow from the table;
 * validation, the misspelling check and the documentation all come from the declaration.
 */
import { CACHE } from './cache';
import { CALLERS } from './callers';
import { DOCUMENTS } from './documents';
import { FLEET } from './fleet';
import { IDEMPOTENCY } from './idempotency';
import { LIMITS } from './limits';
import { MCP } from './mcp';
import { PROVISIONING } from './provisioning';
import { RESILIENCE } from './resilience';
import { SERVER } from './server';
import { ConfigError, isSetting, settingsOf, type Setting, type SettingsOf, type SettingsReader, type Table, type ValuesOf } from './setting';
import { SUBSCRIPTIONS } from './subscriptions';
import { TELEMETRY } from './telemetry';
import { TRANSPORTS } from './transports';
import { UPSTREAM } from './upstream';

export { ConfigError, settingsOf, type Area, type Setting, type SettingsOf } from './setting';

/** The areas, by the name of their slice of the Config, in the order of docs/configuration.md. */
export const AREAS = {
  server: SERVER,
  upstream: UPSTREAM,
  resilience: RESILIENCE,
  cache: CACHE,
  callers: CALLERS,
  documents: DOCUMENTS,
  limits: LIMITS,
  transports: TRANSPORTS,
  subscriptions: SUBSCRIPTIONS,
  provisioning: PROVISIONING,
  idempotency: IDEMPOTENCY,
  fleet: FLEET,
  mcp: MCP,
  telemetry: TELEMETRY,
} as const;

/** Every setting's checked value, area by area: the Config. */
export type Settings = { readonly [A in keyof typeof AREAS]: SettingsOf<(typeof AREAS)[A]> };

export const SETTING_NAMES: ReadonlySet<string> = new Set(Object.values(AREAS).flatMap((area) => settingsOf(area.settings).map((s) => s.name)));

type Env = Readonly<Record<string, string | undefined>>;

/**
 * Checks every setting (in the areas' order; one that needs another reads it first) and returns
 * their values, area by area.
 */
export function readSettings(env: Env): Settings {
  const values = new Map<Setting<unknown>, { value: unknown }>();
  const reading = new Set<Setting<unknown>>();
  const reader: SettingsReader = {
    raw: (name) => env[name],
    text(name) {
      const value = env[name]?.trim();
      return value === undefined || value === '' ? undefined : value;
    },
    get<T>(setting: Setting<T>): T {
      const known = values.get(setting);
      // The map holds each setting's own read result, so the value has that setting's type.
      if (known !== undefined) return known.value as T;
      if (reading.has(setting)) throw new Error(`setting ${setting.name} depends on itself`);
      reading.add(setting);
      const value = setting.read(reader);
      reading.delete(setting);
      values.set(setting, { value });
      return value;
    },
  };
  for (const area of Object.values(AREAS)) for (const setting of settingsOf(area.settings)) reader.get(setting);
  const slices = Object.entries(AREAS).map(([slice, area]) => [slice, valuesOf(area.settings, reader)]);
  // Each slice is its area's table read by valuesOf, which is what Settings says it is.
  return Object.fromEntries(slices) as Settings;
}

/** A table's values, field by field (each setting already read, so no order matters here). */
function valuesOf<T extends Table>(table: T, reader: SettingsReader): ValuesOf<T> {
  const entries = Object.entries(table).map(([field, entry]) => [field, isSetting(entry) ? reader.get(entry) : valuesOf(entry, reader)]);
  // Each field holds the value its own declaration read, which is the type ValuesOf gives it.
  return Object.fromEntries(entries) as ValuesOf<T>;
}

/**
 * Refuses a variable that looks like a misspelt setting, which would otherwise be ignored in
 * silence (a misspelt UPSTREAM_BASE_URL once meant the demo): any unknown `UPSTREAM_*` or
 * `NETGRAPH_*`, and any unknown name within two edits of a setting's (case, `_`, `-` and `.`
 * ignored; settings of 8 letters or more, so HOME is not taken for HOST). Kubernetes' service
 * variables (`<SERVICE>_SERVICE_HOST`, `<SERVICE>_PORT_…`, made for a Service named `netgraph`
 * or `upstream`) are not settings and are let through. `nearOnly`: only near misses count.
 */
export function refuseMisspelt(present: readonly string[], options: { nearOnly: boolean }): void {
  const known = [...SETTING_NAMES].map((name) => ({ name, key: squash(name) })).filter((s) => s.key.length >= 8);
  for (const name of present) {
    if (SETTING_NAMES.has(name) || SERVICE_LINK.test(name) || name.startsWith('npm_')) continue;
    const key = squash(name);
    const near = known.filter((s) => Math.abs(s.key.length - key.length) <= 2 && editDistance(s.key, key) <= 2);
    const closest = near.sort((a, b) => editDistance(a.key, key) - editDistance(b.key, key))[0];
    if (closest === undefined && (options.nearOnly || !/^(UPSTREAM|NETGRAPH)_/i.test(name))) continue;
    throw new ConfigError(`${name} is not a setting of this gateway${closest ? `; did you mean ${closest.name}?` : ''} (see the configuration table in README.md)`);
  }
}

const SERVICE_LINK = /^[A-Z][A-Z\d_]*_(?:SERVICE_HOST|SERVICE_PORT(?:_[A-Z\d_]+)?|PORT(?:_\d+_(?:TCP|UDP|SCTP)(?:_(?:PROTO|PORT|ADDR))?)?)$/;

function squash(name: string): string {
  return name.toUpperCase().replace(/[_.-]/g, '');
}

/** Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`. */
function editDistance(a: string, b: string): number {
  const width = b.length + 1;
  const d = new Uint16Array((a.length + 1) * width);
  const at = (i: number, j: number): number => d[i * width + j] ?? 0;
  for (let i = 0; i <= a.length; i += 1) d[i * width] = i;
  for (let j = 0; j <= b.length; j += 1) d[j] = j;
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      let v = Math.min(at(i - 1, j) + 1, at(i, j - 1) + 1, at(i - 1, j - 1) + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, at(i - 2, j - 2) + 1);
      d[i * width + j] = v;
    }
  }
  return at(a.length, b.length);
}

export const REFERENCE_START = '<!-- reference: generated from src/settings by `npm run config:reference`; edit the declarations, not this table -->';
export const REFERENCE_END = '<!-- end of reference -->';

/** The reference section of docs/configuration.md: one table per area, one row per setting. */
export function renderReference(): string {
  const sections = Object.values(AREAS).map((area) => {
    const rows = settingsOf(area.settings).map((s) => `| \`${s.name}\` | ${s.meaning} | ${s.defaultText} | ${s.rangeText} |`);
    return [`## ${area.title}`, '', ...(area.intro ? [area.intro, ''] : []), '| variable | meaning | default | range |', '|---|---|---|---|', ...rows].join('\n');
  });
  return [REFERENCE_START, '', sections.join('\n\n'), '', REFERENCE_END].join('\n');
}
