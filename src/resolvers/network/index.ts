/** The network area's resolvers (schema/network.graphql): root queries and type fields. */
import type { Resolvers } from '../../generated/graphql';
import { networkQueries } from './queries';
import { networkTypes } from './types';

export const networkResolvers: Resolvers = {
  ...networkTypes,
  Query: networkQueries,
};
