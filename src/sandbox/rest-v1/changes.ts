/**
 * Asynchronous changes of rest/v1 entities in one place. A change may start a process (its
 * business key is what a 202 body carries) and schedules what its entities show while it runs
 * and once it is over; a keyed change is over when its process is.
 *
 * Keyed redefines (endpoint and service PUT) show UPDATING (600) and go back to the status the
 * entity was heading for; keyed deletes (endpoint, service and AppWAN DELETE) show DELETING (800)
 * and remove the entity. A redefine replaces the end an earlier pending change had scheduled, so
 * two quick redefines cannot leave an entity UPDATING for ever.
 *
 * When a change starts it asks the control's failure rules (`ctx.asyncFailures`). A failing
 * change fails at its step `atStep` (a step past the last fails the last): its process reports
 * that step `Failed` once the step's time is over and reports no later step, and its entities
 * turn ERROR (500) at that moment instead of taking the progress scheduled from then on (a failed
 * delete leaves the entity in place).
 */
import type { AsyncChangeKind } from '../core/types';
import type { Env } from './env';
import { STATUS, timestamp } from './format';
import { isFinished, processEnd, PROCESSES, startProcess, type ProcessDefinition, type ProcessOwner } from './processes';
import type { Entity, Process, Scheduled } from './store';

export interface Change {
  /** The change's process, null for changes without a business key (single creates). */
  process: Process | null;
  /** When the change is over: done, or failed. */
  endsAt: number;
  /** When it fails (a failure rule matched); null when it succeeds. */
  failAt: number | null;
}

/** A change with a business key. */
export interface KeyedChange extends Change {
  process: Process;
}

/** Starts a change with a business key: its process runs from now. */
export function keyedChange(env: Env, definition: ProcessDefinition, owner: ProcessOwner): KeyedChange {
  const process = startProcess(env, definition, owner);
  const { kind, op } = PROCESSES[definition];
  const atStep = env.ctx.asyncFailures.failingStep({ kind, op, processDefinition: definition });
  if (atStep !== null) process.failedStep = Math.min(atStep, process.steps.length);
  const endsAt = processEnd(process);
  return { process, endsAt, failAt: atStep === null ? null : endsAt };
}

/** A single create: no process, its entity's progress takes `steps` steps. */
export function unkeyedCreate(env: Env, kind: AsyncChangeKind, steps: number): Change {
  const atStep = env.ctx.asyncFailures.failingStep({ kind, op: 'create', processDefinition: null });
  const endsAt = env.now + (atStep === null ? steps : Math.min(atStep, steps)) * env.ctx.clock.stepMs;
  return { process: null, endsAt, failAt: atStep === null ? null : endsAt };
}

/**
 * Schedules what an entity shows through a change: `success` as planned, or, when the change
 * fails, what was due before the failure and then ERROR. Without a change, `success` as is.
 */
export function settle(env: Env, entity: Entity, change: Change | null, success: Scheduled[]): void {
  const failAt = change?.failAt ?? null;
  if (failAt === null) {
    env.store.schedule(entity, success);
    return;
  }
  env.store.schedule(entity, [...success.filter((s) => s.at < failAt), { at: failAt, set: { status: STATUS.ERROR }, endsChange: true }]);
}

/** The process owner fields for a change of one entity (AppWANs are listed under appWan-processes). */
export function ownerOf(entity: Entity): ProcessOwner {
  const networkId = entity.data['networkId'];
  return {
    networkId: typeof networkId === 'string' ? networkId : null,
    appWanId: entity.kind === 'appWan' ? entity.id : null,
    entityId: entity.id,
  };
}

/** A keyed redefine of `entity`, whose fields are already changed: UPDATING until the process ends. */
export function keyedRedefine(env: Env, entity: Entity, definition: ProcessDefinition): KeyedChange {
  // Back to where the entity was heading: the end of a pending earlier change, else its status now.
  const pending = entity.scheduled.find((s) => s.endsChange === true);
  const previous = pending === undefined ? entity.data['status'] : pending.set['status'];
  entity.scheduled = entity.scheduled.filter((s) => s.endsChange !== true);
  const change = keyedChange(env, definition, ownerOf(entity));
  entity.data['status'] = STATUS.UPDATING;
  settle(env, entity, change, [{ at: change.endsAt, set: { status: previous }, endsChange: true }]);
  return change;
}

/**
 * A keyed delete: DELETING until the process ends, then gone with its memberships. Asking again
 * while it runs answers the running process (one delete, one key).
 */
export function keyedDelete(env: Env, entity: Entity, definition: ProcessDefinition): KeyedChange {
  if (entity.data['status'] === STATUS.DELETING) {
    const running = env.store.processes.find(
      (p) => p.entityId === entity.id && p.processDefinitionKey === definition && !isFinished(p, env.now),
    );
    if (running !== undefined) {
      const endsAt = processEnd(running);
      return { process: running, endsAt, failAt: running.failedStep === null ? null : endsAt };
    }
  }
  const change = keyedChange(env, definition, ownerOf(entity));
  entity.scheduled = [];
  Object.assign(entity.data, { status: STATUS.DELETING, updatedAt: timestamp(env.now) });
  if (change.failAt === null) env.store.scheduleRemoval(entity, change.endsAt);
  else settle(env, entity, change, []);
  return change;
}
