/**
 * Trusted documents (persisted operations registered ahead of time): a manifest of the operations
 * a production frontend may run, loaded at start-up. In `only` mode every request must name a
 * registered operation (by `extensions.persistedQuery.sha256Hash`, or by sending a document whose
 * hash is registered): anything else is refused with PERSISTED_QUERY_NOT_IN_LIST before it is
 * parsed (src/pipeline/prepare.ts, on every door). Automatic persisted queries are separate: they
 * save bandwidth and admit any document.
 *
 * Manifest formats: Apollo's persisted query manifest
 * (`{ "format": "apollo-persisted-query-manifest", "version": 1, "operations": [{ "id", "body" }] }`)
 * or a plain map `{ "<sha256 hex>": "<document>" }`. Ids are checked against the bodies' SHA-256.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

export interface TrustedDocuments {
  /** The registered document with this hash, or undefined. */
  get(hash: string): string | undefined;
  /** True when only registered documents may run. */
  readonly only: boolean;
  readonly size: number;
  /** Every registered document (their operation names label the metrics; the MCP door offers each operation as a tool). */
  documents(): string[];
}

export function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

export class ManifestError extends Error {}

/** Parses a manifest's JSON text; throws ManifestError naming what is wrong. */
export function parseManifest(text: string, only: boolean): TrustedDocuments {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ManifestError('the trusted documents manifest is not JSON');
  }
  const entries: Array<[string, string]> = [];
  if (isObject(json) && json['format'] === 'apollo-persisted-query-manifest') {
    const operations = json['operations'];
    if (!Array.isArray(operations)) throw new ManifestError('the manifest has no operations array');
    for (const op of operations) {
      if (!isObject(op) || typeof op['id'] !== 'string' || typeof op['body'] !== 'string') throw new ManifestError('each manifest operation needs a string id and body');
      entries.push([op['id'], op['body']]);
    }
  } else if (isObject(json)) {
    for (const [id, body] of Object.entries(json)) {
      if (typeof body !== 'string') throw new ManifestError(`manifest entry ${id} is not a document string`);
      entries.push([id, body]);
    }
  } else {
    throw new ManifestError('the manifest must be a JSON object');
  }
  const documents = new Map<string, string>();
  for (const [id, body] of entries) {
    if (sha256(body) !== id.toLowerCase()) throw new ManifestError(`manifest id ${id} is not the SHA-256 of its document`);
    documents.set(id.toLowerCase(), body);
  }
  return { get: (hash) => documents.get(hash.toLowerCase()), only, size: documents.size, documents: () => [...documents.values()] };
}

export function loadManifest(path: string, only: boolean): TrustedDocuments {
  return parseManifest(readFileSync(path, 'utf8'), only);
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
