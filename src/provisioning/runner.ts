/**
 * Runs a provisioning's steps in order (plan.ts), each one a change sent once and then followed
 * until its resource reaches a terminal status (or its workflow ends), through the same shared
 * pollers as the subscriptions. The first failure stops the run; every step says exactly what it
 * created, and with `rollbackOnFailure` the created resources are deleted in reverse order, each
 * deletion reported on its step. Nothing is retried: a change whose outcome is unknown fails its
 * step with `outcomeUnknown` and a message saying how to check.
 */
import { GatewayError } from '../errors/codes';
import { toGraphQLError } from '../errors/to-graphql-error';
import type { NetworkChanges, WritableKind } from '../upstream/network/changes';
import type { NetworkLoaders } from '../upstream/network/loaders';
import type { PlannedStep, ProvisioningErrorRecord, ProvisioningRecord, StepAction, StepRecord } from './records';

export type StatusKind = 'NETWORK' | 'ENDPOINT' | 'SERVICE' | 'APP_WAN';

/** What the runner needs from the gateway; every call carries the caller's credentials. */
export interface ProvisioningDeps {
  /** Fresh network loaders (and their `changes`) for one step: no cache spans steps. */
  loaders(signal: AbortSignal): NetworkLoaders;
  /** Follows a resource until a terminal status; resolves with that status name. `onStatus` sees each one. */
  untilStatus(target: { kind: StatusKind; id: string; networkId: string | null }, signal: AbortSignal, onStatus: (name: string | null) => void): Promise<string | null>;
  /** Follows a workflow until it is done; resolves with its final state. */
  untilWorkflow(businessKey: string, signal: AbortSignal, onState: (state: string) => void): Promise<string>;
}

/** How the run reports progress: `change` edits the record and tells every watcher. */
export interface RunHandle {
  readonly record: ProvisioningRecord;
  change(edit: (record: ProvisioningRecord) => void): void;
}

export interface RunOptions {
  /** Longest wait for one step's status or workflow. */
  stepTimeoutMs: number;
  /** Aborted when the gateway stops: the run ends with what it has. */
  signal: AbortSignal;
}

/** Ids the steps produce and later steps use. */
interface Made {
  networkId: string | null;
  gatewayId: string | null;
  serviceId: string | null;
  endpointIds: string[];
  appWanId: string | null;
}

const now = (): string => new Date().toISOString();
const GOOD_STATUSES = new Set(['PROVISIONED', 'REGISTERED']);

export function errorRecord(error: unknown): ProvisioningErrorRecord {
  const known = toGraphQLError(error);
  const code = known?.extensions['code'];
  return {
    code: typeof code === 'string' ? code : 'INTERNAL_SERVER_ERROR',
    message: known?.message ?? 'Unexpected error.',
    outcomeUnknown: known?.extensions['outcomeUnknown'] === true,
  };
}

export async function runProvisioning(handle: RunHandle, planned: readonly PlannedStep[], deps: ProvisioningDeps, options: RunOptions): Promise<void> {
  const made: Made = { networkId: null, gatewayId: null, serviceId: null, endpointIds: [], appWanId: null };
  const stepOf = (index: number): StepRecord => {
    const step = handle.record.steps[index];
    if (step === undefined) throw new Error(`no step ${index}`);
    return step;
  };

  let failed = false;
  for (const [i, { action }] of planned.entries()) {
    handle.change(() => Object.assign(stepOf(i), { state: 'RUNNING', startedAt: now() }));
    const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.stepTimeoutMs)]);
    try {
      await runStep(action, made, deps, signal, (edit) => handle.change(() => edit(stepOf(i))));
      handle.change((r) => {
        Object.assign(stepOf(i), { state: 'DONE', finishedAt: now() });
        r.networkId = made.networkId;
        r.appWanId = made.appWanId;
      });
    } catch (error) {
      const record = options.signal.aborted ? stoppedError() : signal.aborted ? timeoutError(options.stepTimeoutMs) : errorRecord(error);
      handle.change((r) => {
        Object.assign(stepOf(i), { state: 'FAILED', finishedAt: now(), error: record });
        r.error = record;
        r.networkId = made.networkId;
        r.appWanId = made.appWanId;
      });
      failed = true;
      break;
    }
  }
  if (failed && handle.record.rollbackOnFailure) await rollback(handle, deps, options.signal);
  handle.change((r) => {
    r.state = failed ? 'FAILED' : 'SUCCEEDED';
    r.finishedAt = now();
  });
}

function stoppedError(): ProvisioningErrorRecord {
  return { code: 'INTERNAL_SERVER_ERROR', message: 'the gateway stopped while this step ran: check the resource before starting again', outcomeUnknown: true };
}

function timeoutError(ms: number): ProvisioningErrorRecord {
  return { code: 'UPSTREAM_TIMEOUT', message: `the step did not finish within ${Math.round(ms / 1000)} s (PROVISIONING_STEP_TIMEOUT_MS)`, outcomeUnknown: false };
}

type EditStep = (edit: (step: StepRecord) => void) => void;

/** One step: send its change, note what it created, then wait until it is done. */
async function runStep(action: StepAction, made: Made, deps: ProvisioningDeps, signal: AbortSignal, edit: EditStep): Promise<void> {
  const changes: NetworkChanges = deps.loaders(signal).changes();
  const needNetwork = (): string => need(made.networkId, 'network');
  /**
   * Notes what a create made. An answer that names no id (the contract does not show 202 bodies)
   * is looked up by the name just sent, in the list it went to.
   */
  const created = async (kind: 'network' | 'endpoint' | 'service' | 'appWan', result: { id: string | null; businessKey: string | null }, name: unknown): Promise<string> => {
    let id = result.id;
    if (id === null && typeof name === 'string') {
      const listed = await deps.loaders(signal).all(kind, kind === 'network' ? undefined : needNetwork());
      id = listed.find((r) => r.name === name)?.id ?? null;
    }
    if (id === null) throw new GatewayError('UPSTREAM_BAD_RESPONSE', `the upstream accepted the create but its answer named no id, and no ${kind} named ${JSON.stringify(name)} is listed`);
    const resourceId = id;
    edit((s) => Object.assign(s, { resourceId, created: true, businessKey: result.businessKey }));
    return resourceId;
  };
  const waitFor = async (kind: StatusKind, id: string, networkId: string | null): Promise<void> => {
    const final = await deps.untilStatus({ kind, id, networkId }, signal, (name) => edit((s) => (s.statusName = name)));
    if (final === null || !GOOD_STATUSES.has(final)) throw new GatewayError('RESOURCE_ERROR', `the ${kind.toLowerCase().replace('_', '')} ${id} ended in status ${final ?? 'unknown'}`);
  };

  switch (action.task) {
    case 'network': {
      if (action.existingId !== undefined) {
        // Read it, so a wrong id fails here and not after three more creates.
        const network = await deps.loaders(signal).byId('network', action.existingId);
        edit((s) => Object.assign(s, { resourceId: network.id, resourceName: network.name, statusName: null }));
        made.networkId = network.id;
        return;
      }
      const result = await changes.create('network', action.body);
      made.networkId = await created('network', result, action.body['name']);
      return waitFor('NETWORK', made.networkId, null);
    }
    case 'hostedGateway':
    case 'bridgeGateway':
    case 'client': {
      const result = await changes.create('endpoint', action.body, needNetwork());
      const id = await created('endpoint', result, action.body['name']);
      if (action.task === 'hostedGateway') made.gatewayId = id;
      else made.endpointIds.push(id);
      return waitFor('ENDPOINT', id, needNetwork());
    }
    case 'service': {
      const result = await changes.create('service', { ...action.body, endpointId: need(made.gatewayId, 'hosted gateway') }, needNetwork());
      made.serviceId = await created('service', result, action.body['name']);
      return waitFor('SERVICE', made.serviceId, needNetwork());
    }
    case 'appWan': {
      // An empty AppWAN stays NEW until it has members: nothing to wait for.
      const result = await changes.create('appWan', action.body, needNetwork());
      made.appWanId = await created('appWan', result, action.body['name']);
      edit((s) => (s.statusName = 'NEW'));
      return;
    }
    case 'authorizeEndpoints':
    case 'authorizeServices': {
      const appWanId = need(made.appWanId, 'AppWAN');
      const ids = action.task === 'authorizeEndpoints' ? made.endpointIds : [need(made.serviceId, 'service')];
      edit((s) => (s.resourceId = appWanId));
      const result = await changes.members('appWan', action.task === 'authorizeEndpoints' ? 'endpoints' : 'services', 'add', { id: appWanId, networkId: needNetwork() }, ids);
      edit((s) => (s.businessKey = result.businessKey));
      if (result.businessKey !== null) {
        const state = await deps.untilWorkflow(result.businessKey, signal, (st) => edit((s) => (s.statusName = st)));
        if (state !== 'SUCCEEDED') throw new GatewayError('RESOURCE_ERROR', `the AppWAN change ${result.businessKey} ended ${state}`);
        return;
      }
      return waitFor('APP_WAN', appWanId, needNetwork());
    }
  }
}

function need(id: string | null, what: string): string {
  if (id === null) throw new Error(`no ${what} from an earlier step`);
  return id;
}

const DELETE_KIND: Partial<Record<StepRecord['task'], WritableKind>> = {
  network: 'network',
  hostedGateway: 'endpoint',
  bridgeGateway: 'endpoint',
  client: 'endpoint',
  service: 'service',
  appWan: 'appWan',
};

/** Deletes what the run created, last first; each step says whether its resource is gone. */
async function rollback(handle: RunHandle, deps: ProvisioningDeps, signal: AbortSignal): Promise<void> {
  const createdSteps = handle.record.steps.filter((s) => s.created && s.resourceId !== null && DELETE_KIND[s.task] !== undefined).reverse();
  handle.change(() => createdSteps.forEach((s) => (s.rollback = 'PENDING')));
  for (const step of createdSteps) {
    const kind = DELETE_KIND[step.task];
    if (kind === undefined || step.resourceId === null) continue;
    const networkId = step.task === 'network' ? undefined : (handle.record.networkId ?? undefined);
    try {
      await deps.loaders(signal).changes().destroy(kind, networkId === undefined ? { id: step.resourceId } : { id: step.resourceId, networkId });
      handle.change(() => (step.rollback = 'DELETED'));
    } catch (error) {
      const record = errorRecord(error);
      // Already gone is what rollback wanted.
      handle.change(() => Object.assign(step, record.code === 'NOT_FOUND' ? { rollback: 'DELETED' } : { rollback: 'FAILED', rollbackError: record }));
    }
  }
}
