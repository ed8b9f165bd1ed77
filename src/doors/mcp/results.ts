/**
 * GraphQL results as MCP tool results. Data: `structuredContent` (the data itself), a short text
 * summary, and the data as JSON text for clients that read only text (as the MCP specification
 * asks of tools returning structured content). Errors: a tool error (`isError`) whose text names
 * each error's code and message, and whose JSON keeps the codes and the client-facing extensions
 * only: never `extensions.upstream` (where the gateway's calls went) and never anything else
 * that is not listed below. Messages lose anything that looks like an address or a credential.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { McpError, McpResult } from './runner';

/** Extensions an assistant may see: what the error is and what to do about it. */
const SHOWN_EXTENSIONS = ['code', 'field', 'cost', 'limit', 'max', 'scope', 'retryAfter', 'outcomeUnknown'] as const;

/** How many names a list's summary shows. */
const NAMES_SHOWN = 10;

export interface ShownError {
  message: string;
  code: string;
  path?: ReadonlyArray<string | number>;
  extensions: Record<string, unknown>;
}

function scrub(message: string): string {
  return message
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>)]+/gi, '[address]')
    .replace(/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, '$1 [redacted]')
    .replace(/\beyJ[A-Za-z0-9_-]*\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g, '[redacted]');
}

export function shownError(error: McpError): ShownError {
  const extensions: Record<string, unknown> = {};
  for (const key of SHOWN_EXTENSIONS) if (error.extensions?.[key] !== undefined) extensions[key] = error.extensions[key];
  const code = typeof extensions['code'] === 'string' ? extensions['code'] : 'INTERNAL_SERVER_ERROR';
  return { message: scrub(error.message), code, ...(error.path ? { path: error.path } : {}), extensions: { ...extensions, code } };
}

/** A tool error from GraphQL errors (and the partial data, if any, in its JSON). */
export function errorResult(tool: string, errors: ReadonlyArray<McpError>, data?: Record<string, unknown> | null): CallToolResult {
  const shown = errors.map(shownError);
  const lines = shown.map((e) => `${e.code}: ${e.message}${e.path ? ` (at ${e.path.join('.')})` : ''}`);
  const partial = data !== undefined && data !== null ? { data } : {};
  return {
    isError: true,
    content: [
      { type: 'text', text: `${tool} failed: ${lines.join('; ')}` },
      { type: 'text', text: JSON.stringify({ errors: shown, ...partial }) },
    ],
  };
}

/** A refusal by the door itself (not a GraphQL error): same shape as errorResult's. */
/** The door's own refusals (not the pipeline's answers): the handler logs and counts these itself. */
const doorRefusals = new WeakSet<CallToolResult>();

export function refusal(tool: string, code: string, message: string): CallToolResult {
  const result = errorResult(tool, [{ message, extensions: { code } }]);
  doorRefusals.add(result);
  return result;
}

/** Whether a tool result is one of the door's own refusals, with its code. */
export function doorRefusalCode(result: CallToolResult): string | null {
  if (!doorRefusals.has(result)) return null;
  const json = result.content.find((c) => c.type === 'text' && c.text.startsWith('{'));
  const code = json?.type === 'text' ? /"code":"([A-Z_]+)"/.exec(json.text)?.[1] : undefined;
  return code ?? 'INTERNAL_SERVER_ERROR';
}

/** A successful result: the data as structured content, a summary, and the data as JSON text. */
export function dataResult(tool: string, data: Record<string, unknown>, notes: readonly string[] = []): CallToolResult {
  const summary = [summarize(data), ...notes].filter((line) => line !== '').join('\n');
  return {
    structuredContent: data,
    content: [
      { type: 'text', text: `${tool}: ${summary}` },
      { type: 'text', text: JSON.stringify(data) },
    ],
  };
}

/** The result of a tool that ran an operation: data, or a tool error with the errors. */
export function operationResult(tool: string, result: McpResult, notes: readonly string[] = []): CallToolResult {
  if (result.errors && result.errors.length > 0) return errorResult(tool, result.errors, result.data);
  return dataResult(tool, result.data ?? {}, notes);
}

/** One line per root field: how many items a list holds and their names, or what a record is. */
export function summarize(data: Record<string, unknown>): string {
  return Object.entries(data)
    .map(([key, value]) => `${key}: ${describe(value)}`)
    .join('\n');
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'none';
  if (Array.isArray(value)) return `${value.length} item${value.length === 1 ? '' : 's'}${names(value)}`;
  if (typeof value !== 'object') return String(value);
  const record = value as Record<string, unknown>;
  const nodes = record['nodes'];
  if (Array.isArray(nodes)) {
    const total = record['totalCount'];
    const count = typeof total === 'number' && total !== nodes.length ? `${nodes.length} of ${total}` : `${nodes.length} item${nodes.length === 1 ? '' : 's'}`;
    return `${count}${names(nodes)}`;
  }
  const facts: string[] = [];
  for (const key of ['name', 'id', 'businessKey', 'state', 'statusName', 'accepted']) {
    if (record[key] !== undefined && record[key] !== null) facts.push(key === 'name' ? String(record[key]) : `${key} ${String(record[key])}`);
  }
  for (const [key, inner] of Object.entries(record)) {
    if (Array.isArray(inner)) facts.push(`${inner.length} ${key}`);
    else if (inner && typeof inner === 'object' && Array.isArray((inner as Record<string, unknown>)['nodes'])) facts.push(`${key}: ${describe(inner)}`);
  }
  return facts.length ? facts.join(', ') : 'a record';
}

function names(items: readonly unknown[]): string {
  const shown = items.slice(0, NAMES_SHOWN).map((item) => {
    if (!item || typeof item !== 'object') return String(item);
    const record = item as Record<string, unknown>;
    return String(record['name'] ?? record['id'] ?? record['task'] ?? '?');
  });
  if (shown.length === 0) return '';
  return `: ${shown.join(', ')}${items.length > NAMES_SHOWN ? ', …' : ''}`;
}
