/**
 * auth/v1 public grants (soft delete): list with filters (the `path` filter as grant-routes.ts
 * reads it), one by id, create.
 */
import { HttpError, type SandboxRoute } from '../core/types';
import { PATH_PREFIX, mustRead, notFound, paged, permit, type AuthDeps } from './deps';
import { deletedMatches, pathApplies, queryPath } from './grant-routes';
import { Input, bodyOf, queryBoolean, queryString } from './input';
import type { PathEntry } from './store';
import { publicGrantView } from './views';

export function publicGrantRoutes(deps: AuthDeps): SandboxRoute[] {
  const { store, ctx } = deps;
  return [
    {
      method: 'GET',
      template: `${PATH_PREFIX}/public-grants`,
      auth: 'bearer',
      handle(req) {
        permit(deps, req, ['public-grant', 'read']);
        const actionId = queryString(req, 'resourceActionId');
        const isAnonymous = queryBoolean(req, 'isAnonymous');
        const isDeleted = queryBoolean(req, 'isDeleted');
        const path = queryPath(req);
        const items = [...store.publicGrants.values()].filter(
          (g) =>
            (actionId === null || g.resourceActionId === actionId) &&
            (isAnonymous === null || g.anonymous === isAnonymous) &&
            deletedMatches(g, isDeleted) &&
            pathApplies(
              g.path.map((p) => p.resourceId),
              path,
            ),
        );
        return { status: 200, json: paged(req, items).map((g) => publicGrantView(store, g)) };
      },
    },
    {
      method: 'GET',
      template: `${PATH_PREFIX}/public-grants/{id}`,
      auth: 'bearer',
      handle(req) {
        permit(deps, req, ['public-grant', 'read']);
        const id = req.params['id'] ?? '';
        const grant = store.publicGrants.get(id);
        if (!grant) throw notFound('public grant', id);
        return { status: 200, json: publicGrantView(store, grant) };
      },
    },
    {
      method: 'POST',
      template: `${PATH_PREFIX}/public-grants`,
      auth: 'bearer',
      handle(req) {
        // `read` on the resource action is checked on the referenced action (readable references), below.
        const caller = permit(deps, req, ['public-grant', 'create']);
        const body = new Input(bodyOf(req));
        const actionId = body.string('resourceActionId', { nonEmpty: true });
        const path: PathEntry[] = body.children('path').map((p) => ({ resourceId: p.string('resourceId', { nonEmpty: true }), resourceTypeId: p.optString('resourceTypeId') }));
        const anonymous = body.optBoolean('anonymous') ?? false;
        if (!store.actions.has(actionId)) throw notFound('resourceActionId: resource action', actionId);
        mustRead(deps, caller, 'resource-action', actionId, 'resourceActionId');
        path.forEach((p, i) => {
          if (p.resourceTypeId !== null && !store.types.has(p.resourceTypeId)) throw new HttpError(404, `path[${i}].resourceTypeId: resource type ${p.resourceTypeId} not found`);
        });
        const now = ctx.clock.now();
        const record = { id: ctx.uuid(), resourceActionId: actionId, path, anonymous, createdBy: caller.identityId, createdAt: now, updatedAt: now, deletedAt: null, deletedBy: null };
        store.publicGrants.set(record.id, record);
        return { status: 200, json: publicGrantView(store, record) };
      },
    },
  ];
}
