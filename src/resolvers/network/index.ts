/** The network area's resolvers (schema/network.graphql, network-changes.graphql): queries, type fields, mutations, payloads. */
import type { Resolvers } from '../../generated/graphql';
import { networkMutations } from './mutations';
import { changePayloads } from './payloads';
import { networkQueries } from './queries';
import { networkTypes } from './types';

export const networkResolvers: Resolvers = {
  ...networkTypes,
  ...changePayloads,
  Query: networkQueries,
  Mutation: networkMutations,
};
