/**
 * Membership changes: AppWAN endpoints/services/endpointGroups (POST authorizes, DELETE
 * deauthorizes; body `{ ids }`) and endpoint-group endpoints. Every id is checked before any
 * change. AppWAN changes answer 202 `{ businessKey, appWan }`: the AppWAN shows UPDATING (600)
 * while its AppWanUpdate process runs and PROVISIONED (300) once it is done.
 */
import { HttpError, type SandboxRoute } from '../core/types';
import { findEntity, render, route, type AreaState } from './area-state';
import type { Env } from './env';
import { STATUS, timestamp } from './format';
import { readIds } from './json';
import { keyedChange, ownerOf, settle } from './changes';
import { resource } from './resources';
import type { Members } from './store';

interface MemberSet {
  relation: keyof Members;
  kind: string;
}

const APPWAN_SETS: readonly MemberSet[] = [
  { relation: 'endpoints', kind: 'endpoint' },
  { relation: 'services', kind: 'service' },
  { relation: 'endpointGroups', kind: 'endpointGroup' },
];

function checkIds(env: Env, kind: string, ids: string[], networkId: string): void {
  for (const id of ids) {
    const e = env.store.get(kind, id);
    if (e === undefined || e.data['networkId'] !== networkId) throw new HttpError(400, `ids: ${id} is not a ${kind} of network ${networkId}`);
  }
}

export function memberRoutes(state: AreaState): SandboxRoute[] {
  const appWan = resource('appWan');
  const group = resource('endpointGroup');
  const write = (code: string): { code: string; action: 'write' } => ({ code, action: 'write' });
  const routes: SandboxRoute[] = [];
  for (const set of APPWAN_SETS) {
    for (const method of ['POST', 'DELETE'] as const) {
      routes.push(
        route(state, method, `/networks/{networkId}/appWans/{appWanId}/${set.relation}`, write(appWan.code), (env, req) => {
          const entity = findEntity(env, appWan);
          const ids = readIds(req.json);
          const networkId = String(entity.data['networkId']);
          if (method === 'POST') checkIds(env, set.kind, ids, networkId);
          const members = env.store.members(entity.id)[set.relation];
          for (const id of ids) {
            if (method === 'POST') members.add(id);
            else members.delete(id);
          }
          const change = keyedChange(env, 'AppWanUpdate', ownerOf(entity));
          entity.scheduled = [];
          Object.assign(entity.data, { status: STATUS.UPDATING, updatedAt: timestamp(env.now) });
          settle(env, entity, change, [{ at: change.endsAt, set: { status: STATUS.PROVISIONED } }]);
          return { status: 202, json: { businessKey: change.process.businessKey, appWan: render(appWan, entity, req.origin) } };
        }),
      );
    }
  }
  for (const method of ['POST', 'DELETE'] as const) {
    routes.push(
      route(state, method, '/networks/{networkId}/endpointGroups/{endpointGroupId}/endpoints', write(group.code), (env, req) => {
        const entity = findEntity(env, group);
        const ids = readIds(req.json);
        if (method === 'POST') checkIds(env, 'endpoint', ids, String(entity.data['networkId']));
        const members = env.store.groupEndpoints(entity.id);
        for (const id of ids) {
          if (method === 'POST') members.add(id);
          else members.delete(id);
        }
        entity.data['updatedAt'] = timestamp(env.now);
        return { status: 202, json: render(group, entity, req.origin) };
      }),
    );
  }
  return routes;
}
