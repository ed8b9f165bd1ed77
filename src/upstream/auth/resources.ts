/**
 * The resource table of auth/v1 (seed 000, "Operations"): one row per resource, serving the
 * client (paths, parsers, list filters) and the loaders (by-id keys) alike.
 */
import {
  parseDomain,
  parseGrant,
  parsePublicGrant,
  parseResourceAction,
  parseResourceType,
  parseSuperUser,
} from './records';
import type {
  DomainRecord,
  GrantRecord,
  PublicGrantRecord,
  ResourceActionRecord,
  ResourceTypeRecord,
  SuperUserRecord,
} from './types';

/** A list filter value as sent in the query string (booleans as `true`/`false`). */
export type FilterValue = string | boolean;
export type ListFilter = Record<string, FilterValue | null | undefined>;

export interface AuthResource<T> {
  /** Name used in messages and cache keys. */
  name: string;
  /** Collection path below `/auth/v1`. */
  path: string;
  parse(value: unknown): T;
  /** Query parameters the list operation accepts (others are never sent). */
  filters: readonly string[];
  /** False for grants: the contract has no `GET /grants/{id}`. */
  byId: boolean;
}

function resource<T>(row: AuthResource<T>): AuthResource<T> {
  return row;
}

export const AUTH_RESOURCES = {
  domain: resource<DomainRecord>({ name: 'Domain', path: '/domains', parse: parseDomain, filters: [], byId: true }),
  resourceType: resource<ResourceTypeRecord>({
    name: 'ResourceType',
    path: '/resource-types',
    parse: parseResourceType,
    filters: ['domainId', 'code', 'parentId'],
    byId: true,
  }),
  resourceAction: resource<ResourceActionRecord>({
    name: 'ResourceAction',
    path: '/resource-actions',
    parse: parseResourceAction,
    filters: ['code', 'resourceTypeId', 'domainId', 'customRoleId', 'standardRoleTypeId'],
    byId: true,
  }),
  grant: resource<GrantRecord>({
    name: 'Grant',
    path: '/grants',
    parse: parseGrant,
    filters: ['grantType', 'identityId', 'resourceActionId', 'path'],
    byId: false,
  }),
  superUser: resource<SuperUserRecord>({
    name: 'SuperUser',
    path: '/super-users',
    parse: parseSuperUser,
    filters: ['identityId', 'domainId', 'isDeleted'],
    byId: true,
  }),
  publicGrant: resource<PublicGrantRecord>({
    name: 'PublicGrant',
    path: '/public-grants',
    parse: parsePublicGrant,
    filters: ['resourceActionId', 'isAnonymous', 'path', 'isDeleted'],
    byId: true,
  }),
} as const;

export type AuthResourceName = keyof typeof AUTH_RESOURCES;

/**
 * The filter reduced to the parameters the resource accepts, null/undefined dropped, in a
 * fixed order: equal filters give equal strings, used as list cache keys.
 */
export function canonicalFilter(res: AuthResource<unknown>, filter: ListFilter): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const key of res.filters) {
    const v = filter[key];
    if (v !== null && v !== undefined) out.push([key, String(v)]);
  }
  return out;
}

export function filterKey(res: AuthResource<unknown>, filter: ListFilter): string {
  return `${res.path}?${new URLSearchParams(canonicalFilter(res, filter)).toString()}`;
}
