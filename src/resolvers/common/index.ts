/** Resolvers of schema/common.graphql: scalars and the gateway's own root fields. */
import type { Resolvers } from '../../generated/graphql';
import { DateTimeScalar, JsonScalar, UuidScalar } from './scalars';
import { heartbeat } from './heartbeat';
import { ErrorCode, GatewayError } from '../../errors/codes';

export const commonResolvers: Resolvers = {
  DateTime: DateTimeScalar,
  JSON: JsonScalar,
  UUID: UuidScalar,
  Query: {
    gatewayInfo: (_root, _args, ctx) => ctx.gateway.info,
  },
  Mutation: {
    checkUpstreams: (_root, _args, ctx) => {
      // It sends requests upstream: never for an anonymous caller, and counted in the operation's budget.
      if (!ctx.authenticated) throw new GatewayError(ErrorCode.UNAUTHENTICATED, 'checkUpstreams needs a token (an Authorization header)');
      const spend = (): void => {
        ctx.budget.spendCall();
        ctx.calls.count += 1;
      };
      return ctx.gateway.probeUpstreams({ signal: ctx.cancellation.abortSignal(), spend });
    },
  },
  Subscription: {
    heartbeat: {
      subscribe: async function* (_root, args, ctx) {
        for await (const tick of heartbeat(args.intervalSeconds ?? 10, ctx.cancellation.abortSignal())) yield { heartbeat: tick };
      },
    },
  },
};
