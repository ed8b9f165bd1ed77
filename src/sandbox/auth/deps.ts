/**
 * What every auth/v1 route handler works with, and the helpers they share: the permission
 * column check, readable references (a create's referenced records must be readable), and
 * bare-array paging.
 */
import type { TokenService } from '../core/tokens';
import { HttpError, type AreaContext, type Caller, type SandboxRequest } from '../core/types';
import type { AuthzModel } from './authz';
import { callerOf, queryInteger } from './input';
import { AUTH_DOMAIN_CODE } from './seed-data';
import type { AuthStore } from './store';

export interface AuthDeps {
  ctx: AreaContext;
  store: AuthStore;
  authz: AuthzModel;
  tokens: TokenService;
}

export const PATH_PREFIX = '/auth/v1';

/** Default and maximum `size` of list operations (the authorization API's default: 1000). */
export const DEFAULT_PAGE_SIZE = 1000;

/** The permission column: every (resource type, action) pair in the auth domain. 403 otherwise. */
export function permit(deps: AuthDeps, req: SandboxRequest, ...pairs: [typeCode: string, actionCode: string][]): Caller {
  const caller = callerOf(req);
  for (const [typeCode, actionCode] of pairs) deps.authz.require(caller, AUTH_DOMAIN_CODE, typeCode, actionCode);
  return caller;
}

/**
 * Readable references: the `read` pairs of a create's permission column are checked on the referenced
 * record, so a grant limited to that record's path is enough. A referenced record the caller
 * cannot read answers 403; a missing one answers 404 (checked first).
 */
export function mustRead(deps: AuthDeps, caller: Caller, typeCode: string, resourceId: string, field: string): void {
  if (!deps.authz.canOn(caller, AUTH_DOMAIN_CODE, typeCode, 'read', resourceId)) {
    throw new HttpError(403, `${field}: the caller may not read ${typeCode} ${resourceId}`);
  }
}

export function notFound(what: string, id: string): HttpError {
  return new HttpError(404, `${what} ${id} not found`);
}

/** `page` (0-based) and `size` are honoured on lists; the answer stays a bare array. */
export function paged<T>(req: SandboxRequest, items: T[]): T[] {
  const size = Math.max(1, queryInteger(req, 'size', DEFAULT_PAGE_SIZE, DEFAULT_PAGE_SIZE));
  const page = queryInteger(req, 'page', 0, Number.MAX_SAFE_INTEGER);
  return items.slice(page * size, page * size + size);
}
