/**
 * Field resolvers of the auth types: links go through the per-request loaders (primed by lists),
 * `children`/`actions` through the plan rule (upstream/auth/plan.ts).
 */
import type {
  CreateResourceActionsPayloadResolvers,
  DomainResolvers,
  GrantResolvers,
  MasqueradePayloadResolvers,
  PublicGrantGrantResolvers,
  PublicGrantPathEntryResolvers,
  PublicGrantResolvers,
  ResourceActionResolvers,
  ResourceTypeResolvers,
  SuperUserGrantResolvers,
  SuperUserResolvers,
  UnknownGrantResolvers,
} from '../../generated/graphql';
import { flattenPrivileges } from '../../upstream/auth/privileges';
import { GRANT_TYPES, type GrantRecord, type GrantTypeName } from '../../upstream/auth/types';
import { arrayConnection, connectionFromArray } from '../connection';
import { decodeJwtClaims, expiryOf } from './token-claims';

export const Domain: DomainResolvers = {
  resourceTypes: async (domain, { rootsOnly, first, after }, { loaders }) => {
    const all = await loaders.auth.resourceTypes.load({ domainId: domain.id });
    return connectionFromArray(rootsOnly ? all.filter((t) => t.root) : all, { first, after });
  },
};

export const ResourceType: ResourceTypeResolvers = {
  domain: (t, _args, { loaders }) => (t.domainId === null ? null : loaders.auth.domain.load(t.domainId)),
  parent: (t, _args, { loaders }) => (t.parentId === null ? null : loaders.auth.resourceType.load(t.parentId)),
  childrenIds: (t) => t.childrenIds ?? [],
  // Connections over lists the plan rule already holds in memory (arguments checked before any call).
  children: (t, args, { loaders }) => arrayConnection(args, () => loaders.auth.children.load(t)),
  actions: (t, args, { loaders }) => arrayConnection(args, () => loaders.auth.actions.load(t)),
};

export const CreateResourceActionsPayload: CreateResourceActionsPayloadResolvers = {
  resourceActions: (p, args) => connectionFromArray(p.resourceActions, args),
};

export const ResourceAction: ResourceActionResolvers = {
  resourceType: (a, _args, { loaders }) =>
    a.resourceTypeId === null ? null : loaders.auth.resourceType.load(a.resourceTypeId),
};

function isKnownGrantType(value: string): value is GrantTypeName {
  return (GRANT_TYPES as readonly string[]).includes(value);
}

/** GraphQL type per grant kind; a kind this schema does not know resolves to UnknownGrant. */
const GRANT_OBJECT_TYPES = {
  CustomRole: 'CustomRoleGrant',
  IdentityResourceAction: 'IdentityResourceActionGrant',
  PublicGrant: 'PublicGrantGrant',
  SuperUser: 'SuperUserGrant',
} as const satisfies Record<GrantTypeName, string>;

export function grantObjectType(grant: GrantRecord): (typeof GRANT_OBJECT_TYPES)[GrantTypeName] | 'UnknownGrant' {
  return isKnownGrantType(grant.grantType) ? GRANT_OBJECT_TYPES[grant.grantType] : 'UnknownGrant';
}

export const Grant: GrantResolvers = {
  __resolveType: (grant) => grantObjectType(grant),
};

/** Fields shared by every Grant implementation (all map to GrantRecord). */
const grantFields = {
  upstreamGrantType: (g: GrantRecord) => g.grantType,
  privilegeEntries: (g: GrantRecord) => flattenPrivileges(g.privileges),
  deleted: (g: GrantRecord) => g.deletedAt !== null,
};

export const CustomRoleGrant = grantFields;
export const IdentityResourceActionGrant = grantFields;
export const PublicGrantGrant: PublicGrantGrantResolvers = {
  ...grantFields,
  publicGrant: (g, _args, { loaders }) => (g.grantId === null ? null : loaders.auth.publicGrant.load(g.grantId)),
};
export const SuperUserGrant: SuperUserGrantResolvers = {
  ...grantFields,
  superUser: (g, _args, { loaders }) => (g.grantId === null ? null : loaders.auth.superUser.load(g.grantId)),
};
export const UnknownGrant: UnknownGrantResolvers = { ...grantFields, grantType: () => null };

export const SuperUser: SuperUserResolvers = {
  allDomains: (s) => s.domainId === null,
  domain: (s, _args, { loaders }) => (s.domainId === null ? null : loaders.auth.domain.load(s.domainId)),
  deleted: (s) => s.deletedAt !== null,
};

export const PublicGrant: PublicGrantResolvers = {
  resourceAction: (p, _args, { loaders }) =>
    p.resourceActionId === null ? null : loaders.auth.resourceAction.load(p.resourceActionId),
  deleted: (p) => p.deletedAt !== null,
};

export const PublicGrantPathEntry: PublicGrantPathEntryResolvers = {
  resourceType: (e, _args, { loaders }) =>
    e.resourceTypeId === null ? null : loaders.auth.resourceType.load(e.resourceTypeId),
};

export const MasqueradePayload: MasqueradePayloadResolvers = {
  claims: (m) => decodeJwtClaims(m.token),
  expiresAt: (m) => expiryOf(decodeJwtClaims(m.token)),
};
