/**
 * Mutations of auth/v1. Each checks the API's field rules first (BadInputError names the field,
 * no upstream call), then makes exactly one POST/DELETE (never retried by the HTTP layer).
 */
import type { MutationResolvers, ResourceTypeDefinitionInput } from '../../generated/graphql';
import type { ResourceTypeDefinition } from '../../upstream/auth/client';
import type { ResourceActionRecord } from '../../upstream/auth/types';
import { checkCode, checkJsonObject, checkNonEmptyList, checkNotEmpty } from './validate';

/** What `createResourceActions` answered (the payload's mapper): the created actions, shown as a connection. */
export interface CreatedActionsRecord {
  resourceActions: ResourceActionRecord[];
}

export const authMutations: MutationResolvers = {
  createDomain: async (_root, { input }, { loaders }) => {
    checkCode(input.code, 'input.code');
    const domain = await loaders.auth.client.createDomain({ name: input.name, code: input.code });
    return { domain };
  },

  createResourceType: async (_root, { input }, { loaders }) => {
    const resourceType = await loaders.auth.client.createResourceType({
      domainId: input.domainId ?? null,
      parentId: input.parentId ?? null,
      resourceType: definition(input.resourceType, 'input.resourceType'),
    });
    return { resourceType };
  },

  createResourceActions: async (_root, { input }, { loaders }) => {
    checkNonEmptyList(input.actions, 'input.actions');
    input.actions.forEach((a, i) => checkCode(a.code, `input.actions[${i}].code`));
    const resourceActions = await loaders.auth.client.createResourceActions({
      resourceTypeId: input.resourceTypeId ?? null,
      actions: input.actions.map((a) => ({ name: a.name, code: a.code })),
    });
    return { resourceActions };
  },

  createSuperUser: async (_root, { input }, { loaders }) => {
    const superUser = await loaders.auth.client.createSuperUser({
      identityId: input.identityId,
      domainId: input.domainId ?? null,
    });
    return { superUser };
  },

  deleteSuperUser: async (_root, { id }, { loaders }) => {
    await loaders.auth.client.deleteSuperUser(id);
    return { id, deleted: true };
  },

  createPublicGrant: async (_root, { input }, { loaders }) => {
    input.path.forEach((p, i) => checkNotEmpty(p.resourceId, `input.path[${i}].resourceId`));
    const publicGrant = await loaders.auth.client.createPublicGrant({
      resourceActionId: input.resourceActionId ?? null,
      path: input.path.map((p) => ({ resourceId: p.resourceId, resourceTypeId: p.resourceTypeId ?? null })),
      anonymous: input.anonymous ?? null,
    });
    return { publicGrant };
  },

  masquerade: async (_root, { input }, { loaders }) => {
    checkNotEmpty(input.audience, 'input.audience');
    const claims = checkJsonObject(input.claims, 'input.claims');
    return loaders.auth.client.masquerade({ identityId: input.identityId, audience: input.audience, claims });
  },
};

/** The nested type definition, checked at every depth (`input.resourceType.children[0].code`). */
function definition(input: ResourceTypeDefinitionInput, field: string): ResourceTypeDefinition {
  checkCode(input.code, `${field}.code`);
  const children = (input.children ?? []).map((child, i) => definition(child, `${field}.children[${i}]`));
  return { name: input.name, code: input.code, children };
}
