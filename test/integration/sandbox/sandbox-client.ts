/** Test helper: a started sandbox and a tiny fetch wrapper that returns status, headers and body. */
import { startSandbox, type RunningSandbox, type SandboxOptions } from '../../../src/sandbox';

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
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}

export function list(value: unknown, plural: string): Array<Record<string, unknown>> {
  const items = at(value, '_embedded', plural);
  if (!Array.isArray(items)) throw new Error(`no _embedded.${plural} in ${JSON.stringify(value).slice(0, 300)}`);
  return items.filter((x): x is Record<string, unknown> => typeof x === 'object' && x !== null);
}

export function str(value: unknown): string {
  if (typeof value !== 'string') throw new Error(`expected a string, got ${JSON.stringify(value)}`);
  return value;
}

export async function withSandbox(options: SandboxOptions = {}): Promise<RunningSandbox> {
  return startSandbox({ seed: 'tiny', stepMs: 50, ...options });
}
