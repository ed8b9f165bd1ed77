/**
 * Network groups beyond the table: `/network-groups/` (same list as `/organizations`), lookup by
 * billing account, and identity/v1's "the caller's organization".
 */
import type { SandboxRoute } from '../core/types';
import { HttpError } from '../core/types';
import { render, route, type AreaState } from './area-state';
import { sortableFields } from './fields';
import { collection } from './hal';
import { resource } from './resources';

export function organizationRoutes(state: AreaState): SandboxRoute[] {
  const spec = resource('organization');
  const read = { code: spec.code, action: 'read' as const };
  return [
    route(state, 'GET', '/network-groups', read, (env, req) => ({
      status: 200,
      json: collection(
        env.store.all('organization'),
        {
          origin: req.origin,
          path: '/network-groups/',
          plural: 'organizations',
          query: req.query,
          sortable: sortableFields(spec.fields),
          paginated: false,
          fields: (e) => e.data,
          render: (e) => render(spec, e, req.origin),
        },
      ),
    })),
    route(state, 'GET', '/organizations/billing-accounts/{billingAccountId}', read, (env, req) => {
      const id = env.params['billingAccountId'];
      const org = env.store.all('organization').find((o) => o.data['billingAccountId'] === id);
      if (org === undefined) throw new HttpError(404, `no network group for billing account ${String(id)}`);
      return { status: 200, json: render(spec, org, req.origin) };
    }),
    // identity/v1: informational, any valid token may ask (no permission check).
    route(
      state,
      'GET',
      '/organization',
      null,
      (env, req) => {
        // A token signed with an `organizationId` claim belongs to that organization (a visitor from
        // another organization, for tests of who may read what); demo tokens to the seed's first.
        const claimed = env.caller.claims['organizationId'];
        if (typeof claimed === 'string' && claimed !== '') return { status: 200, json: { id: claimed, name: `Organization ${claimed}`, label: null } };
        const id = env.store.callerOrganizationId();
        const org = id === null ? undefined : env.store.get('organization', id);
        if (org === undefined) throw new HttpError(404, 'caller has no organization');
        return { status: 200, json: render(spec, org, req.origin) };
      },
      '/identity/v1',
    ),
  ];
}
