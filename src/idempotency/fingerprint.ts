/**
 * What makes two requests "the same operation": the document's hash, the operation's name and the
 * variables in canonical JSON (keys sorted at every level), under SHA-256. A repeat whose variables
 * are the same object written in another key order is the same request; any other difference is a
 * reuse of the key.
 */
import { createHash } from 'node:crypto';

export interface FingerprintInput {
  /** SHA-256 (hex) of the document's text, as the pipeline keys prepared documents. */
  documentHash: string;
  operationName: string | null | undefined;
  variables: Readonly<Record<string, unknown>> | null | undefined;
}

/** JSON with object keys sorted at every level; `undefined` members dropped as JSON.stringify does. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map((item: unknown) => (item === undefined ? 'null' : canonicalJson(item))).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined && typeof v !== 'function')
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
}

/** SHA-256 (hex) of the document hash, the operation name and the canonical variables. */
export function fingerprintOf(input: FingerprintInput): string {
  return createHash('sha256')
    .update(`${input.documentHash}\n${input.operationName ?? ''}\n${canonicalJson(input.variables ?? {})}`)
    .digest('hex');
}

/** SHA-256 (hex) of a document's text, for a caller that has no hash at hand. */
export function documentHashOf(document: string): string {
  return createHash('sha256').update(document).digest('hex');
}
