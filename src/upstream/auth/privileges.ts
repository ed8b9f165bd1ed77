/**
 * Flattening a grant's `privileges` map (domain code → resource type code → action code →
 * list of lists) into entries a frontend can render. The leaf values are "not shown" by the
 * contract: the raw leaf is kept, and `paths` is filled only when the leaf is a list of lists
 * of scalars. Any other shape, at any level, is skipped or kept raw, never an error.
 */
import { isObject } from '../../core/parse';

export interface PrivilegeEntryRecord {
  domainCode: string;
  resourceTypeCode: string;
  actionCode: string;
  /** The leaf as lists of strings; null when the leaf has another shape. */
  paths: string[][] | null;
  /** The leaf exactly as the upstream sent it. */
  value: unknown;
}

export function flattenPrivileges(privileges: unknown): PrivilegeEntryRecord[] {
  const entries: PrivilegeEntryRecord[] = [];
  for (const [domainCode, types] of objectEntries(privileges)) {
    for (const [resourceTypeCode, actions] of objectEntries(types)) {
      for (const [actionCode, value] of objectEntries(actions)) {
        entries.push({ domainCode, resourceTypeCode, actionCode, paths: leafPaths(value), value: value ?? null });
      }
    }
  }
  return entries;
}

function objectEntries(value: unknown): Array<[string, unknown]> {
  return isObject(value) ? Object.entries(value) : [];
}

function leafPaths(leaf: unknown): string[][] | null {
  if (!Array.isArray(leaf)) return null;
  const paths: string[][] = [];
  for (const inner of leaf) {
    if (!Array.isArray(inner)) return null;
    const path: string[] = [];
    for (const item of inner) {
      if (typeof item === 'string') path.push(item);
      else if (typeof item === 'number' || typeof item === 'boolean') path.push(String(item));
      else return null;
    }
    paths.push(path);
  }
  return paths;
}
