/**
 * The tables of auth/v1: the resources it reads (path, parser, list filters, by-id keys), serving
 * the client and the loaders alike, and the changes it takes (request, answer parser, how to check
 * an unknown outcome, which cached reads each one makes stale).
 */
import { asArray } from '../../core/parse';
import {
  parseDomain,
  parseGrant,
  parseMasquerade,
  parsePublicGrant,
  parseResourceAction,
  parseResourceType,
  parseSuperUser,
} from './records';
import type {
  DomainRecord,
  GrantRecord,
  MasqueradeRecord,
  PublicGrantRecord,
  ResourceActionRecord,
  ResourceTypeDefinition,
  ResourceTypeRecord,
  SuperUserRecord,
} from './types';
import { segment } from '../path-segment';

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

/** One auth/v1 change: where it goes (a POST sends its input as the body), what it answers, how to check it, what it makes stale. */
export interface AuthWriteDef<I, R> {
  method: 'POST' | 'DELETE';
  /** Path below `/auth/v1`. */
  path(input: I): string;
  parse(value: unknown): R;
  /** How to find out whether it was applied, said after an unknown outcome. */
  hint(input: I): string;
  /** The resources whose cached records and lists it makes stale. */
  touches: readonly AuthResourceName[];
}

/** Input and answer of each change. */
export interface AuthWriteTypes {
  createDomain: { input: { name: string; code: string }; result: DomainRecord };
  createResourceType: { input: { domainId: string | null; parentId: string | null; resourceType: ResourceTypeDefinition }; result: ResourceTypeRecord };
  createResourceActions: { input: { resourceTypeId: string | null; actions: Array<{ name: string; code: string }> }; result: ResourceActionRecord[] };
  createSuperUser: { input: { identityId: string; domainId: string | null }; result: SuperUserRecord };
  deleteSuperUser: { input: { id: string }; result: null };
  createPublicGrant: {
    input: { resourceActionId: string | null; path: Array<{ resourceId: string; resourceTypeId: string | null }>; anonymous: boolean | null };
    result: PublicGrantRecord;
  };
  masquerade: { input: { identityId: string; audience: string; claims: Record<string, unknown> }; result: MasqueradeRecord };
}
export type AuthWriteName = keyof AuthWriteTypes;

const R = AUTH_RESOURCES;
const quoted = JSON.stringify;

/**
 * The changes auth/v1 takes. What each makes stale: its own resource's records and lists, and
 * grants where the change adds or removes one (a super user's grant lists every action of its
 * domains, so new actions change it too).
 */
export const AUTH_WRITES: { readonly [N in AuthWriteName]: AuthWriteDef<AuthWriteTypes[N]['input'], AuthWriteTypes[N]['result']> } = {
  createDomain: {
    method: 'POST',
    path: () => R.domain.path,
    parse: parseDomain,
    hint: (i) => `Before creating it again, read the domain by its code ${quoted(i.code)}: it may exist now`,
    touches: ['domain'],
  },
  createResourceType: {
    method: 'POST',
    path: () => R.resourceType.path,
    parse: parseResourceType,
    hint: (i) => `Before creating it again, list the resource types with code ${quoted(i.resourceType.code)}: it may exist now`,
    touches: ['resourceType'],
  },
  createResourceActions: {
    method: 'POST',
    path: () => R.resourceAction.path,
    parse: (value) => asArray(value, 'created resource actions').map(parseResourceAction),
    hint: () => "Before creating them again, list the resource type's actions: some may exist now",
    touches: ['resourceAction', 'grant'],
  },
  createSuperUser: {
    method: 'POST',
    path: () => R.superUser.path,
    parse: parseSuperUser,
    hint: (i) => `Before creating it again, list the super users of identity ${i.identityId}: it may exist now`,
    touches: ['superUser', 'grant'],
  },
  deleteSuperUser: {
    method: 'DELETE',
    path: (i) => `${R.superUser.path}/${segment(i.id)}`,
    // The answer is empty.
    parse: () => null,
    hint: (i) => `Read super user ${i.id} by its id: a deletedAt means it is deleted`,
    touches: ['superUser', 'grant'],
  },
  createPublicGrant: {
    method: 'POST',
    path: () => R.publicGrant.path,
    parse: parsePublicGrant,
    hint: () => "Before creating it again, list the action's public grants: it may exist now",
    touches: ['publicGrant', 'grant'],
  },
  masquerade: {
    method: 'POST',
    path: () => '/masquerade',
    parse: parseMasquerade,
    hint: () => 'A masquerade changes nothing: ask for a token again',
    touches: [],
  },
};

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
