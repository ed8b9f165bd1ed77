/**
 * Asynchronous processes behind business keys. A process has named steps; step i starts at
 * `startedAt + i·stepMs` and completes one step later. Only started steps are reported: done ones
 * `Completed`, the running one `InProgress` (the words the platform uses), so a process is finished when
 * every reported step is Completed and the count equals `total`. A process made to fail (see
 * changes.ts) reports its failing step `Failed` once that step's time is over, and no step after it.
 */
import type { AsyncChange, AsyncChangeKind } from '../core/types';
import type { Env } from './env';
import type { JsonObject } from './json';
import type { Process } from './store';

interface ProcessSpec {
  /** The kind of entity the change is about, and what it does (for failure rules). */
  kind: AsyncChangeKind;
  op: AsyncChange['op'];
  steps: readonly string[];
}

/**
 * Process definitions. The single-step ones are the keyed redefines and deletes of endpoints,
 * services and AppWANs: one step, the time their entity takes to show the change.
 */
export const PROCESSES = {
  AppWanUpdate: { kind: 'appWan', op: 'update', steps: ['ValidateAppWan', 'UpdateAppWanPolicy', 'PushEndpointConfiguration'] },
  UploadEndpoints: { kind: 'endpoint', op: 'create', steps: ['ValidateUpload', 'CreateEndpoints', 'GenerateRegistrationKeys'] },
  UploadServices: { kind: 'service', op: 'create', steps: ['ValidateUpload', 'CreateServices', 'PushGatewayConfiguration'] },
  CreateNetworkFromBlueprint: { kind: 'network', op: 'create', steps: ['ValidateBlueprint', 'ProvisionNetworkController', 'CreateResources', 'ApplyAppWans'] },
  UpdateEndpoint: { kind: 'endpoint', op: 'update', steps: ['PushEndpointConfiguration'] },
  DeleteEndpoint: { kind: 'endpoint', op: 'delete', steps: ['DeprovisionEndpoint'] },
  UpdateService: { kind: 'service', op: 'update', steps: ['PushServiceConfiguration'] },
  DeleteService: { kind: 'service', op: 'delete', steps: ['DeprovisionService'] },
  DeleteAppWan: { kind: 'appWan', op: 'delete', steps: ['RemoveAppWanPolicy'] },
} as const satisfies Record<string, ProcessSpec>;

export type ProcessDefinition = keyof typeof PROCESSES;

/** Every definition with the kind of entity it changes (the control checks failure rules against it). */
export const PROCESS_KINDS: Readonly<Record<string, AsyncChangeKind>> = Object.fromEntries(
  Object.entries(PROCESSES).map(([definition, spec]) => [definition, spec.kind]),
);

/** What a process changes: its network, the AppWAN (listed under appWan-processes), the entity. */
export interface ProcessOwner {
  networkId: string | null;
  appWanId?: string | null;
  entityId?: string | null;
}

export function startProcess(env: Env, definition: ProcessDefinition, owner: ProcessOwner): Process {
  const process: Process = {
    businessKey: env.ctx.uuid(),
    processDefinitionKey: definition,
    processInstanceId: env.ctx.uuid(),
    networkId: owner.networkId,
    appWanId: owner.appWanId ?? null,
    entityId: owner.entityId ?? null,
    startedAt: env.now,
    stepMs: env.ctx.clock.stepMs,
    steps: PROCESSES[definition].steps.map((task) => ({ task, calledProcessInstanceId: env.ctx.uuid() })),
    failedStep: null,
  };
  env.store.processes.push(process);
  return process;
}

/** How many steps run: all of them, or up to and including the failing one. */
function stepsRun(process: Process): number {
  return process.failedStep ?? process.steps.length;
}

/** When the last step that runs is over (completed, or failed). */
export function processEnd(process: Process): number {
  return process.startedAt + stepsRun(process) * process.stepMs;
}

export function isFinished(process: Process, now: number): boolean {
  return now >= processEnd(process);
}

type StepStatus = 'InProgress' | 'Completed' | 'Failed';

function visibleSteps(process: Process, now: number): Array<{ task: string; status: StepStatus; calledProcessInstanceId: string }> {
  return process.steps
    .slice(0, stepsRun(process))
    .map((step, i) => ({ step, number: i + 1, startsAt: process.startedAt + i * process.stepMs, endsAt: process.startedAt + (i + 1) * process.stepMs }))
    .filter(({ startsAt }, i) => i === 0 || startsAt <= now)
    .map(({ step, number, endsAt }) => ({
      task: step.task,
      status: now < endsAt ? 'InProgress' : number === process.failedStep ? 'Failed' : 'Completed',
      calledProcessInstanceId: step.calledProcessInstanceId,
    }));
}

const EXECUTION_STATUS: Record<StepStatus, string> = { InProgress: 'ACTIVE', Completed: 'COMPLETED', Failed: 'FAILED' };

/** `/workflow-status` shape. */
export function workflowStatus(process: Process, now: number): JsonObject {
  const data = visibleSteps(process, now).map((s) => ({ ...s, executionStatus: EXECUTION_STATUS[s.status] }));
  return { businessKey: process.businessKey, processDefinitionKey: process.processDefinitionKey, total: process.steps.length, size: data.length, data };
}

/** `/network-processes` and `/appWan-processes` shape. */
export function networkProcess(process: Process, now: number): JsonObject {
  return {
    businessKey: process.businessKey,
    processDefinitionKey: process.processDefinitionKey,
    processInstanceId: process.processInstanceId,
    workFlowStatus: visibleSteps(process, now),
  };
}
