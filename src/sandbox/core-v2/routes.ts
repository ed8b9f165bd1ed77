/**
 * core/v2 routes, generated from the resource table: per kind a create (202), a list
 * (`_embedded.<kind>List` + `page`) and a fetch; plus the execution resource that creates link to.
 * Permission: `read` / `write` on the kind's type code in the `network` domain.
 */
import { HttpError, type AreaContext, type SandboxRequest, type SandboxRoute } from '../core/types';
import { Input, bodyOf, callerOf, invalid, isMap, queryInteger, queryString, type JsonMap } from '../auth/input';
import { V2_KINDS, kindOf, type V2Kind } from './kinds';
import type { V2Resource, V2Store } from './store';
import { V2_PREFIX, enrollmentToken, executionView, resourceView, type ViewClock } from './views';

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 200;
/** Enrollment tokens of created endpoints are valid this long (informational: not enforced). */
const OTT_LIFETIME_MS = 24 * 3600_000;
const SORTABLE = new Set(['name', 'createdAt']);

export interface V2Deps {
  ctx: AreaContext;
  store: () => V2Store;
}

function clockOf(deps: V2Deps, req: SandboxRequest): ViewClock {
  return { now: deps.ctx.clock.now(), stepMs: deps.ctx.clock.stepMs, origin: req.origin };
}

function permit(deps: V2Deps, req: SandboxRequest, kind: V2Kind, action: 'read' | 'write'): string {
  const caller = callerOf(req);
  deps.ctx.authz.require(caller, 'network', kind.typeCode, action);
  return caller.identityId;
}

function sortOf(req: SandboxRequest): { field: string; desc: boolean } | null {
  const raw = queryString(req, 'sort');
  if (raw === null) return null;
  const [field = '', dir = 'ASC'] = raw.split(',').map((s) => s.trim());
  if (!SORTABLE.has(field)) throw invalid('sort', `can sort by ${[...SORTABLE].join(', ')}`);
  if (!['ASC', 'DESC'].includes(dir.toUpperCase())) throw invalid('sort', 'direction must be ASC or DESC');
  return { field, desc: dir.toUpperCase() === 'DESC' };
}

function listRoute(deps: V2Deps, kind: V2Kind): SandboxRoute {
  return {
    method: 'GET',
    template: `${V2_PREFIX}/${kind.plural}`,
    auth: 'bearer',
    handle(req) {
      permit(deps, req, kind, 'read');
      const networkId = queryString(req, 'networkId');
      const name = queryString(req, 'name');
      const size = Math.max(1, queryInteger(req, 'size', DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE));
      const page = queryInteger(req, 'page', 0, Number.MAX_SAFE_INTEGER);
      const sort = sortOf(req);
      let items = deps.store().all(kind.kind).filter((r) => (networkId === null || r.data['networkId'] === networkId) && (name === null || r.data['name'] === name));
      if (sort) {
        const key = (r: V2Resource): string | number => (sort.field === 'createdAt' ? r.createdAt : String(r.data['name'] ?? ''));
        items = [...items].sort((a, b) => {
          const [x, y] = [key(a), key(b)];
          const c = x < y ? -1 : x > y ? 1 : 0;
          return sort.desc ? -c : c;
        });
      }
      const at = clockOf(deps, req);
      const totalPages = Math.ceil(items.length / size);
      const base = `${req.origin}${V2_PREFIX}/${kind.plural}`;
      const links: Record<string, { href: string }> = { self: { href: `${base}?page=${page}&size=${size}` } };
      if (page + 1 < totalPages) links['next'] = { href: `${base}?page=${page + 1}&size=${size}` };
      if (page > 0) links['prev'] = { href: `${base}?page=${page - 1}&size=${size}` };
      return {
        status: 200,
        json: {
          _embedded: { [kind.listKey]: items.slice(page * size, page * size + size).map((r) => resourceView(r, at)) },
          _links: links,
          page: { size, totalElements: items.length, totalPages, number: page },
        },
      };
    },
  };
}

function getRoute(deps: V2Deps, kind: V2Kind): SandboxRoute {
  return {
    method: 'GET',
    template: `${V2_PREFIX}/${kind.plural}/{id}`,
    auth: 'bearer',
    handle(req) {
      permit(deps, req, kind, 'read');
      const id = req.params['id'] ?? '';
      const resource = deps.store().get(kind.kind, id);
      if (!resource) throw new HttpError(404, `${kind.label} ${id} not found`);
      return { status: 200, json: resourceView(resource, clockOf(deps, req)) };
    },
  };
}

function createRoute(deps: V2Deps, kind: V2Kind): SandboxRoute {
  return {
    method: 'POST',
    template: `${V2_PREFIX}/${kind.plural}`,
    auth: 'bearer',
    handle(req) {
      const identityId = permit(deps, req, kind, 'write');
      const store = deps.store();
      const data: JsonMap = kind.read(new Input(bodyOf(req)), store);
      const networkId = typeof data['networkId'] === 'string' ? data['networkId'] : null;
      const clash = store.all(kind.kind).some((r) => r.data['name'] === data['name'] && (r.data['networkId'] ?? null) === networkId);
      if (clash) throw new HttpError(409, `name: a ${kind.label} named '${String(data['name'])}' already exists${networkId === null ? '' : ' in this network'}`);
      const { ctx } = deps;
      const now = ctx.clock.now();
      const id = ctx.uuid();
      const executionId = ctx.uuid();
      const method = data['enrollmentMethod'];
      const ott = kind.kind === 'endpoint' && isMap(method) && method['ott'] === true;
      const resource: V2Resource = {
        id,
        kind: kind.kind,
        data,
        createdBy: identityId,
        createdAt: now,
        updatedAt: now,
        executionId,
        jwt: ott ? enrollmentToken(id, ctx.uuid(), now + OTT_LIFETIME_MS) : null,
      };
      store.add(resource);
      store.executions.set(executionId, { id: executionId, kind: kind.kind, resourceId: id, networkId, action: 'CREATE', createdBy: identityId, createdAt: now });
      const view = resourceView(resource, clockOf(deps, req));
      return { status: 202, json: view, headers: { Location: `${req.origin}${V2_PREFIX}/${kind.plural}/${id}` } };
    },
  };
}

function executionRoute(deps: V2Deps): SandboxRoute {
  return {
    method: 'GET',
    template: `${V2_PREFIX}/executions/{id}`,
    auth: 'bearer',
    handle(req) {
      const id = req.params['id'] ?? '';
      const execution = deps.store().executions.get(id);
      // An unknown id is a 404 for any valid caller; a known one needs `read` on its resource's code.
      if (!execution) {
        callerOf(req);
        throw new HttpError(404, `execution ${id} not found`);
      }
      permit(deps, req, kindOf(execution.kind), 'read');
      return { status: 200, json: executionView(execution, clockOf(deps, req)) };
    },
  };
}

export function v2Routes(deps: V2Deps): SandboxRoute[] {
  return [...V2_KINDS.flatMap((kind) => [createRoute(deps, kind), listRoute(deps, kind), getRoute(deps, kind)]), executionRoute(deps)];
}
