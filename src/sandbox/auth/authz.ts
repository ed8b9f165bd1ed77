/**
 * The permission model over the grants in the store. A caller may perform an action when
 *   - it is an active super user of the action's domain, or of all domains (domainId null), or
 *   - it holds an active IdentityResourceAction grant for the action, or
 *   - it holds an active CustomRole grant whose role contains the action, or
 *   - an active public grant exists for the action (the caller is authenticated, so both
 *     anonymous and non-anonymous public grants apply).
 * A grant with an empty path covers every resource of the type. A grant with a path covers only
 * the resources named in that path, so it counts for `canOn(..., resourceId)` but not for the
 * type-wide `can` used by the permission column.
 */
import { HttpError, type Authz, type Caller } from '../core/types';
import type { AuthStore, PathEntry, SoftDelete } from './store';

export interface AuthzModel extends Authz {
  /** Like `can`, for one resource: path-limited grants naming `resourceId` count too. */
  canOn(caller: Caller, domainCode: string, resourceTypeCode: string, actionCode: string, resourceId: string): boolean;
}

function active(record: SoftDelete): boolean {
  return record.deletedAt === null;
}

function covers(path: PathEntry[], resourceId: string | null): boolean {
  if (path.length === 0) return true;
  return resourceId !== null && path.some((entry) => entry.resourceId === resourceId);
}

export function createAuthz(store: AuthStore): AuthzModel {
  const check = (caller: Caller, domainCode: string, typeCode: string, actionCode: string, resourceId: string | null): boolean => {
    const identityId = caller.identityId;
    const domain = store.domainByCode(domainCode);
    for (const su of store.superUsers.values()) {
      if (su.identityId !== identityId || !active(su)) continue;
      if (su.domainId === null || (domain !== undefined && su.domainId === domain.id)) return true;
    }
    const actionId = store.actionIdFor(domainCode, typeCode, actionCode);
    if (actionId === undefined) return false;
    for (const g of store.identityGrants.values()) {
      if (g.identityId === identityId && g.resourceActionId === actionId && active(g) && covers(g.path, resourceId)) return true;
    }
    for (const g of store.customRoleGrants.values()) {
      if (g.identityId !== identityId || !active(g) || !covers(g.path, resourceId)) continue;
      if (store.customRoles.get(g.customRoleId)?.actionIds.includes(actionId) === true) return true;
    }
    for (const g of store.publicGrants.values()) {
      if (g.resourceActionId === actionId && active(g) && covers(g.path, resourceId)) return true;
    }
    return false;
  };

  const model: AuthzModel = {
    can: (caller, domainCode, typeCode, actionCode) => check(caller, domainCode, typeCode, actionCode, null),
    canOn: (caller, domainCode, typeCode, actionCode, resourceId) => check(caller, domainCode, typeCode, actionCode, resourceId),
    require(caller, domainCode, typeCode, actionCode) {
      if (!model.can(caller, domainCode, typeCode, actionCode)) {
        throw new HttpError(403, `forbidden: requires '${actionCode}' on '${typeCode}' in domain '${domainCode}'`);
      }
    },
  };
  return model;
}
