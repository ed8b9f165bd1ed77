/**
 * `provisionAppWan`, `Query.provisioning` and `Subscription.provisioning` (schema/provisioning.graphql).
 * The mutation needs a token, checks the whole input (plan.ts), registers the provisioning under
 * the caller's credential fingerprint and answers at once; the steps run in the background
 * (src/provisioning/runner.ts) with the caller's credentials, waiting through the shared pollers,
 * and watchers see every change. Where the runs live (this process, or a fleet) is the store's.
 */
import type { GatewayContext, PollSession } from '../../context';
import { GatewayError } from '../../errors/codes';
import type { Resolvers } from '../../generated/graphql';
import { untilTerminal, type CallerPollers, type PollOwner } from '../../pollers';
import { notFound } from '../../provisioning/jobs';
import { processState } from '../../upstream/network/processes';
import { resourceStatusPoll } from '../workflow/resource-status-poll';
import { workflowPoll } from '../workflow/workflow-poll';
import { planProvisioning } from './plan';
import type { ProvisioningRecord } from '../../provisioning/records';
import type { ProvisioningDeps } from '../../provisioning/runner';

/** What the runner needs, bound to one owner's credentials (which never leave the owner). */
export function provisioningDeps(pollers: CallerPollers<PollSession>, owner: PollOwner<PollSession>, notFoundGraceMs: number): ProvisioningDeps {
  return {
    loaders: (signal) => owner.session(signal).loaders.network,
    async untilStatus(target, signal, onStatus) {
      const final = await untilTerminal(pollers, resourceStatusPoll, target, signal, (event) => onStatus(event.statusName));
      return final.statusName;
    },
    async untilWorkflow(businessKey, signal, onState) {
      const target = { businessKey, notFoundGraceMs };
      const final = await untilTerminal(pollers, workflowPoll, target, signal, (w) => onState(processState(w)));
      return processState(final);
    },
  };
}

/** Background work runs with the caller's token: without one, nothing starts. */
function requireToken(ctx: GatewayContext): void {
  if (!ctx.authenticated) throw new GatewayError('UNAUTHENTICATED', 'provisionAppWan runs with your token: send one (Authorization: Bearer …)');
}

export const provisioningResolvers: Resolvers = {
  Query: {
    provisioning: async (_r, { id }, ctx) => {
      await ctx.owner.verify();
      const record = await ctx.gateway.provisioning.jobs.get(id, ctx.owner.fingerprint);
      if (record === null) throw notFound(id);
      return record;
    },
  },
  Mutation: {
    provisionAppWan: async (_r, { input }, ctx) => {
      requireToken(ctx);
      const planned = planProvisioning(input);
      // Verified with the platform before anything is reserved: a refused token starts nothing.
      await ctx.owner.verify();
      const fields: Omit<ProvisioningRecord, 'id'> = {
        state: 'RUNNING',
        steps: planned.map((p) => p.record),
        networkId: null,
        appWanId: null,
        error: null,
        rollbackOnFailure: input.rollbackOnFailure ?? false,
        startedAt: new Date().toISOString(),
        finishedAt: null,
      };
      return ctx.gateway.provisioning.jobs.start(ctx.owner, fields, planned.map((p) => p.action));
    },
  },
  Subscription: {
    provisioning: {
      subscribe: async (_r, { id }, ctx) => {
        const { jobs } = ctx.gateway.provisioning;
        await ctx.owner.verify();
        if ((await jobs.get(id, ctx.owner.fingerprint)) === null) throw notFound(id);
        return jobs.watch(id, ctx.owner.fingerprint, ctx.cancellation.abortSignal());
      },
      resolve: (record: ProvisioningRecord) => record,
    },
  },
};
