/**
 * Wire views of the auth records (the authorization API's field tables): ISO 8601 UTC timestamps with
 * milliseconds and `Z`, nulls for absent values, and a generated `_title` on every record.
 *
 * Grant read view: `privileges` is domain code → resource type code → action code → list of
 * paths, each path a list of resource ids; `[[]]` (one empty path) means every resource of the
 * type. `privilegeSourceId` is the custom role id (CustomRole), the resource action id
 * (IdentityResourceAction, PublicGrant) or the domain id (SuperUser; null for all domains).
 */
import { PUBLIC_GRANT_TYPE, SUPER_USER_TYPE } from './seed-data';
import type {
  Audit,
  AuthStore,
  DomainRecord,
  PathEntry,
  PublicGrantRecord,
  ResourceActionRecord,
  ResourceTypeRecord,
  SoftDelete,
  SuperUserRecord,
} from './store';

export type GrantType = 'CustomRole' | 'IdentityResourceAction' | 'PublicGrant' | 'SuperUser';
export const GRANT_TYPES: readonly GrantType[] = ['CustomRole', 'IdentityResourceAction', 'PublicGrant', 'SuperUser'];

export function iso(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

function audit(r: Audit): Record<string, unknown> {
  return { createdBy: r.createdBy, createdAt: iso(r.createdAt), updatedAt: iso(r.updatedAt) };
}

function deletion(r: SoftDelete): Record<string, unknown> {
  return { deletedAt: iso(r.deletedAt), deletedBy: r.deletedBy };
}

export function domainView(d: DomainRecord): Record<string, unknown> {
  return { id: d.id, name: d.name, code: d.code, ...audit(d), _title: d.name };
}

export function typeView(store: AuthStore, t: ResourceTypeRecord): Record<string, unknown> {
  const domainCode = store.domains.get(t.domainId)?.code ?? '?';
  return {
    id: t.id,
    domainId: t.domainId,
    name: t.name,
    code: t.code,
    ...audit(t),
    parentId: t.parentId,
    root: t.parentId === null,
    depth: t.depth,
    childrenIds: [...t.childrenIds],
    _title: `${domainCode}:${t.code}`,
  };
}

export function actionView(store: AuthStore, a: ResourceActionRecord): Record<string, unknown> {
  const codes = store.actionCodes(a.id);
  const title = codes ? `${codes.domain.code}:${codes.type.code}:${a.code}` : a.code;
  return { id: a.id, resourceTypeId: a.resourceTypeId, name: a.name, code: a.code, ...audit(a), standardAction: a.standardAction, _title: title };
}

export function superUserView(store: AuthStore, s: SuperUserRecord): Record<string, unknown> {
  const scope = s.domainId === null ? 'all domains' : (store.domains.get(s.domainId)?.code ?? s.domainId);
  return {
    id: s.id,
    identityId: s.identityId,
    domainId: s.domainId,
    ...audit(s),
    ...deletion(s),
    type: SUPER_USER_TYPE,
    _title: `Super user ${s.identityId} on ${scope}`,
  };
}

function pathView(path: PathEntry[]): Record<string, unknown>[] {
  return path.map((p) => ({ resourceId: p.resourceId, resourceTypeId: p.resourceTypeId }));
}

export function publicGrantView(store: AuthStore, g: PublicGrantRecord): Record<string, unknown> {
  const codes = store.actionCodes(g.resourceActionId);
  const what = codes ? `${codes.domain.code}:${codes.type.code}:${codes.action.code}` : g.resourceActionId;
  return {
    id: g.id,
    resourceActionId: g.resourceActionId,
    ...audit(g),
    ...deletion(g),
    path: pathView(g.path),
    anonymous: g.anonymous,
    type: PUBLIC_GRANT_TYPE,
    _title: `Public grant of ${what}`,
  };
}

/** One grant in the abstract read view, plus what the /grants filters need. */
export interface GrantEntry {
  view: Record<string, unknown>;
  grantType: GrantType;
  identityId: string | null;
  actionIds: string[];
  paths: string[][];
}

type Privileges = Record<string, Record<string, Record<string, string[][]>>>;

function privileges(store: AuthStore, actionIds: string[], paths: string[][]): Privileges {
  const out: Privileges = {};
  for (const id of actionIds) {
    const codes = store.actionCodes(id);
    if (!codes) continue;
    const byType = (out[codes.domain.code] ??= {});
    const byAction = (byType[codes.type.code] ??= {});
    byAction[codes.action.code] = paths.map((p) => [...p]);
  }
  return out;
}

function entry(
  store: AuthStore,
  grantType: GrantType,
  grant: Audit & SoftDelete & { id: string },
  sourceId: string | null,
  identityId: string | null,
  actionIds: string[],
  path: PathEntry[],
  title: string,
): GrantEntry {
  const paths = [path.map((p) => p.resourceId)];
  const view = {
    grantType,
    grantId: grant.id,
    privilegeSourceId: sourceId,
    identityId,
    privileges: privileges(store, actionIds, paths),
    createdBy: grant.createdBy,
    createdAt: iso(grant.createdAt),
    ...deletion(grant),
    _title: title,
  };
  return { view, grantType, identityId, actionIds, paths };
}

/** Every grant of the four kinds, in the abstract Grant read view. */
export function allGrants(store: AuthStore): GrantEntry[] {
  const out: GrantEntry[] = [];
  for (const g of store.customRoleGrants.values()) {
    const role = store.customRoles.get(g.customRoleId);
    out.push(entry(store, 'CustomRole', g, g.customRoleId, g.identityId, role?.actionIds ?? [], g.path, `Custom role ${role?.name ?? g.customRoleId}`));
  }
  for (const g of store.identityGrants.values()) {
    out.push(entry(store, 'IdentityResourceAction', g, g.resourceActionId, g.identityId, [g.resourceActionId], g.path, 'Identity resource action'));
  }
  for (const g of store.publicGrants.values()) {
    out.push(entry(store, 'PublicGrant', g, g.resourceActionId, null, [g.resourceActionId], g.path, 'Public grant'));
  }
  for (const g of store.superUsers.values()) {
    out.push(entry(store, 'SuperUser', g, g.domainId, g.identityId, store.actionIdsOfDomain(g.domainId), [], 'Super user'));
  }
  return out;
}
