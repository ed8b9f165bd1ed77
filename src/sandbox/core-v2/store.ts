/**
 * core/v2 state: resources by kind and the executions of their creates. Status words are not
 * stored: they follow from the creation time and the clock (`statusAt`), so nothing needs timers.
 */
import type { V2KindName } from './kinds';
import type { JsonMap } from '../auth/input';

export interface V2Resource {
  id: string;
  kind: V2KindName;
  data: JsonMap;
  createdBy: string;
  createdAt: number;
  updatedAt: number;
  executionId: string | null;
  /** One-time enrollment token of endpoints until enrolled; null afterwards (and for others). */
  jwt: string | null;
}

export interface V2Execution {
  id: string;
  kind: V2KindName;
  resourceId: string;
  networkId: string | null;
  action: 'CREATE';
  createdBy: string;
  createdAt: number;
}

export type ResourceStatus = 'NEW' | 'PROVISIONING' | 'PROVISIONED';
export type ExecutionStatus = 'STARTED' | 'RUNNING' | 'FINISHED';

/** NEW for one step after the create, PROVISIONING for the next, then PROVISIONED. */
export function statusAt(createdAt: number, now: number, stepMs: number): ResourceStatus {
  const age = now - createdAt;
  return age < stepMs ? 'NEW' : age < 2 * stepMs ? 'PROVISIONING' : 'PROVISIONED';
}

export function executionStatusAt(createdAt: number, now: number, stepMs: number): ExecutionStatus {
  const age = now - createdAt;
  return age < stepMs ? 'STARTED' : age < 2 * stepMs ? 'RUNNING' : 'FINISHED';
}

export class V2Store {
  private readonly resources = new Map<V2KindName, Map<string, V2Resource>>();
  readonly executions = new Map<string, V2Execution>();

  clear(): void {
    this.resources.clear();
    this.executions.clear();
  }

  private byKind(kind: V2KindName): Map<string, V2Resource> {
    let map = this.resources.get(kind);
    if (!map) {
      map = new Map();
      this.resources.set(kind, map);
    }
    return map;
  }

  add(resource: V2Resource): void {
    this.byKind(resource.kind).set(resource.id, resource);
  }

  get(kind: V2KindName, id: string): V2Resource | undefined {
    return this.resources.get(kind)?.get(id);
  }

  all(kind: V2KindName): V2Resource[] {
    return [...this.byKind(kind).values()];
  }
}
