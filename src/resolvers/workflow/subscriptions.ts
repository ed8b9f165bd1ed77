/**
 * `Subscription.workflow` and `Subscription.resourceStatus`: thin adapters over the shared
 * pollers (src/pollers). Arguments are checked here, before any upstream call; the poll kinds
 * (workflow-poll.ts, resource-status-poll.ts) say what is polled and when it is finished.
 */
import { BadInputError } from '../../errors/codes';
import type { Resolvers, SubscriptionResourceStatusArgs } from '../../generated/graphql';
import { mapStream, sharedPayload, type PollKind } from '../../pollers';
import { resourceStatusPoll, STATUS_KINDS, statusResourceTypename, type StatusTarget } from './resource-status-poll';
import { workflowPoll } from './workflow-poll';

/** The value a poll kind emits. */
type PollValue<K> = K extends PollKind<never, infer V, never> ? V : never;

const MAX_BUSINESS_KEY_LENGTH = 256;

// One payload per poller value, the same for every subscriber (one execution per event: mapStream's sharedPayload).
const asWorkflowEvent = sharedPayload((workflow: PollValue<typeof workflowPoll>) => ({ workflow }));
const asResourceStatusEvent = sharedPayload((resourceStatus: PollValue<typeof resourceStatusPoll>) => ({ resourceStatus }));

function businessKeyOf(value: string): string {
  const key = value.trim();
  if (key === '' || key.length > MAX_BUSINESS_KEY_LENGTH || /[\s\p{Cc}]/u.test(key)) {
    throw new BadInputError('businessKey', `businessKey must be 1 to ${MAX_BUSINESS_KEY_LENGTH} characters without spaces`);
  }
  return key;
}

function statusTargetOf({ kind, networkId, id }: SubscriptionResourceStatusArgs): StatusTarget {
  if (!STATUS_KINDS[kind].inNetwork) return { kind, id, networkId: null };
  if (networkId == null) throw new BadInputError('networkId', `networkId is required when kind is ${kind}`);
  return { kind, id, networkId };
}

export const workflowSubscriptionResolvers: Resolvers = {
  Subscription: {
    workflow: {
      subscribe: (_root, { businessKey }, ctx) => {
        const target = { businessKey: businessKeyOf(businessKey), notFoundGraceMs: ctx.gateway.polling.notFoundGraceMs };
        return mapStream(ctx.pollers.follow(workflowPoll, target, ctx.cancellation), asWorkflowEvent);
      },
    },
    resourceStatus: {
      subscribe: (_root, args, ctx) =>
        mapStream(ctx.pollers.follow(resourceStatusPoll, statusTargetOf(args), ctx.cancellation), asResourceStatusEvent),
    },
  },
  StatusResource: {
    __resolveType: (record) => statusResourceTypename(record),
  },
};
