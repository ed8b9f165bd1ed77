/**
 * Root query fields of auth/v1. Lists are whole upstream lists (shared through the list loaders,
 * which prime the by-id loaders) windowed onto connections in memory.
 */
import type { QueryResolvers } from '../../generated/graphql';
import { connectionFromArray } from '../connection';
import { nestedFieldNames } from '../lookahead';

export const authQueries: QueryResolvers = {
  domains: async (_root, args, { loaders }, info) => {
    const below = nestedFieldNames(info);
    loaders.auth.prefetch({ resourceTypes: below.has('resourceTypes'), resourceActions: below.has('actions') });
    return connectionFromArray(await loaders.auth.domains.load({}), args);
  },
  domain: (_root, { idOrCode }, { loaders }) => loaders.auth.domain.load(idOrCode),

  resourceTypes: async (_root, { domainId, code, parentId, ...page }, { loaders }) =>
    connectionFromArray(await loaders.auth.resourceTypes.load({ domainId, code, parentId }), page),
  resourceType: (_root, { id }, { loaders }) => loaders.auth.resourceType.load(id),

  resourceActions: async (_root, { first, after, ...filter }, { loaders }) =>
    connectionFromArray(await loaders.auth.resourceActions.load(filter), { first, after }),
  resourceAction: (_root, { id }, { loaders }) => loaders.auth.resourceAction.load(id),

  grants: async (_root, { first, after, ...filter }, { loaders }) =>
    connectionFromArray(await loaders.auth.grants.load(filter), { first, after }),

  superUsers: async (_root, { first, after, ...filter }, { loaders }) =>
    connectionFromArray(await loaders.auth.superUsers.load(filter), { first, after }),
  superUser: (_root, { id }, { loaders }) => loaders.auth.superUser.load(id),

  publicGrants: async (_root, { first, after, ...filter }, { loaders }) =>
    connectionFromArray(await loaders.auth.publicGrants.load(filter), { first, after }),
  publicGrant: (_root, { id }, { loaders }) => loaders.auth.publicGrant.load(id),
};
