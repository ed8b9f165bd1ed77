/**
 * Routes generated from the resource table: list, create, fetch, redefine and delete, each
 * with the success status, permission code and life cycle of its row.
 */
import { isAsyncChangeKind } from '../core/async-failures';
import type { SandboxRequest, SandboxResponse, SandboxRoute } from '../core/types';
import { findEntity, findParent, render, route, type AreaState } from './area-state';
import { keyedDelete, keyedRedefine, settle, unkeyedCreate, type Change } from './changes';
import type { Env } from './env';
import { readFields, sortableFields } from './fields';
import { STATUS, timestamp } from './format';
import { collection } from './hal';
import { requireObject, type JsonObject } from './json';
import { RESOURCES, type ResourceSpec } from './resources';
import type { Entity } from './store';

/** Alternative create handlers by kind and request media type (CSV uploads). */
export type CreateOverrides = Record<string, Record<string, (env: Env, req: SandboxRequest) => SandboxResponse>>;

export function tableRoutes(state: AreaState, overrides: CreateOverrides): SandboxRoute[] {
  return RESOURCES.flatMap((spec) => specRoutes(state, spec, overrides[spec.kind] ?? {}));
}

function fillPath(template: string, params: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
}

function listEntities(env: Env, spec: ResourceSpec, req: SandboxRequest): Entity[] {
  const parent = findParent(env, spec);
  let items = env.store.all(spec.kind);
  if (parent !== null && spec.parent !== null) items = items.filter((e) => e.data[spec.parent?.field ?? ''] === parent.id);
  for (const filter of spec.filters ?? []) {
    const wanted = req.query.get(filter);
    if (wanted !== null && wanted !== '') items = items.filter((e) => e.data[filter] === wanted);
  }
  return items;
}

function specRoutes(
  state: AreaState,
  spec: ResourceSpec,
  overrides: Record<string, (env: Env, req: SandboxRequest) => SandboxResponse>,
): SandboxRoute[] {
  const item = `${spec.path}/{${spec.idParam}}`;
  const read = { code: spec.code, action: 'read' as const };
  const write = { code: spec.code, action: 'write' as const };
  const routes: SandboxRoute[] = [];
  const { ops } = spec;

  if (ops.list !== undefined) {
    const status = ops.list;
    routes.push(
      route(state, 'GET', spec.path, read, (env, req) => ({
        status,
        json: collection(listEntities(env, spec, req), {
          origin: req.origin,
          path: fillPath(spec.path, req.params),
          plural: spec.plural,
          query: req.query,
          sortable: sortableFields(spec.fields),
          paginated: spec.paginated,
          fields: (e) => e.data,
          render: (e) => render(spec, e, req.origin),
        }),
      })),
    );
  }
  if (ops.create !== undefined) {
    const status = ops.create;
    routes.push(
      route(state, 'POST', spec.path, write, (env, req) => {
        const override = overrides[req.contentType];
        if (override !== undefined) return override(env, req);
        const entity = createEntity(env, spec, requireObject(req.json));
        return { status, json: render(spec, entity, req.origin) };
      }),
    );
  }
  if (ops.get !== undefined) {
    const status = ops.get;
    routes.push(route(state, 'GET', item, read, (env, req) => ({ status, json: render(spec, findEntity(env, spec), req.origin) })));
  }
  if (ops.put !== undefined) {
    const status = ops.put;
    routes.push(
      route(state, 'PUT', item, write, (env, req) => {
        const entity = findEntity(env, spec);
        const fields = readFields(spec.fields, requireObject(req.json), entity.data);
        const merged = { ...entity.data, ...fields };
        spec.check?.(env, merged, entity);
        // Validated: from here on nothing throws.
        Object.assign(entity.data, fields, { updatedAt: timestamp(env.now) });
        const definition = spec.keyedChanges?.put;
        if (definition === undefined) return { status, json: render(spec, entity, req.origin) };
        const change = keyedRedefine(env, entity, definition);
        return { status, json: { ...render(spec, entity, req.origin), businessKey: change.process.businessKey } };
      }),
    );
  }
  if (ops.delete !== undefined) {
    const status = ops.delete;
    routes.push(
      route(state, 'DELETE', item, write, (env, req) => {
        const entity = findEntity(env, spec);
        const definition = spec.keyedChanges?.delete;
        if (definition !== undefined) {
          const change = keyedDelete(env, entity, definition);
          return { status, json: { ...render(spec, entity, req.origin), businessKey: change.process.businessKey } };
        }
        if (spec.deleteSteps !== undefined) {
          if (entity.data['status'] !== STATUS.DELETING) {
            entity.scheduled = [];
            entity.data['status'] = STATUS.DELETING;
            entity.data['updatedAt'] = timestamp(env.now);
            env.store.scheduleRemoval(entity, env.now + spec.deleteSteps * env.ctx.clock.stepMs);
          }
        } else {
          env.store.remove(entity);
        }
        return { status, json: render(spec, entity, req.origin) };
      }),
    );
  }
  return routes;
}

/**
 * Creates one entity of a table row from a request body: fields, server values, checks, then
 * insertion and scheduled progress. Throws (400/404) before any change.
 */
function createEntity(env: Env, spec: ResourceSpec, input: JsonObject): Entity {
  const data = prepareEntity(env, spec, input);
  return commitEntity(env, spec, data, singleCreate(env, spec, data));
}

/**
 * A single create is a change without a key when its entity progresses (networks, endpoints,
 * services), so failure rules for its kind can fail it; an empty AppWAN or a template does not.
 */
function singleCreate(env: Env, spec: ResourceSpec, data: JsonObject): Change | null {
  const last = spec.progress?.(env, data).at(-1);
  if (last === undefined || !isAsyncChangeKind(spec.kind)) return null;
  return unkeyedCreate(env, spec.kind, Math.round((last.at - env.now) / env.ctx.clock.stepMs));
}

/** Validates and builds the data of a new entity without storing it (used by bulk uploads). */
export function prepareEntity(
  env: Env,
  spec: ResourceSpec,
  input: JsonObject,
  options: { parentId?: string; skipCheck?: boolean } = {},
): JsonObject & { id: string } {
  const parentId = options.parentId ?? findParent(env, spec)?.id;
  const fields = readFields(spec.fields, input);
  if (parentId !== undefined && spec.parent !== null) fields[spec.parent.field] = parentId;
  const stamp = timestamp(env.now);
  const data: JsonObject & { id: string } = { id: '', ...fields, ...(spec.initial?.(env, fields) ?? {}), createdAt: stamp, updatedAt: stamp };
  if (options.skipCheck !== true) spec.check?.(env, data);
  data.id = env.ctx.uuid();
  return data;
}

/** Stores a prepared entity and schedules its progress, as part of `change` when given (which may fail it). */
export function commitEntity(env: Env, spec: ResourceSpec, data: JsonObject & { id: string }, change: Change | null = null): Entity {
  const entity = env.store.insert(spec.kind, data);
  settle(env, entity, change, spec.progress?.(env, data) ?? []);
  return entity;
}
