/**
 * Asynchronous changes of rest/v1 entities in one place. A change may start a process (its
 * business key is what a 202 body carries) and schedules what its entities show while it runs
 * and once it is over; a keyed change is over when its process is.
 *
 * Keyed redefines (endpoint and service PUT) show UPDATING (600) and go back to the status the
 * entity was heading for; keyed deletes (endpoint, service and AppWAN DELETE) show DELETING (800)
 * and remove the entity. A redefine replaces the end an earlier pending redefine had scheduled,
 * so two quick redefines cannot leave an entity UPDATING for ever.
 */
import type { Env } from './env';
import { STATUS, timestamp } from './format';
import { isFinished, processEnd, startProcess, type ProcessDefinition, type ProcessOwner } from './processes';
import type { Entity, Process } from './store';

export interface Change {
  /** The change's process, null for changes without a business key (single creates). */
  process: Process | null;
  /** When the change is over. */
  endsAt: number;
}

/** A change with a business key. */
export interface KeyedChange extends Change {
  process: Process;
}

/** Starts a change with a business key: its process runs from now. */
export function keyedChange(env: Env, definition: ProcessDefinition, owner: ProcessOwner): KeyedChange {
  const process = startProcess(env, definition, owner);
  return { process, endsAt: processEnd(process) };
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
  // Back to where the entity was heading: the end of a pending earlier redefine, else its status now.
  const pending = entity.scheduled.find((s) => s.settles !== undefined);
  const previous = pending === undefined ? entity.data['status'] : pending.set['status'];
  entity.scheduled = entity.scheduled.filter((s) => s.settles === undefined);
  const change = keyedChange(env, definition, ownerOf(entity));
  entity.data['status'] = STATUS.UPDATING;
  env.store.schedule(entity, [{ at: change.endsAt, set: { status: previous }, settles: change.process.businessKey }]);
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
    if (running !== undefined) return { process: running, endsAt: processEnd(running) };
  }
  const change = keyedChange(env, definition, ownerOf(entity));
  entity.scheduled = [];
  Object.assign(entity.data, { status: STATUS.DELETING, updatedAt: timestamp(env.now) });
  env.store.scheduleRemoval(entity, change.endsAt);
  return change;
}
