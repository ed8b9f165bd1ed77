/**
 * Asynchronous process records of rest/v1, in the shapes the platform answers: `/workflow-status` answers
 * `[{ businessKey, processDefinitionKey, total, size, data: [{ task, status, … }] }]`;
 * `/network-processes` and `/networks/{id}/appWan-processes` answer
 * `[{ businessKey, processDefinitionKey, processInstanceId, workFlowStatus: [{ task, status, … }] }]`.
 * Both are read into one `ProcessRecord`; a bare string in a list is taken as a business key.
 */
import { Fields, isObject } from '../../core/parse';
import { ShapeError } from '../../errors/shape-error';

export type ProcessState = 'RUNNING' | 'SUCCEEDED' | 'FAILED';

export interface ProcessStepRecord {
  task: string | null;
  status: string | null;
  calledProcessInstanceId: string | null;
  executionStatus: string | null;
}

export interface ProcessRecord {
  businessKey: string;
  processDefinitionKey: string | null;
  processInstanceId: string | null;
  steps: ProcessStepRecord[];
  /**
   * How many steps the process has in all (`/workflow-status`'s `total`), when the upstream says:
   * it may report only the steps that have started, so all of those being done is not the end.
   */
  totalSteps: number | null;
}

export function parseProcess(value: unknown): ProcessRecord {
  if (typeof value === 'string' && value !== '') {
    return { businessKey: value, processDefinitionKey: null, processInstanceId: null, steps: [], totalSteps: null };
  }
  const f = Fields.of(value, 'Process');
  const rawSteps = f.raw('data') ?? f.raw('workFlowStatus') ?? f.raw('steps');
  const steps = Array.isArray(rawSteps) ? rawSteps.filter(isObject).map(parseStep) : [];
  return {
    businessKey: f.id('businessKey'),
    processDefinitionKey: f.str('processDefinitionKey'),
    processInstanceId: f.str('processInstanceId'),
    steps,
    totalSteps: f.int('total'),
  };
}

function parseStep(obj: Record<string, unknown>): ProcessStepRecord {
  const f = new Fields(obj, 'ProcessStep');
  return {
    task: f.str('task'),
    status: f.str('status'),
    calledProcessInstanceId: f.str('calledProcessInstanceId'),
    executionStatus: f.str('executionStatus'),
  };
}

/** A process body: an array of processes, or (tolerated) a single process object. */
export function parseProcessList(body: unknown): ProcessRecord[] {
  if (Array.isArray(body)) return body.map(parseProcess);
  if (isObject(body)) {
    const embedded = body['_embedded'];
    if (isObject(embedded)) {
      const arrays = Object.values(embedded).filter(Array.isArray);
      if (arrays.length === 1 && arrays[0] !== undefined) return arrays[0].map(parseProcess);
    }
    if ('businessKey' in body) return [parseProcess(body)];
  }
  throw new ShapeError('Process list: expected an array of processes');
}

/**
 * The entries the upstream returns for one business key, merged into one record: the first
 * entry's keys and every entry's steps in order. Null when the upstream returned none.
 */
export function mergeProcesses(businessKey: string, entries: ProcessRecord[]): ProcessRecord | null {
  const mine = entries.filter((e) => e.businessKey === businessKey);
  const used = mine.length > 0 ? mine : entries;
  const first = used[0];
  if (first === undefined) return null;
  const totals = used.map((e) => e.totalSteps);
  const totalSteps = totals.every((t): t is number => t !== null) ? totals.reduce((a, b) => a + b, 0) : null;
  return { ...first, businessKey, steps: used.flatMap((e) => e.steps), totalSteps };
}

/**
 * State of a process from its steps. Step words on record are `InProgress` and `Completed`;
 * anything containing "fail" or "error" counts as failed. With no step, with
 * any step not completed, or with fewer steps reported than its `total`, it is still running.
 */
export function processState(process: Pick<ProcessRecord, 'steps' | 'totalSteps'>): ProcessState {
  const { steps } = process;
  const words = steps.map((s) => `${s.status ?? ''} ${s.executionStatus ?? ''}`.toLowerCase());
  if (words.some((w) => w.includes('fail') || w.includes('error'))) return 'FAILED';
  const allReported = process.totalSteps === null || steps.length >= process.totalSteps;
  if (steps.length > 0 && allReported && steps.every((s) => /^(completed?|success(ful)?|succeeded|finished|done)$/i.test((s.status ?? '').trim()))) {
    return 'SUCCEEDED';
  }
  return 'RUNNING';
}
