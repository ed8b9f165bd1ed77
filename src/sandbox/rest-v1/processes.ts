/**
 * Asynchronous processes behind business keys. A process has named steps; step i starts at
 * `startedAt + i·stepMs` and completes one step later. Only started steps are reported: done ones
 * `Completed`, the running one `InProgress` (the words on record), so a process is finished when
 * every reported step is Completed and the count equals `total`.
 */
import type { Env } from './env';
import type { JsonObject } from './json';
import type { Process } from './store';

export const PROCESS_STEPS: Record<string, readonly string[]> = {
  AppWanUpdate: ['ValidateAppWan', 'UpdateAppWanPolicy', 'PushEndpointConfiguration'],
  UploadEndpoints: ['ValidateUpload', 'CreateEndpoints', 'GenerateRegistrationKeys'],
  UploadServices: ['ValidateUpload', 'CreateServices', 'PushGatewayConfiguration'],
  CreateNetworkFromBlueprint: ['ValidateBlueprint', 'ProvisionNetworkController', 'CreateResources', 'ApplyAppWans'],
};

export function startProcess(env: Env, definition: keyof typeof PROCESS_STEPS, networkId: string | null, appWanId: string | null = null): Process {
  const process: Process = {
    businessKey: env.ctx.uuid(),
    processDefinitionKey: definition,
    processInstanceId: env.ctx.uuid(),
    networkId,
    appWanId,
    startedAt: env.now,
    stepMs: env.ctx.clock.stepMs,
    steps: (PROCESS_STEPS[definition] ?? []).map((task) => ({ task, calledProcessInstanceId: env.ctx.uuid() })),
  };
  env.store.processes.push(process);
  return process;
}

/** When the last step completes. */
export function processEnd(process: Process): number {
  return process.startedAt + process.steps.length * process.stepMs;
}

export function isFinished(process: Process, now: number): boolean {
  return now >= processEnd(process);
}

function visibleSteps(process: Process, now: number): Array<{ task: string; status: string; calledProcessInstanceId: string }> {
  return process.steps
    .map((step, i) => ({ step, startsAt: process.startedAt + i * process.stepMs, endsAt: process.startedAt + (i + 1) * process.stepMs }))
    .filter(({ startsAt }, i) => i === 0 || startsAt <= now)
    .map(({ step, endsAt }) => ({ task: step.task, status: now >= endsAt ? 'Completed' : 'InProgress', calledProcessInstanceId: step.calledProcessInstanceId }));
}

/** `/workflow-status` shape. */
export function workflowStatus(process: Process, now: number): JsonObject {
  const data = visibleSteps(process, now).map((s) => ({ ...s, executionStatus: s.status === 'Completed' ? 'COMPLETED' : 'ACTIVE' }));
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
