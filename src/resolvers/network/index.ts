// PLACEHOLDER owned by the network-graph work: replaced by the real resolvers.
import type { Resolvers } from '../../generated/graphql';

export const networkResolvers: Resolvers = {};
