/**
 * The authorization model's state: domains, resource types, resource actions and the four
 * grant kinds, with the indexes the permission checks need. Plain data plus lookups; the HTTP
 * rules live in the route files and the permission logic in authz.ts.
 */

/** Audit fields every record has; times are epoch milliseconds (rendered as ISO 8601 `Z`). */
export interface Audit {
  createdBy: string;
  createdAt: number;
  updatedAt: number;
}

export interface SoftDelete {
  deletedAt: number | null;
  deletedBy: string | null;
}

export interface DomainRecord extends Audit {
  id: string;
  name: string;
  code: string;
}

export interface ResourceTypeRecord extends Audit {
  id: string;
  domainId: string;
  name: string;
  code: string;
  parentId: string | null;
  depth: number;
  childrenIds: string[];
}

export interface ResourceActionRecord extends Audit {
  id: string;
  resourceTypeId: string;
  name: string;
  code: string;
  standardAction: boolean;
}

export interface PathEntry {
  resourceId: string;
  resourceTypeId: string | null;
}

export interface SuperUserRecord extends Audit, SoftDelete {
  id: string;
  identityId: string;
  domainId: string | null;
}

export interface PublicGrantRecord extends Audit, SoftDelete {
  id: string;
  resourceActionId: string;
  path: PathEntry[];
  anonymous: boolean;
}

export interface IdentityActionGrantRecord extends Audit, SoftDelete {
  id: string;
  identityId: string;
  resourceActionId: string;
  path: PathEntry[];
}

export interface CustomRoleRecord {
  id: string;
  name: string;
  actionIds: string[];
}

export interface CustomRoleGrantRecord extends Audit, SoftDelete {
  id: string;
  identityId: string;
  customRoleId: string;
  path: PathEntry[];
}

export class AuthStore {
  readonly domains = new Map<string, DomainRecord>();
  readonly types = new Map<string, ResourceTypeRecord>();
  readonly actions = new Map<string, ResourceActionRecord>();
  readonly superUsers = new Map<string, SuperUserRecord>();
  readonly publicGrants = new Map<string, PublicGrantRecord>();
  readonly identityGrants = new Map<string, IdentityActionGrantRecord>();
  readonly customRoles = new Map<string, CustomRoleRecord>();
  readonly customRoleGrants = new Map<string, CustomRoleGrantRecord>();
  /** `domainCode/typeCode/actionCode` → action id, for permission checks by code. */
  private readonly actionKeys = new Map<string, string>();
  private readonly domainCodes = new Map<string, string>();

  clear(): void {
    for (const map of [
      this.domains,
      this.types,
      this.actions,
      this.superUsers,
      this.publicGrants,
      this.identityGrants,
      this.customRoles,
      this.customRoleGrants,
      this.actionKeys,
      this.domainCodes,
    ]) {
      map.clear();
    }
  }

  addDomain(domain: DomainRecord): void {
    this.domains.set(domain.id, domain);
    this.domainCodes.set(domain.code, domain.id);
  }

  addType(type: ResourceTypeRecord): void {
    this.types.set(type.id, type);
    if (type.parentId !== null) this.types.get(type.parentId)?.childrenIds.push(type.id);
  }

  addAction(action: ResourceActionRecord): void {
    this.actions.set(action.id, action);
    const type = this.types.get(action.resourceTypeId);
    const domain = type && this.domains.get(type.domainId);
    if (type && domain) this.actionKeys.set(`${domain.code}/${type.code}/${action.code}`, action.id);
  }

  domainByCode(code: string): DomainRecord | undefined {
    const id = this.domainCodes.get(code);
    return id === undefined ? undefined : this.domains.get(id);
  }

  domainByIdOrCode(idOrCode: string): DomainRecord | undefined {
    return this.domains.get(idOrCode) ?? this.domainByCode(idOrCode);
  }

  actionIdFor(domainCode: string, typeCode: string, actionCode: string): string | undefined {
    return this.actionKeys.get(`${domainCode}/${typeCode}/${actionCode}`);
  }

  typeByCode(domainId: string, code: string): ResourceTypeRecord | undefined {
    for (const t of this.types.values()) if (t.domainId === domainId && t.code === code) return t;
    return undefined;
  }

  /** The domain, type and action codes of an action (for privileges maps and titles). */
  actionCodes(actionId: string): { domain: DomainRecord; type: ResourceTypeRecord; action: ResourceActionRecord } | undefined {
    const action = this.actions.get(actionId);
    const type = action && this.types.get(action.resourceTypeId);
    const domain = type && this.domains.get(type.domainId);
    return action && type && domain ? { domain, type, action } : undefined;
  }

  /** All action ids of one domain, or of every domain when `domainId` is null. */
  actionIdsOfDomain(domainId: string | null): string[] {
    const out: string[] = [];
    for (const action of this.actions.values()) {
      if (domainId === null || this.types.get(action.resourceTypeId)?.domainId === domainId) out.push(action.id);
    }
    return out;
  }
}
