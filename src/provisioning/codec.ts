/**
 * A provisioning's record and plan as JSON and back, checked field by field: a fleet keeps them in
 * Redis, and a replica reads what another one wrote.
 */
import { Fields, isObject, type JsonObject } from '../core/parse';
import type { ProvisioningErrorRecord, ProvisioningRecord, StepAction, StepRecord, StepTask } from './records';

const TASKS: readonly StepTask[] = ['network', 'hostedGateway', 'service', 'bridgeGateway', 'client', 'appWan', 'authorizeEndpoints', 'authorizeServices'];
const STEP_STATES: readonly StepRecord['state'][] = ['PENDING', 'RUNNING', 'DONE', 'FAILED'];
const ROLLBACKS: readonly StepRecord['rollback'][] = ['NONE', 'PENDING', 'DELETED', 'FAILED'];
const STATES: readonly ProvisioningRecord['state'][] = ['RUNNING', 'SUCCEEDED', 'FAILED'];

function oneOf<T extends string>(allowed: readonly T[], value: string | null, what: string): T {
  const match = allowed.find((a) => a === value);
  if (match === undefined) throw new Error(`${what}: ${String(value)} is not one of ${allowed.join(', ')}`);
  return match;
}

function errorOf(value: unknown): ProvisioningErrorRecord | null {
  if (!isObject(value)) return null;
  const f = new Fields(value, 'ProvisioningError');
  return { code: f.str('code') ?? 'INTERNAL_SERVER_ERROR', message: f.str('message') ?? '', outcomeUnknown: f.bool('outcomeUnknown') === true };
}

function stepOf(value: unknown): StepRecord {
  const f = Fields.of(value, 'ProvisioningStep');
  return {
    index: f.int('index') ?? 0,
    task: oneOf(TASKS, f.str('task'), 'step task'),
    description: f.str('description') ?? '',
    state: oneOf(STEP_STATES, f.str('state'), 'step state'),
    resourceKind: f.str('resourceKind') ?? '',
    resourceId: f.str('resourceId'),
    resourceName: f.str('resourceName'),
    created: f.bool('created') === true,
    changeSent: f.bool('changeSent') === true,
    statusName: f.str('statusName'),
    businessKey: f.str('businessKey'),
    error: errorOf(f.raw('error')),
    rollback: oneOf(ROLLBACKS, f.str('rollback'), 'step rollback'),
    rollbackError: errorOf(f.raw('rollbackError')),
    startedAt: f.str('startedAt'),
    finishedAt: f.str('finishedAt'),
  };
}

export function parseProvisioningRecord(value: unknown): ProvisioningRecord {
  const f = Fields.of(value, 'Provisioning');
  const steps = f.raw('steps');
  return {
    id: f.id('id'),
    state: oneOf(STATES, f.str('state'), 'provisioning state'),
    steps: Array.isArray(steps) ? steps.map(stepOf) : [],
    networkId: f.str('networkId'),
    appWanId: f.str('appWanId'),
    error: errorOf(f.raw('error')),
    rollbackOnFailure: f.bool('rollbackOnFailure') === true,
    startedAt: f.str('startedAt') ?? '',
    finishedAt: f.str('finishedAt'),
  };
}

export function parseStepActions(value: unknown): StepAction[] {
  if (!Array.isArray(value)) throw new Error('a provisioning plan is a list');
  return value.map((item): StepAction => {
    const f = Fields.of(item, 'ProvisioningAction');
    const task = oneOf(TASKS, f.str('task'), 'action task');
    const body: JsonObject | null = f.object('body');
    switch (task) {
      case 'network': {
        const existingId = f.str('existingId');
        if (existingId !== null) return { task, existingId };
        if (body === null) throw new Error('a network action needs a body or an existingId');
        return { task, body };
      }
      case 'authorizeEndpoints':
      case 'authorizeServices':
        return { task };
      default:
        if (body === null) throw new Error(`a ${task} action needs a body`);
        return { task, body };
    }
  });
}
