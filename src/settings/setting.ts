/**
 * One setting = one declaration: its environment variable, how its value is read and checked,
 * and the words of its row in docs/configuration.md. The constructors below cover the kinds the
 * gateway has (integers in a range, one word of a set, on/off, URLs); `custom` takes a reader for
 * the rest. A bad value throws ConfigError with a one-line message that starts with the variable.
 */

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/** What a setting's reader sees: the environment and the other settings' checked values. */
export interface SettingsReader {
  /** The variable as given (untrimmed; undefined when absent). */
  raw(name: string): string | undefined;
  /** The variable trimmed; undefined when absent or blank. */
  text(name: string): string | undefined;
  /** Another setting's checked value (read once, whatever asks first). */
  get<T>(setting: Setting<T>): T;
}

export interface Setting<T> {
  /** The environment variable. */
  readonly name: string;
  /** The reference row: what it does, its default and the values it takes (Markdown). */
  readonly meaning: string;
  readonly defaultText: string;
  readonly rangeText: string;
  read(env: SettingsReader): T;
}

/** A number, or one computed from other settings (a share of a maximum, a floor). */
type Bound = number | ((env: SettingsReader) => number);

const bound = (b: Bound, env: SettingsReader): number => (typeof b === 'number' ? b : b(env));

/** Longest pause or timeout most settings take, in milliseconds. */
export const MAX_MS = 600_000;

interface Doc {
  name: string;
  meaning: string;
  /** Default text for the reference, when the value alone does not say it. */
  defaultText?: string;
  /** Range text for the reference, when the bounds alone do not say it. */
  rangeText?: string;
}

export function int(spec: Doc & { min: Bound; max: Bound; fallback: Bound; atLeast?: Setting<number> }): Setting<number> {
  const { name, min, max, fallback, atLeast } = spec;
  return {
    name,
    meaning: spec.meaning,
    defaultText: spec.defaultText ?? (typeof fallback === 'number' ? code(fallback) : '—'),
    rangeText: spec.rangeText ?? (typeof min === 'number' && typeof max === 'number' ? `${min}–${max}${atLeast ? `, at least ${code(atLeast.name)}` : ''}` : '—'),
    read(env) {
      const value = env.text(name);
      const n = value === undefined ? bound(fallback, env) : integer(name, value, bound(min, env), bound(max, env));
      if (atLeast !== undefined) {
        const floor = env.get(atLeast);
        if (n < floor) throw new ConfigError(`${name} must be at least ${atLeast.name} (${floor}); got ${n}`);
      }
      return n;
    },
  };
}

/** An integer that is off (null) when unset. */
export function optionalInt(spec: Doc & { min: number; max: number; defaultText: string }): Setting<number | null> {
  return {
    name: spec.name,
    meaning: spec.meaning,
    defaultText: spec.defaultText,
    rangeText: spec.rangeText ?? `${spec.min}–${spec.max}`,
    read(env) {
      const value = env.text(spec.name);
      return value === undefined ? null : integer(spec.name, value, spec.min, spec.max);
    },
  };
}

function integer(name: string, value: string, min: number, max: number): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new ConfigError(`${name} must be an integer from ${min} to ${max}; got ${JSON.stringify(value)}`);
  return n;
}

/** One word of a closed set, case-insensitive; `fallback` may be another setting's value. */
export function choice<T extends string>(spec: Doc & { values: readonly T[]; fallback: T | Setting<T> }): Setting<T> {
  const { name, values, fallback } = spec;
  return {
    name,
    meaning: spec.meaning,
    defaultText: spec.defaultText ?? (typeof fallback === 'string' ? code(fallback) : `the value of ${code(fallback.name)}`),
    rangeText: spec.rangeText ?? values.map(code).join(', '),
    read(env) {
      const value = env.text(name);
      if (value === undefined) return typeof fallback === 'string' ? fallback : env.get(fallback);
      return word(name, value, values);
    },
  };
}

export function word<T extends string>(name: string, value: string, values: readonly T[]): T {
  const match = values.find((a) => a === value.toLowerCase());
  if (match === undefined) throw new ConfigError(`${name} must be one of ${values.join(', ')}; got ${JSON.stringify(value)}`);
  return match;
}

/** `on`/`off` as a boolean. */
export function onOff(spec: Doc & { fallback: boolean }): Setting<boolean> {
  const words = choice({ ...spec, values: ['on', 'off'] as const, fallback: spec.fallback ? 'on' : 'off' });
  return { ...words, read: (env) => words.read(env) === 'on' };
}

/** An http(s) URL without credentials, query or fragment, trailing slashes dropped; null when unset. */
export function url(spec: Doc & { defaultText: string }): Setting<string | null> {
  return {
    name: spec.name,
    meaning: spec.meaning,
    defaultText: spec.defaultText,
    rangeText: spec.rangeText ?? '`http://` or `https://` URL',
    read: (env) => httpUrl(spec.name, env.text(spec.name)),
  };
}

export function httpUrl(name: string, value: string | undefined): string | null {
  if (value === undefined) return null;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an http(s) URL; got ${JSON.stringify(value)}`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new ConfigError(`${name} must be an http(s) URL; got ${JSON.stringify(value)}`);
  // Credentials in a URL end up in logs and error messages: search has its own variables for them.
  if (parsed.username || parsed.password) throw new ConfigError(`${name} must not carry credentials${name.startsWith('SEARCH') ? ' (use SEARCH_USERNAME/SEARCH_PASSWORD)' : ''}`);
  if (parsed.search || parsed.hash) throw new ConfigError(`${name} must not have a query string or fragment`);
  return parsed.href.replace(/\/+$/, '');
}

/** Any other kind: the reader checks the value itself (and never echoes a secret). */
export function custom<T>(spec: Doc & { defaultText: string; rangeText: string; read(env: SettingsReader): T }): Setting<T> {
  return { name: spec.name, meaning: spec.meaning, defaultText: spec.defaultText, rangeText: spec.rangeText, read: spec.read };
}

/**
 * An area's settings by the field each fills in its slice of the Config; a nested table is a group
 * of fields (the limits' `price`, `budget`, `admission`). Its order is the order of the rows.
 */
export interface Table {
  readonly [field: string]: Setting<unknown> | Table;
}

/** A group of settings: one section of docs/configuration.md, one slice of the Config. */
export interface Area<T extends Table = Table> {
  readonly title: string;
  /** Markdown paragraphs printed above the table. */
  readonly intro?: string;
  readonly settings: T;
}

/** The values of a table's settings, field by field: what a reader of the Config sees. */
export type ValuesOf<T extends Table> = { readonly [K in keyof T]: T[K] extends Setting<infer V> ? V : T[K] extends Table ? ValuesOf<T[K]> : never };

/** An area's slice of the Config, derived from its declarations (`SettingsOf<typeof TRANSPORTS>`). */
export type SettingsOf<A extends Area> = ValuesOf<A['settings']>;

/** Declares an area; its type keeps the table's fields, so its slice's type follows from it. */
export function area<T extends Table>(spec: Area<T>): Area<T> {
  return spec;
}

export function isSetting(entry: Setting<unknown> | Table): entry is Setting<unknown> {
  return typeof entry['read'] === 'function';
}

/** A table's settings, depth first, in the order of its rows. */
export function settingsOf(table: Table): Setting<unknown>[] {
  return Object.values(table).flatMap((entry) => (isSetting(entry) ? [entry] : settingsOf(entry)));
}

export const code = (value: string | number): string => `\`${value}\``;
