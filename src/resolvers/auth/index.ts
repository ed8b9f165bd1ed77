// PLACEHOLDER owned by the auth-area work: replaced by the real resolvers.
import type { Resolvers } from '../../generated/graphql';

export const authResolvers: Resolvers = {};
