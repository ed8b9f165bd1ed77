/**
 * Loads the seed tables into the store: domains and type trees (standard actions), the demo
 * identities' grants (admin: super user everywhere; reader: read grants; nobody: nothing), and a
 * few soft-deleted and path-limited grants so list filters have something to filter.
 */
import { ADMIN_IDENTITY_ID, READER_IDENTITY_ID } from '../core/identities';
import type { AreaContext, SeedSize } from '../core/types';
import {
  DOMAIN_SEEDS,
  LARGE_EXTRA_DOMAINS,
  LARGE_TYPES_PER_DOMAIN,
  NETWORK_DOMAIN_CODE,
  NETWORK_DOMAIN_ID,
  READER_EXCLUDED,
  type DomainSeed,
  type TypeSeed,
} from './seed-data';
import type { Audit, AuthStore } from './store';

const EXTRA_ACTIONS = ['read', 'write', 'delete', 'execute', 'audit'];

/** Builds `large`'s extra trees: 6 roots, 2 children each, 1 grandchild per child (30 types). */
function extraDomainSeed(ctx: AreaContext, n: number): DomainSeed {
  let made = 0;
  const typeSeed = (code: string, children: TypeSeed[]): TypeSeed => {
    made += 1;
    return { code, name: `Lab ${n} ${code}`, actions: EXTRA_ACTIONS.slice(0, 3 + (made % 3)), children };
  };
  const roots: TypeSeed[] = [];
  for (let r = 0; made < LARGE_TYPES_PER_DOMAIN; r++) {
    const children: TypeSeed[] = [];
    for (let c = 0; c < 2; c++) children.push(typeSeed(`part-${r}-${c}`, [typeSeed(`item-${r}-${c}`, [])]));
    roots.push(typeSeed(`asset-${r}`, children));
  }
  return { id: ctx.uuid(), code: `lab-${n}`, name: `Lab domain ${n}`, types: roots };
}

export function seedAuth(store: AuthStore, ctx: AreaContext, size: SeedSize): void {
  store.clear();
  const now = ctx.clock.now();
  const audit = (): Audit => ({ createdBy: ADMIN_IDENTITY_ID, createdAt: now, updatedAt: now });
  const alive = { deletedAt: null, deletedBy: null };

  const domains = [...DOMAIN_SEEDS];
  if (size === 'large') for (let n = 1; n <= LARGE_EXTRA_DOMAINS; n++) domains.push(extraDomainSeed(ctx, n));

  const addTypes = (domainId: string, seeds: readonly TypeSeed[], parentId: string | null, depth: number): void => {
    for (const seed of seeds) {
      const id = ctx.uuid();
      store.addType({ id, domainId, name: seed.name, code: seed.code, parentId, depth, childrenIds: [], ...audit() });
      for (const code of seed.actions) {
        store.addAction({ id: ctx.uuid(), resourceTypeId: id, name: code, code, standardAction: true, ...audit() });
      }
      addTypes(domainId, seed.children ?? [], id, depth + 1);
    }
  };
  for (const d of domains) {
    store.addDomain({ id: d.id, name: d.name, code: d.code, ...audit() });
    addTypes(d.id, d.types, null, 0);
  }

  // admin: super user in all domains.
  const adminSuId = ctx.uuid();
  store.superUsers.set(adminSuId, { id: adminSuId, identityId: ADMIN_IDENTITY_ID, domainId: null, ...audit(), ...alive });

  // reader: the network domain's reads through a custom role, the auth domain's reads as
  // identity-resource-action grants (so both grant kinds appear in GET /grants).
  const readIds = (domainCode: string): string[] => {
    const excluded = READER_EXCLUDED[domainCode] ?? [];
    const out: string[] = [];
    for (const action of store.actions.values()) {
      const codes = store.actionCodes(action.id);
      if (codes && codes.domain.code === domainCode && action.code === 'read' && !excluded.includes(codes.type.code)) out.push(action.id);
    }
    return out;
  };
  const roleId = ctx.uuid();
  store.customRoles.set(roleId, { id: roleId, name: 'Network reader', actionIds: readIds(NETWORK_DOMAIN_CODE) });
  const roleGrantId = ctx.uuid();
  store.customRoleGrants.set(roleGrantId, { id: roleGrantId, identityId: READER_IDENTITY_ID, customRoleId: roleId, path: [], ...audit(), ...alive });
  for (const actionId of readIds('auth')) {
    const id = ctx.uuid();
    store.identityGrants.set(id, { id, identityId: READER_IDENTITY_ID, resourceActionId: actionId, path: [], ...audit(), ...alive });
  }

  // History for the isDeleted filters: a revoked super user and a revoked public grant.
  const revoked = { deletedAt: now, deletedBy: ADMIN_IDENTITY_ID };
  const suId = ctx.uuid();
  store.superUsers.set(suId, { id: suId, identityId: READER_IDENTITY_ID, domainId: NETWORK_DOMAIN_ID, ...audit(), ...revoked });
  const domainRead = store.actionIdFor('auth', 'domain', 'read');
  if (domainRead !== undefined) {
    const id = ctx.uuid();
    store.publicGrants.set(id, { id, resourceActionId: domainRead, path: [], anonymous: false, ...audit(), ...revoked });
  }
  // A live public grant limited to one resource: it grants nothing type-wide.
  const metadataRead = store.actionIdFor(NETWORK_DOMAIN_CODE, 'network-config-metadata', 'read');
  const metadataType = store.typeByCode(NETWORK_DOMAIN_ID, 'network-config-metadata');
  if (metadataRead !== undefined && metadataType !== undefined) {
    const id = ctx.uuid();
    const path = [{ resourceId: ctx.uuid(), resourceTypeId: metadataType.id }];
    store.publicGrants.set(id, { id, resourceActionId: metadataRead, path, anonymous: true, ...audit(), ...alive });
  }
}
