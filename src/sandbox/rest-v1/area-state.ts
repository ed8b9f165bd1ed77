/**
 * Shared plumbing of rest/v1 route handlers: the area's state, a route builder that advances
 * scheduled changes, checks the permission and builds the Env, and rendering of entities.
 */
import type { AreaContext, Method, SandboxRequest, SandboxResponse, SandboxRoute } from '../core/types';
import { HttpError } from '../core/types';
import type { Env } from './env';
import { links, REST_PREFIX } from './hal';
import type { JsonObject } from './json';
import type { ResourceSpec } from './resources';
import type { Entity, Store } from './store';

/**
 * The search service rest/v1 proxies `/elastic/ncentityevent/{orgId}/_search/` to (the search
 * area's `searchService`): it answers the status and body of an ordinary `_search`.
 */
export interface SearchService {
  search(index: string, body: unknown): { status: number; json: unknown };
}

export interface AreaState {
  store: Store;
  ctx: AreaContext;
  /** Bound once the search area exists (null until then). */
  search(): SearchService | null;
}

export type Action = 'read' | 'write';

/**
 * A bearer route under `prefix` (default /rest/v1) that needs `action` on the resource type
 * `code` of the `network` domain (null: any valid token).
 */
export function route(
  state: AreaState,
  method: Method,
  template: string,
  permission: { code: string; action: Action } | null,
  handle: (env: Env, req: SandboxRequest) => SandboxResponse,
  prefix: string = REST_PREFIX,
): SandboxRoute {
  return {
    method,
    template: `${prefix}${template}`,
    auth: 'bearer',
    handle(req) {
      const caller = req.caller;
      if (caller === null) throw new HttpError(401, 'missing bearer token');
      if (permission !== null) state.ctx.authz.require(caller, 'network', permission.code, permission.action);
      // A down-scoped token (claim `networkIds`: the networks it is limited to) is refused every other network.
      const scope = caller.claims['networkIds'];
      const networkId = req.params['networkId'];
      if (Array.isArray(scope) && networkId !== undefined && !scope.includes(networkId)) throw new HttpError(403, `forbidden: this token is limited to other networks than ${networkId}`);
      const now = state.ctx.clock.now();
      state.store.advance(now);
      return handle({ store: state.store, ctx: state.ctx, caller, now, params: req.params }, req);
    },
  };
}

export function render(spec: ResourceSpec, entity: Entity, origin: string): JsonObject {
  const out: JsonObject = { ...entity.data };
  for (const key of spec.hidden ?? []) delete out[key];
  out['_links'] = links(origin, spec.links(entity.data));
  return out;
}

export function param(env: Env, name: string): string {
  const value = env.params[name];
  if (value === undefined) throw new Error(`route has no parameter ${name}`);
  return value;
}

/** The entity named by the path, scoped to its parent; 404 when absent. */
export function findEntity(env: Env, spec: ResourceSpec): Entity {
  const id = param(env, spec.idParam);
  const entity = env.store.get(spec.kind, id);
  if (entity === undefined || (spec.parent !== null && entity.data[spec.parent.field] !== param(env, spec.parent.param))) {
    throw new HttpError(404, `${spec.kind} ${id} not found`);
  }
  return entity;
}

/** The parent named by the path (404 when absent), or null for top-level resources. */
export function findParent(env: Env, spec: ResourceSpec): Entity | null {
  if (spec.parent === null) return null;
  const id = param(env, spec.parent.param);
  const parent = env.store.get(spec.parent.kind, id);
  if (parent === undefined) throw new HttpError(404, `${spec.parent.kind} ${id} not found`);
  return parent;
}
