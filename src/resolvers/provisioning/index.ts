/**
 * `provisionAppWan`, `Query.provisioning` and `Subscription.provisioning` (schema/provisioning.graphql).
 * The mutation checks the whole input (plan.ts), registers the provisioning under the caller's
 * credential fingerprint and answers at once; the steps run in the background (runner.ts) with
 * the caller's credentials, waiting through the shared pollers, and watchers see every change.
 */
import type { GatewayContext } from '../../context';
import { GatewayError } from '../../errors/codes';
import type { Resolvers } from '../../generated/graphql';
import { untilTerminal } from '../../pollers';
import { processState } from '../../upstream/network/processes';
import { resourceStatusPoll } from '../workflow/resource-status-poll';
import { workflowPoll } from '../workflow/workflow-poll';
import { planProvisioning } from './plan';
import type { ProvisioningRecord } from '../../provisioning/records';
import { runProvisioning, type ProvisioningDeps } from '../../provisioning/runner';

/** What the runner needs, bound to the caller of this request (credentials never leave the context). */
function depsOf(ctx: GatewayContext): ProvisioningDeps {
  return {
    loaders: (signal) => ctx.owner.session(signal).loaders.network,
    async untilStatus(target, signal, onStatus) {
      const final = await untilTerminal(ctx.pollers, resourceStatusPoll, target, signal, (event) => onStatus(event.statusName));
      return final.statusName;
    },
    async untilWorkflow(businessKey, signal, onState) {
      const target = { businessKey, notFoundGraceMs: ctx.gateway.polling.notFoundGraceMs };
      const final = await untilTerminal(ctx.pollers, workflowPoll, target, signal, (w) => onState(processState(w)));
      return processState(final);
    },
  };
}

export const provisioningResolvers: Resolvers = {
  Query: {
    provisioning: (_r, { id }, ctx) => {
      const record = ctx.gateway.provisioning.jobs.get(id, ctx.owner.fingerprint);
      if (record === null) throw new GatewayError('NOT_FOUND', `no provisioning ${id} started with this token`);
      return record;
    },
  },
  Mutation: {
    provisionAppWan: (_r, { input }, ctx) => {
      const planned = planProvisioning(input);
      const deps = depsOf(ctx);
      const settings = ctx.gateway.provisioning;
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
      return settings.jobs.start(ctx.owner.fingerprint, fields, (handle, signal) =>
        runProvisioning(handle, planned, deps, { signal, stepTimeoutMs: settings.stepTimeoutMs }),
      );
    },
  },
  Subscription: {
    provisioning: {
      subscribe: (_r, { id }, ctx) => {
        const { jobs } = ctx.gateway.provisioning;
        if (jobs.get(id, ctx.owner.fingerprint) === null) throw new GatewayError('NOT_FOUND', `no provisioning ${id} started with this token`);
        return jobs.watch(id, ctx.owner.fingerprint, ctx.cancellation.abortSignal());
      },
      resolve: (record: ProvisioningRecord) => record,
    },
  },
};
