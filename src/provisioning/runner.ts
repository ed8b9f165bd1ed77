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
import type { JsonObject } from '../core/parse';
import type { ProvisioningErrorRecord, ProvisioningRecord, StepAction, StepRecord } from './records';

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
  /**
   * Resolves once every change so far is stored where another replica would resume from: called
   * after a step notes that its create is about to be sent, and before sending it.
   */
  checkpoint(): Promise<void>;
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

export async function runProvisioning(handle: RunHandle, actions: readonly StepAction[], deps: ProvisioningDeps, options: RunOptions): Promise<void> {
  if (handle.record.state !== 'RUNNING') return;
  // A resumed run (another replica started it) goes on from what the record says was done.
  const made = madeSoFar(handle.record);
  const stepOf = (index: number): StepRecord => {
    const step = handle.record.steps[index];
    if (step === undefined) throw new Error(`no step ${index}`);
    return step;
  };

  let failed = handle.record.steps.some((s) => s.state === 'FAILED');
  for (const [i, action] of actions.entries()) {
    if (failed) break;
    const step = stepOf(i);
    if (step.state === 'DONE') continue;
    if (step.state === 'PENDING') handle.change(() => Object.assign(stepOf(i), { state: 'RUNNING', startedAt: now() }));
    const signal = AbortSignal.any([options.signal, AbortSignal.timeout(options.stepTimeoutMs)]);
    try {
      await runStep(action, made, deps, signal, { record: () => stepOf(i), edit: (edit) => handle.change(() => edit(stepOf(i))), checkpoint: () => handle.checkpoint() });
      handle.change((r) => {
        Object.assign(stepOf(i), { state: 'DONE', finishedAt: now() });
        r.networkId = made.networkId;
        r.appWanId = made.appWanId;
      });
    } catch (error) {
      // Handed over (this replica stops, another one resumes): the step is not over, the record says nothing.
      if (isHandover(options.signal)) throw error;
      const record = options.signal.aborted ? stoppedError() : signal.aborted ? timeoutError(options.stepTimeoutMs) : errorRecord(error);
      handle.change((r) => {
        Object.assign(stepOf(i), { state: 'FAILED', finishedAt: now(), error: record });
        r.error = record;
        r.networkId = made.networkId;
        r.appWanId = made.appWanId;
      });
      failed = true;
    }
  }
  if (failed && handle.record.rollbackOnFailure) await rollback(handle, deps, options.signal);
  if (isHandover(options.signal)) return;
  handle.change((r) => {
    r.state = failed ? 'FAILED' : 'SUCCEEDED';
    r.finishedAt = now();
  });
}

/** The reason a run is aborted with when another replica is to resume it: nothing is recorded. */
export const HANDOVER = Symbol('handover');

function isHandover(signal: AbortSignal): boolean {
  return signal.aborted && signal.reason === HANDOVER;
}

/** What the finished steps made, read back from the record (a resumed run has nothing else). */
function madeSoFar(record: ProvisioningRecord): Made {
  const made: Made = { networkId: record.networkId, gatewayId: null, serviceId: null, endpointIds: [], appWanId: record.appWanId };
  for (const step of record.steps) {
    if (step.state !== 'DONE' || step.resourceId === null) continue;
    if (step.task === 'network') made.networkId = step.resourceId;
    else if (step.task === 'hostedGateway') made.gatewayId = step.resourceId;
    else if (step.task === 'service') made.serviceId = step.resourceId;
    else if (step.task === 'bridgeGateway' || step.task === 'client') made.endpointIds.push(step.resourceId);
    else if (step.task === 'appWan') made.appWanId = step.resourceId;
  }
  return made;
}

function stoppedError(): ProvisioningErrorRecord {
  return { code: 'INTERNAL_SERVER_ERROR', message: 'the gateway stopped while this step ran: check the resource before starting again', outcomeUnknown: true };
}

function timeoutError(ms: number): ProvisioningErrorRecord {
  return { code: 'UPSTREAM_TIMEOUT', message: `the step did not finish within ${Math.round(ms / 1000)} s (PROVISIONING_STEP_TIMEOUT_MS)`, outcomeUnknown: false };
}

/** The step being run: its record now, an edit (every watcher hears it), and the run's checkpoint. */
interface StepHandle {
  record(): StepRecord;
  edit(edit: (step: StepRecord) => void): void;
  checkpoint(): Promise<void>;
}

type CreateKind = 'network' | 'endpoint' | 'service' | 'appWan';

/** One step: send its change, note what it created, then wait until it is done. */
async function runStep(action: StepAction, made: Made, deps: ProvisioningDeps, signal: AbortSignal, step: StepHandle): Promise<void> {
  const { edit } = step;
  const changes: NetworkChanges = deps.loaders(signal).changes();
  const needNetwork = (): string => need(made.networkId, 'network');
  const byName = async (kind: CreateKind, name: unknown): Promise<string | null> => {
    if (typeof name !== 'string') return null;
    const listed = await deps.loaders(signal).all(kind, kind === 'network' ? undefined : needNetwork());
    return listed.find((r) => r.name === name)?.id ?? null;
  };
  /**
   * Notes what a create made. An answer that names no id (the contract does not show 202 bodies)
   * is looked up by the name just sent, in the list it went to.
   */
  const created = async (kind: CreateKind, result: { id: string | null; businessKey: string | null }, name: unknown): Promise<string> => {
    const id = result.id ?? (await byName(kind, name));
    if (id === null) throw new GatewayError('UPSTREAM_BAD_RESPONSE', `the upstream accepted the create but its answer named no id, and no ${kind} named ${JSON.stringify(name)} is listed`);
    const resourceId = id;
    edit((s) => Object.assign(s, { resourceId, created: true, businessKey: result.businessKey }));
    return resourceId;
  };
  /**
   * Sends a create once, even across replicas: a step that has its resource already (resumed
   * after the create's answer) keeps it; one whose create may have been sent by a replica that
   * stopped before the answer looks for the resource by name first, as for a bodiless 202.
   */
  const createOnce = async (kind: CreateKind, body: JsonObject, networkId?: string): Promise<string> => {
    const current = step.record();
    if (current.created && current.resourceId !== null) return current.resourceId;
    if (current.changeSent) {
      const found = await byName(kind, body['name']);
      if (found !== null) {
        edit((s) => Object.assign(s, { resourceId: found, created: true }));
        return found;
      }
    }
    edit((s) => (s.changeSent = true));
    await step.checkpoint();
    const result = networkId === undefined ? await changes.create(kind, body) : await changes.create(kind, body, networkId);
    return created(kind, result, body['name']);
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
      made.networkId = await createOnce('network', action.body);
      return waitFor('NETWORK', made.networkId, null);
    }
    case 'hostedGateway':
    case 'bridgeGateway':
    case 'client': {
      const id = await createOnce('endpoint', action.body, needNetwork());
      if (action.task === 'hostedGateway') made.gatewayId = id;
      else made.endpointIds.push(id);
      return waitFor('ENDPOINT', id, needNetwork());
    }
    case 'service': {
      made.serviceId = await createOnce('service', { ...action.body, endpointId: need(made.gatewayId, 'hosted gateway') }, needNetwork());
      return waitFor('SERVICE', made.serviceId, needNetwork());
    }
    case 'appWan': {
      // An empty AppWAN stays NEW until it has members: nothing to wait for.
      made.appWanId = await createOnce('appWan', action.body, needNetwork());
      edit((s) => (s.statusName = 'NEW'));
      return;
    }
    case 'authorizeEndpoints':
    case 'authorizeServices': {
      const appWanId = need(made.appWanId, 'AppWAN');
      const ids = action.task === 'authorizeEndpoints' ? made.endpointIds : [need(made.serviceId, 'service')];
      edit((s) => (s.resourceId = appWanId));
      // Resumed after the change was answered: follow what it answered. (Adding members is a set
      // operation: one sent again by a resumed run, before its answer was recorded, changes nothing.)
      const known = step.record().businessKey;
      if (known !== null) {
        const state = await deps.untilWorkflow(known, signal, (st) => edit((s) => (s.statusName = st)));
        if (state !== 'SUCCEEDED') throw new GatewayError('RESOURCE_ERROR', `the AppWAN change ${known} ended ${state}`);
        return;
      }
      edit((s) => (s.changeSent = true));
      await step.checkpoint();
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
  // A resumed rollback skips what was settled already.
  const createdSteps = handle.record.steps
    .filter((s) => s.created && s.resourceId !== null && DELETE_KIND[s.task] !== undefined && (s.rollback === 'NONE' || s.rollback === 'PENDING'))
    .reverse();
  handle.change(() => createdSteps.forEach((s) => (s.rollback = 'PENDING')));
  for (const step of createdSteps) {
    const kind = DELETE_KIND[step.task];
    if (kind === undefined || step.resourceId === null) continue;
    const networkId = step.task === 'network' ? undefined : (handle.record.networkId ?? undefined);
    try {
      await deps.loaders(signal).changes().destroy(kind, networkId === undefined ? { id: step.resourceId } : { id: step.resourceId, networkId });
      handle.change(() => (step.rollback = 'DELETED'));
    } catch (error) {
      if (isHandover(signal)) return;
      const record = errorRecord(error);
      // Already gone is what rollback wanted.
      handle.change(() => Object.assign(step, record.code === 'NOT_FOUND' ? { rollback: 'DELETED' } : { rollback: 'FAILED', rollbackError: record }));
    }
  }
}
