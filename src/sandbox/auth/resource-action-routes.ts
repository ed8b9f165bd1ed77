/** auth/v1 resource actions: list with filters, fetch, and bulk create on one resource type. */
import { HttpError, type SandboxRoute } from '../core/types';
import { PATH_PREFIX, mustRead, notFound, paged, permit, type AuthDeps } from './deps';
import { Input, bodyOf, queryString } from './input';
import { actionView } from './views';

export function resourceActionRoutes(deps: AuthDeps): SandboxRoute[] {
  const { store, ctx } = deps;
  return [
    {
      method: 'GET',
      template: `${PATH_PREFIX}/resource-actions`,
      auth: 'bearer',
      handle(req) {
        permit(deps, req, ['resource-action', 'read']);
        const code = queryString(req, 'code');
        const typeId = queryString(req, 'resourceTypeId');
        const domainId = queryString(req, 'domainId');
        const roleId = queryString(req, 'customRoleId');
        // Standard role types are not modelled: the filter matches nothing (documented).
        const standardRoleTypeId = queryString(req, 'standardRoleTypeId');
        const role = roleId === null ? null : store.customRoles.get(roleId);
        const items = [...store.actions.values()].filter(
          (a) =>
            (code === null || a.code === code) &&
            (typeId === null || a.resourceTypeId === typeId) &&
            (domainId === null || store.types.get(a.resourceTypeId)?.domainId === domainId) &&
            (roleId === null || role?.actionIds.includes(a.id) === true) &&
            standardRoleTypeId === null,
        );
        return { status: 200, json: paged(req, items).map((a) => actionView(store, a)) };
      },
    },
    {
      method: 'GET',
      template: `${PATH_PREFIX}/resource-actions/{id}`,
      auth: 'bearer',
      handle(req) {
        permit(deps, req, ['resource-action', 'read']);
        const id = req.params['id'] ?? '';
        const action = store.actions.get(id);
        if (!action) throw notFound('resource action', id);
        return { status: 200, json: actionView(store, action) };
      },
    },
    {
      method: 'POST',
      template: `${PATH_PREFIX}/resource-actions`,
      auth: 'bearer',
      handle(req) {
        // `read` on the resource type is checked on the referenced type (readable references), below.
        const caller = permit(deps, req, ['resource-action', 'create']);
        const body = new Input(bodyOf(req));
        const typeId = body.string('resourceTypeId', { nonEmpty: true });
        const drafts = body.children('actions', { nonEmpty: true }).map((a) => ({ name: a.string('name', { nonEmpty: true }), code: a.code('code'), field: a.path('code') }));
        const type = store.types.get(typeId);
        if (!type) throw notFound('resourceTypeId: resource type', typeId);
        mustRead(deps, caller, 'resource-type', type.id, 'resourceTypeId');
        const taken = new Set([...store.actions.values()].filter((a) => a.resourceTypeId === typeId).map((a) => a.code));
        for (const d of drafts) {
          if (taken.has(d.code)) throw new HttpError(409, `${d.field}: action '${d.code}' already exists on resource type '${type.code}'`);
          taken.add(d.code);
        }
        const now = ctx.clock.now();
        const created = drafts.map((d) => {
          const action = { id: ctx.uuid(), resourceTypeId: typeId, name: d.name, code: d.code, standardAction: false, createdBy: caller.identityId, createdAt: now, updatedAt: now };
          store.addAction(action);
          return actionView(store, action);
        });
        return { status: 200, json: created };
      },
    },
  ];
}
