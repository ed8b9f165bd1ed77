/**
 * rest/v1's in-memory state: entities per kind (insertion ordered), AppWAN and endpoint-group
 * memberships, and asynchronous processes. Scheduled changes (status progress, removals) are
 * applied lazily by `advance(now)` at the start of every request, so nothing runs on timers.
 */
import type { JsonObject } from './json';
import { timestamp } from './format';

export interface Scheduled {
  at: number;
  set: JsonObject;
  /**
   * Marks the end of a change (the status back after a redefine, or ERROR when a change fails),
   * which a newer redefine of the same entity replaces (see changes.ts).
   */
  endsChange?: boolean;
}

export interface Entity {
  kind: string;
  id: string;
  /** The wire fields, `_links` excluded (built on output). */
  data: JsonObject;
  scheduled: Scheduled[];
  /** When set, the entity (and what hangs off it) disappears at this time. */
  removeAt: number | null;
}

export interface ProcessStep {
  task: string;
  calledProcessInstanceId: string;
}

export interface Process {
  businessKey: string;
  processDefinitionKey: string;
  processInstanceId: string;
  networkId: string | null;
  /** Set for AppWAN processes (listed under /networks/{id}/appWan-processes). */
  appWanId: string | null;
  /** The entity a single-entity change is about (redefines, deletes, AppWAN member changes, blueprints). */
  entityId: string | null;
  startedAt: number;
  stepMs: number;
  steps: ProcessStep[];
  /** 1-based number of the step that fails (a failure rule matched), null when it runs to the end. */
  failedStep: number | null;
}

export interface Members {
  endpoints: Set<string>;
  services: Set<string>;
  endpointGroups: Set<string>;
}

export class Store {
  private readonly byKind = new Map<string, Map<string, Entity>>();
  private readonly pending = new Set<Entity>();
  readonly appWanMembers = new Map<string, Members>();
  readonly groupMembers = new Map<string, Set<string>>();
  readonly processes: Process[] = [];

  collection(kind: string): Map<string, Entity> {
    let map = this.byKind.get(kind);
    if (map === undefined) {
      map = new Map();
      this.byKind.set(kind, map);
    }
    return map;
  }

  get(kind: string, id: string): Entity | undefined {
    return this.collection(kind).get(id);
  }

  all(kind: string): Entity[] {
    return [...this.collection(kind).values()];
  }

  where(kind: string, field: string, value: string): Entity[] {
    return this.all(kind).filter((e) => e.data[field] === value);
  }

  insert(kind: string, data: JsonObject & { id: string }): Entity {
    const entity: Entity = { kind, id: data.id, data, scheduled: [], removeAt: null };
    this.collection(kind).set(entity.id, entity);
    return entity;
  }

  /** Schedules field changes (status progress) at the given times. */
  schedule(entity: Entity, changes: Scheduled[]): void {
    entity.scheduled.push(...changes);
    entity.scheduled.sort((a, b) => a.at - b.at);
    if (entity.scheduled.length > 0) this.pending.add(entity);
  }

  scheduleRemoval(entity: Entity, at: number): void {
    entity.removeAt = at;
    this.pending.add(entity);
  }

  /** The organization demo callers belong to: the first network group of the seed. */
  callerOrganizationId(): string | null {
    const first = this.collection('organization').values().next();
    return first.done === true ? null : first.value.id;
  }

  members(appWanId: string): Members {
    let m = this.appWanMembers.get(appWanId);
    if (m === undefined) {
      m = { endpoints: new Set(), services: new Set(), endpointGroups: new Set() };
      this.appWanMembers.set(appWanId, m);
    }
    return m;
  }

  groupEndpoints(groupId: string): Set<string> {
    let m = this.groupMembers.get(groupId);
    if (m === undefined) {
      m = new Set();
      this.groupMembers.set(groupId, m);
    }
    return m;
  }

  /** Applies every scheduled change that is due. */
  advance(now: number): void {
    for (const entity of [...this.pending]) {
      while (entity.scheduled[0] !== undefined && entity.scheduled[0].at <= now) {
        const change = entity.scheduled.shift();
        if (change === undefined) break;
        Object.assign(entity.data, change.set, { updatedAt: timestamp(change.at) });
      }
      if (entity.removeAt !== null && entity.removeAt <= now) {
        this.remove(entity);
        this.pending.delete(entity);
      } else if (entity.scheduled.length === 0 && entity.removeAt === null) {
        this.pending.delete(entity);
      }
    }
  }

  /** Removes an entity with what depends on it: a network's resources, memberships. */
  remove(entity: Entity): void {
    this.collection(entity.kind).delete(entity.id);
    this.pending.delete(entity);
    this.appWanMembers.delete(entity.id);
    this.groupMembers.delete(entity.id);
    for (const m of this.appWanMembers.values()) {
      m.endpoints.delete(entity.id);
      m.services.delete(entity.id);
      m.endpointGroups.delete(entity.id);
    }
    for (const g of this.groupMembers.values()) g.delete(entity.id);
    if (entity.kind === 'network') {
      for (const map of this.byKind.values()) {
        for (const child of [...map.values()]) {
          if (child.data['networkId'] === entity.id) this.remove(child);
        }
      }
    }
  }
}
