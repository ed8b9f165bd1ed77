/** Test helper: a started sandbox and a tiny fetch wrapper that returns status, headers and body. */
import { startSandbox, type RestV1Facts, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox';

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  /** The body parsed as JSON (undefined when not JSON). */
  json: unknown;
}

export async function call(
  sandbox: RunningSandbox,
  method: string,
  path: string,
  options: { token?: string | null; body?: unknown; rawBody?: string; contentType?: string; headers?: Record<string, string> } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...(options.headers ?? {}) };
  if (options.token !== null) headers['Authorization'] = `Bearer ${options.token ?? sandbox.tokens.admin}`;
  let body: string | undefined;
  if (options.rawBody !== undefined) {
    body = options.rawBody;
    headers['Content-Type'] = options.contentType ?? 'text/plain';
  } else if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] = 'application/json';
  }
  const res = await fetch(`${sandbox.baseUrl}${path}`, { method, headers, ...(body !== undefined ? { body } : {}) });
  const text = await res.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : (JSON.parse(text) as unknown);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

/** Reads a nested value: `at(json, '_embedded', 'networks', 0, 'id')`. */
export function at(value: unknown, ...keys: Array<string | number>): unknown {
  let current = value;
  for (const key of keys) {
    if (Array.isArray(current) && typeof key === 'number') current = current[key];
    else if (typeof current === 'object' && current !== null && !Array.isArray(current)) current = new Map(Object.entries(current)).get(String(key));
    else return undefined;
  }
  return current;
}

/** The value as an array of objects (throws otherwise, so a wrong shape fails the test). */
export function records(value: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(value)) throw new Error(`expected an array, got ${JSON.stringify(value)?.slice(0, 200)}`);
  return value.map((item) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new Error(`expected an object, got ${JSON.stringify(item)}`);
    return Object.fromEntries(Object.entries(item));
  });
}

/** The keys of an object value, sorted (throws for anything else). */
export function keys(value: unknown): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new Error(`expected an object, got ${JSON.stringify(value)}`);
  return Object.keys(value).sort();
}

export function list(value: unknown, plural: string): Array<Record<string, unknown>> {
  const items = at(value, '_embedded', plural);
  if (!Array.isArray(items)) throw new Error(`no _embedded.${plural} in ${JSON.stringify(value).slice(0, 300)}`);
  return records(items);
}

export function str(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`expected a string, got ${JSON.stringify(value)}`);
  return value;
}

export async function withSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ seed: 'tiny', stepMs: 50, ...options });
}

/** The value as an array of strings (throws otherwise). */
export function strings(value: unknown): string[] {
  if (!Array.isArray(value) || !value.every((x): x is string => typeof x === 'string')) throw new Error(`expected strings, got ${JSON.stringify(value)}`);
  return value;
}

/** The first seeded network (every seed has one). */
export function firstNetwork(facts: RestV1Facts): RestV1Facts['networks'][number] {
  const net = facts.networks[0];
  if (net === undefined) throw new Error('no seeded network');
  return net;
}
