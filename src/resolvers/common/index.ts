/** Resolvers of schema/common.graphql: scalars and the gateway's own root fields. */
import type { Resolvers } from '../../generated/graphql';
import { DateTimeScalar, JsonScalar, UuidScalar } from './scalars';
import { heartbeat } from './heartbeat';

export const commonResolvers: Resolvers = {
  DateTime: DateTimeScalar,
  JSON: JsonScalar,
  UUID: UuidScalar,
  Query: {
    gatewayInfo: (_root, _args, ctx) => ctx.gateway.info,
  },
  Mutation: {
    checkUpstreams: (_root, _args, ctx) => ctx.gateway.probeUpstreams(ctx.cancellation.abortSignal()),
  },
  Subscription: {
    heartbeat: {
      subscribe: async function* (_root, args, ctx) {
        for await (const tick of heartbeat(args.intervalSeconds ?? 10, ctx.cancellation.abortSignal())) yield { heartbeat: tick };
      },
    },
  },
};
