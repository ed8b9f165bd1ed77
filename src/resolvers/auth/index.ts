/** Resolvers of the auth/v1 area (schema/auth.graphql). */
import type { Resolvers } from '../../generated/graphql';
import { authMutations } from './mutations';
import { authQueries } from './queries';
import * as types from './types';

export const authResolvers: Resolvers = {
  Query: authQueries,
  Mutation: authMutations,
  Domain: types.Domain,
  ResourceType: types.ResourceType,
  ResourceAction: types.ResourceAction,
  Grant: types.Grant,
  CustomRoleGrant: types.CustomRoleGrant,
  IdentityResourceActionGrant: types.IdentityResourceActionGrant,
  PublicGrantGrant: types.PublicGrantGrant,
  SuperUserGrant: types.SuperUserGrant,
  UnknownGrant: types.UnknownGrant,
  SuperUser: types.SuperUser,
  PublicGrant: types.PublicGrant,
  PublicGrantPathEntry: types.PublicGrantPathEntry,
  MasqueradePayload: types.MasqueradePayload,
  CreateResourceActionsPayload: types.CreateResourceActionsPayload,
};
