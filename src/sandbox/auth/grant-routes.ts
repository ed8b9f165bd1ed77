/**
 * auth/v1 grants: the abstract Grant list (no permission needed) and super users (soft delete);
 * public grants are in public-grant-routes.ts. The `path` query filter is a comma-separated list of resource ids; a grant
 * matches when one of its paths is a prefix of it (an empty path, "every resource", always is).
 */
import type { SandboxRequest, SandboxRoute } from '../core/types';
import { PATH_PREFIX, mustRead, notFound, paged, permit, type AuthDeps } from './deps';
import { Input, bodyOf, callerOf, invalid, queryBoolean, queryString } from './input';
import { AUTH_DOMAIN_CODE } from './seed-data';
import type { SoftDelete } from './store';
import { GRANT_TYPES, allGrants, superUserView, type GrantType } from './views';

export function queryPath(req: SandboxRequest): string[] | null {
  const raw = queryString(req, 'path');
  return raw === null ? null : raw.split(',').map((s) => s.trim()).filter((s) => s !== '');
}

export function pathApplies(grantPath: string[], wanted: string[] | null): boolean {
  return wanted === null || (grantPath.length <= wanted.length && grantPath.every((id, i) => wanted[i] === id));
}

export function deletedMatches(record: SoftDelete, isDeleted: boolean | null): boolean {
  return isDeleted === null || (record.deletedAt !== null) === isDeleted;
}

function isGrantType(value: string): value is GrantType {
  return (GRANT_TYPES as readonly string[]).includes(value);
}

export function grantRoutes(deps: AuthDeps): SandboxRoute[] {
  const { store, ctx } = deps;
  const superUser = (req: SandboxRequest) => {
    const id = req.params['id'] ?? '';
    const record = store.superUsers.get(id);
    if (!record) throw notFound('super user', id);
    return record;
  };
  return [
    {
      method: 'GET',
      template: `${PATH_PREFIX}/grants`,
      auth: 'bearer',
      handle(req) {
        callerOf(req);
        const grantType = queryString(req, 'grantType');
        if (grantType !== null && !isGrantType(grantType)) throw invalid('grantType', `must be one of ${GRANT_TYPES.join(', ')}`);
        const identityId = queryString(req, 'identityId');
        const actionId = queryString(req, 'resourceActionId');
        const path = queryPath(req);
        const items = allGrants(store).filter(
          (g) =>
            (grantType === null || g.grantType === grantType) &&
            (identityId === null || g.identityId === identityId) &&
            (actionId === null || g.actionIds.includes(actionId)) &&
            g.paths.some((p) => pathApplies(p, path)),
        );
        return { status: 200, json: paged(req, items).map((g) => g.view) };
      },
    },
    {
      method: 'GET',
      template: `${PATH_PREFIX}/super-users`,
      auth: 'bearer',
      handle(req) {
        permit(deps, req, ['super-user', 'read']);
        const identityId = queryString(req, 'identityId');
        const domainId = queryString(req, 'domainId');
        const isDeleted = queryBoolean(req, 'isDeleted');
        const items = [...store.superUsers.values()].filter(
          (s) => (identityId === null || s.identityId === identityId) && (domainId === null || s.domainId === domainId) && deletedMatches(s, isDeleted),
        );
        return { status: 200, json: paged(req, items).map((s) => superUserView(store, s)) };
      },
    },
    {
      method: 'GET',
      template: `${PATH_PREFIX}/super-users/{id}`,
      auth: 'bearer',
      handle(req) {
        permit(deps, req, ['super-user', 'read']);
        return { status: 200, json: superUserView(store, superUser(req)) };
      },
    },
    {
      method: 'POST',
      template: `${PATH_PREFIX}/super-users`,
      auth: 'bearer',
      handle(req) {
        // `read` on the domain is checked on the referenced domain (readable references), type-wide for "all domains".
        const caller = permit(deps, req, ['super-user', 'create']);
        const body = new Input(bodyOf(req));
        const identityId = body.string('identityId', { nonEmpty: true });
        const domainId = body.optString('domainId');
        if (domainId !== null) {
          if (!store.domains.has(domainId)) throw notFound('domainId: domain', domainId);
          mustRead(deps, caller, 'domain', domainId, 'domainId');
        } else {
          deps.authz.require(caller, AUTH_DOMAIN_CODE, 'domain', 'read');
        }
        const now = ctx.clock.now();
        const record = { id: ctx.uuid(), identityId, domainId, createdBy: caller.identityId, createdAt: now, updatedAt: now, deletedAt: null, deletedBy: null };
        store.superUsers.set(record.id, record);
        return { status: 200, json: superUserView(store, record) };
      },
    },
    {
      method: 'DELETE',
      template: `${PATH_PREFIX}/super-users/{id}`,
      auth: 'bearer',
      handle(req) {
        const caller = permit(deps, req, ['super-user', 'delete']);
        const record = superUser(req);
        // Soft delete; deleting again keeps the first deletion and still answers 200.
        if (record.deletedAt === null) {
          record.deletedAt = ctx.clock.now();
          record.deletedBy = caller.identityId;
          record.updatedAt = record.deletedAt;
        }
        return { status: 200 };
      },
    },
  ];
}
