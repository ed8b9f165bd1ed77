/**
 * The auth/v1 area: the authorization model (domains, resource-type trees, actions, grants), its
 * REST operations and the permission model every other area checks through `authz`.
 */
import type { TokenService } from '../core/tokens';
import type { AreaContext, Authz, SandboxArea } from '../core/types';
import { createAuthz, type AuthzModel } from './authz';
import type { AuthDeps } from './deps';
import { domainRoutes } from './domain-routes';
import { grantRoutes } from './grant-routes';
import { publicGrantRoutes } from './public-grant-routes';
import { masqueradeRoute } from './masquerade-route';
import { resourceActionRoutes } from './resource-action-routes';
import { resourceTypeRoutes } from './resource-type-routes';
import { seedAuth } from './seed';
import { AuthStore } from './store';

export { AUTH_DOMAIN_CODE, AUTH_DOMAIN_ID, NETWORK_DOMAIN_CODE, NETWORK_DOMAIN_ID, READER_EXCLUDED } from './seed-data';
export { CODE_PATTERN } from './input';
export type { AuthzModel } from './authz';

export interface AuthArea extends SandboxArea {
  authz: Authz & AuthzModel;
  /** The state, for tests and the seed summary. */
  store: AuthStore;
}

export function createAuthArea(ctx: AreaContext, tokens: TokenService): AuthArea {
  const store = new AuthStore();
  const authz = createAuthz(store);
  const deps: AuthDeps = { ctx, store, authz, tokens };
  return {
    name: 'auth/v1',
    routes: [...domainRoutes(deps), ...resourceTypeRoutes(deps), ...resourceActionRoutes(deps), ...grantRoutes(deps), ...publicGrantRoutes(deps), masqueradeRoute(deps)],
    seed: (size) => seedAuth(store, ctx, size),
    authz,
    store,
  };
}
