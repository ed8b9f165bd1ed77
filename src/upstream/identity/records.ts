/**
 * identity/v1 wire record. The contract calls `GET /identity/v1/organization` informational and
 * shows no fields, so the common ones are typed and the rest kept as `attributes`.
 */
import { Fields, type JsonObject } from '../../core/parse';

export interface OrganizationRecord {
  id: string;
  name: string | null;
  label: string | null;
  attributes: JsonObject;
}

export function parseOrganization(value: unknown): OrganizationRecord {
  const f = Fields.of(value, 'Organization');
  const attributes: JsonObject = {};
  for (const [k, v] of Object.entries(f.obj)) if (k !== '_links' && k !== '_embedded') attributes[k] = v;
  return { id: f.id('id'), name: f.str('name'), label: f.str('label') ?? f.str('shortName'), attributes };
}
