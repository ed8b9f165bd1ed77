/**
 * Workflow status and processes of rest/v1 (schema/workflow.graphql). A business key may name
 * several upstream entries: they are merged into one workflow (processes.ts `mergeProcesses`).
 * The subscriptions that follow changes (`workflow`, `resourceStatus`) are in subscriptions.ts.
 */
import type { Resolvers } from '../../generated/graphql';
import { mergeProcesses, processState, type ProcessRecord } from '../../upstream/network/processes';
import { arrayConnection } from '../network/lists';
import { workflowSubscriptionResolvers } from './subscriptions';
import { segment } from '../../upstream/path-segment';

const enc = segment;

const derived = {
  state: (p: ProcessRecord) => processState(p),
  done: (p: ProcessRecord) => processState(p) !== 'RUNNING',
};

/** One entry per business key, in upstream order (the list endpoints may repeat a key per sub-process). */
function byBusinessKey(entries: readonly ProcessRecord[]): ProcessRecord[] {
  const keys = [...new Set(entries.map((e) => e.businessKey))];
  return keys.flatMap((key) => mergeProcesses(key, [...entries]) ?? []);
}

export const workflowResolvers: Resolvers = {
  Query: {
    workflow: (_root, { businessKey }, { loaders }) => loaders.network.workflow(businessKey),
    workflows: (_root, args, { loaders }) =>
      arrayConnection(args, async () => byBusinessKey(await loaders.network.processes('/workflow-status'))),
    networkProcesses: (_root, args, { loaders }) =>
      arrayConnection(args, async () => byBusinessKey(await loaders.network.processes('/network-processes'))),
    networkProcess: async (_root, { businessKey }, { loaders }) =>
      mergeProcesses(businessKey, await loaders.network.processes(`/network-processes/${enc(businessKey)}`)),
  },
  Network: {
    appWanProcesses: (n, args, { loaders }) =>
      arrayConnection(args, async () => byBusinessKey(await loaders.network.processes(`/networks/${enc(n.id)}/appWan-processes`))),
    appWanProcess: async (n, { businessKey }, { loaders }) =>
      mergeProcesses(businessKey, await loaders.network.processes(`/networks/${enc(n.id)}/appWan-processes/${enc(businessKey)}`)),
  },
  Workflow: derived,
  NetworkProcess: derived,
  // Subscription and StatusResource: no type above defines them.
  ...workflowSubscriptionResolvers,
};
