/**
 * Mutations of auth/v1. Each checks the field rules first (BadInputError names the field, no
 * upstream call), then makes its one change through `loaders.auth.write` (the one sender: sent
 * once, how to check an unknown outcome, the loaders forget what it touched).
 */
import type { MutationResolvers, ResourceTypeDefinitionInput } from '../../generated/graphql';
import type { ResourceActionRecord, ResourceTypeDefinition } from '../../upstream/auth/types';
import { checkCode, checkJsonObject, checkNonEmptyList, checkNotEmpty } from './validate';

/** What `createResourceActions` answered (the payload's mapper): the created actions, shown as a connection. */
export interface CreatedActionsRecord {
  resourceActions: ResourceActionRecord[];
}

export const authMutations: MutationResolvers = {
  createDomain: async (_root, { input }, { loaders }) => {
    checkCode(input.code, 'input.code');
    return { domain: await loaders.auth.write('createDomain', { name: input.name, code: input.code }) };
  },

  createResourceType: async (_root, { input }, { loaders }) => {
    const resourceType = definition(input.resourceType, 'input.resourceType');
    return { resourceType: await loaders.auth.write('createResourceType', { domainId: input.domainId ?? null, parentId: input.parentId ?? null, resourceType }) };
  },

  createResourceActions: async (_root, { input }, { loaders }) => {
    checkNonEmptyList(input.actions, 'input.actions');
    input.actions.forEach((a, i) => checkCode(a.code, `input.actions[${i}].code`));
    const actions = input.actions.map((a) => ({ name: a.name, code: a.code }));
    return { resourceActions: await loaders.auth.write('createResourceActions', { resourceTypeId: input.resourceTypeId ?? null, actions }) };
  },

  createSuperUser: async (_root, { input }, { loaders }) => ({
    superUser: await loaders.auth.write('createSuperUser', { identityId: input.identityId, domainId: input.domainId ?? null }),
  }),

  deleteSuperUser: async (_root, { id }, { loaders }) => {
    await loaders.auth.write('deleteSuperUser', { id });
    return { id, deleted: true };
  },

  createPublicGrant: async (_root, { input }, { loaders }) => {
    input.path.forEach((p, i) => checkNotEmpty(p.resourceId, `input.path[${i}].resourceId`));
    const path = input.path.map((p) => ({ resourceId: p.resourceId, resourceTypeId: p.resourceTypeId ?? null }));
    return { publicGrant: await loaders.auth.write('createPublicGrant', { resourceActionId: input.resourceActionId ?? null, path, anonymous: input.anonymous ?? null }) };
  },

  masquerade: (_root, { input }, { loaders }) => {
    checkNotEmpty(input.audience, 'input.audience');
    const claims = checkJsonObject(input.claims, 'input.claims');
    return loaders.auth.write('masquerade', { identityId: input.identityId, audience: input.audience, claims });
  },
};

/** The nested type definition, checked at every depth (`input.resourceType.children[0].code`). */
function definition(input: ResourceTypeDefinitionInput, field: string): ResourceTypeDefinition {
  checkCode(input.code, `${field}.code`);
  const children = (input.children ?? []).map((child, i) => definition(child, `${field}.children[${i}]`));
  return { name: input.name, code: input.code, children };
}
