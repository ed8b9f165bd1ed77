/**
 * Parsers from auth/v1 JSON to the wire records (no casts: every field is checked).
 * Required: the ids the contract says are never null (a record without one is a bad response);
 * everything else reads leniently (see ../parse.ts).
 */
import { Fields, isObject } from '../../core/parse';
import { ShapeError } from '../../errors/shape-error';
import type {
  AuthRecordBase,
  DomainRecord,
  GrantRecord,
  MasqueradeRecord,
  PublicGrantPathRecord,
  PublicGrantRecord,
  ResourceActionRecord,
  ResourceTypeRecord,
  SoftDeleteFields,
  SuperUserRecord,
} from './types';

/*
 * The shared parts (`...base(f)`, `...softDelete(f)`) go last in each record literal: V8 builds
 * `{ ...spread, a, b }` far slower than `{ a, b, ...spread }` (docs/performance.md), and auth/v1
 * lists are whole lists of hundreds of records.
 */
function base(f: Fields): AuthRecordBase {
  return { createdBy: f.str('createdBy'), createdAt: f.str('createdAt'), title: f.str('_title') };
}

function softDelete(f: Fields): SoftDeleteFields {
  return { deletedAt: f.str('deletedAt'), deletedBy: f.str('deletedBy') };
}

export function parseDomain(value: unknown): DomainRecord {
  const f = Fields.of(value, 'Domain');
  return { id: f.id('id'), name: f.str('name'), code: f.str('code'), updatedAt: f.str('updatedAt'), ...base(f) };
}

export function parseResourceType(value: unknown): ResourceTypeRecord {
  const f = Fields.of(value, 'ResourceType');
  const parentId = f.str('parentId');
  return {
    id: f.id('id'),
    domainId: f.str('domainId'),
    name: f.str('name'),
    code: f.str('code'),
    updatedAt: f.str('updatedAt'),
    parentId,
    // The contract defines root as "no parent": derive it when the flag is missing.
    root: f.bool('root') ?? parentId === null,
    depth: f.int('depth'),
    childrenIds: Array.isArray(f.raw('childrenIds')) ? f.strList('childrenIds') : null,
    ...base(f),
  };
}

export function parseResourceAction(value: unknown): ResourceActionRecord {
  const f = Fields.of(value, 'ResourceAction');
  return {
    id: f.id('id'),
    resourceTypeId: f.str('resourceTypeId'),
    name: f.str('name'),
    code: f.str('code'),
    updatedAt: f.str('updatedAt'),
    standardAction: f.bool('standardAction'),
    ...base(f),
  };
}

export function parseGrant(value: unknown): GrantRecord {
  const f = Fields.of(value, 'Grant');
  return {
    grantType: f.id('grantType'),
    grantId: f.str('grantId'),
    privilegeSourceId: f.str('privilegeSourceId'),
    identityId: f.str('identityId'),
    privileges: f.raw('privileges'),
    ...base(f),
    ...softDelete(f),
  };
}

export function parseSuperUser(value: unknown): SuperUserRecord {
  const f = Fields.of(value, 'SuperUser');
  return {
    id: f.id('id'),
    identityId: f.str('identityId'),
    domainId: f.str('domainId'),
    updatedAt: f.str('updatedAt'),
    type: f.str('type'),
    ...base(f),
    ...softDelete(f),
  };
}

function parsePathEntry(value: unknown, index: number): PublicGrantPathRecord {
  const f = Fields.of(value, `PublicGrant.path[${index}]`);
  return { resourceId: f.id('resourceId'), resourceTypeId: f.str('resourceTypeId') };
}

export function parsePublicGrant(value: unknown): PublicGrantRecord {
  const f = Fields.of(value, 'PublicGrant');
  const path = f.raw('path');
  return {
    id: f.id('id'),
    resourceActionId: f.str('resourceActionId'),
    updatedAt: f.str('updatedAt'),
    // Never null per the contract; an absent path reads as empty (= all resources).
    path: Array.isArray(path) ? path.map(parsePathEntry) : [],
    anonymous: f.bool('anonymous'),
    type: f.str('type'),
    ...base(f),
    ...softDelete(f),
  };
}

export function parseMasquerade(value: unknown): MasqueradeRecord {
  if (!isObject(value)) throw new ShapeError('Masquerade: expected an object with a token');
  return { token: Fields.of(value, 'Masquerade').id('token') };
}
