/** Process inspection: `/workflow-status`, `/network-processes`, `/networks/{id}/appWan-processes`. */
import { HttpError, type SandboxRoute } from '../core/types';
import { route, type AreaState } from './area-state';
import type { Env } from './env';
import { isFinished, networkProcess, workflowStatus } from './processes';
import { resource } from './resources';
import type { Process } from './store';

const read = { code: 'process', action: 'read' as const };

function byKey(env: Env, candidates: Process[]): Process {
  const key = env.params['businessKey'];
  const process = candidates.find((p) => p.businessKey === key);
  if (process === undefined) throw new HttpError(404, `no process with business key ${String(key)}`);
  return process;
}

function appWanProcesses(env: Env): Process[] {
  const networkId = env.params['networkId'] ?? '';
  if (env.store.get('network', networkId) === undefined) throw new HttpError(404, `network ${networkId} not found`);
  return env.store.processes.filter((p) => p.networkId === networkId && p.appWanId !== null);
}

export function processRoutes(state: AreaState): SandboxRoute[] {
  const appWanRead = { code: resource('appWan').code, action: 'read' as const };
  return [
    route(state, 'GET', '/workflow-status', read, (env) => ({ status: 200, json: env.store.processes.map((p) => workflowStatus(p, env.now)) })),
    route(state, 'GET', '/workflow-status/{businessKey}', read, (env) => ({
      status: 200,
      json: [workflowStatus(byKey(env, env.store.processes), env.now)],
    })),
    route(state, 'GET', '/network-processes', read, (env) => ({
      status: 200,
      json: env.store.processes.filter((p) => !isFinished(p, env.now)).map((p) => networkProcess(p, env.now)),
    })),
    route(state, 'GET', '/network-processes/{businessKey}', read, (env) => ({
      status: 200,
      json: [networkProcess(byKey(env, env.store.processes), env.now)],
    })),
    route(state, 'GET', '/networks/{networkId}/appWan-processes', appWanRead, (env) => ({
      status: 200,
      json: appWanProcesses(env).map((p) => networkProcess(p, env.now)),
    })),
    route(state, 'GET', '/networks/{networkId}/appWan-processes/{businessKey}', appWanRead, (env) => ({
      status: 200,
      json: [networkProcess(byKey(env, appWanProcesses(env)), env.now)],
    })),
  ];
}
