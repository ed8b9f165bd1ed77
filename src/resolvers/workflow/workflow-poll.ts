/**
 * `workflow`'s poll kind: the workflow of a business key read through the per-poll loaders
 * (`/workflow-status/{key}`), a change whenever a step's task or status changes, finished once
 * the steps say SUCCEEDED or FAILED.
 */
import { GraphQLError } from 'graphql';
import type { PollSession } from '../../context';
import { ErrorCode } from '../../errors/codes';
import { errorCodeOf, type PollKind } from '../../pollers';
import { parseProcess, processState, type ProcessRecord } from '../../upstream/network/processes';

export interface WorkflowTarget {
  businessKey: string;
  /** How long a key the upstream does not know yet is waited for (not part of the key). */
  notFoundGraceMs: number;
}

export const workflowPoll: PollKind<WorkflowTarget, ProcessRecord, PollSession> = {
  name: 'workflow',
  key: (t) => t.businessKey,
  async poll({ businessKey }, session) {
    const workflow = await session.loaders.network.workflow(businessKey);
    // An empty answer is the upstream not knowing the key: the same as its 404.
    if (workflow === null) throw new GraphQLError(`no workflow with business key ${JSON.stringify(businessKey)}`, { extensions: { code: ErrorCode.NOT_FOUND } });
    return workflow;
  },
  fingerprint: (w) => JSON.stringify([w.processDefinitionKey, w.steps.map((s) => [s.task, s.status, s.executionStatus])]),
  isTerminal: (w) => processState(w) !== 'RUNNING',
  // Written in the shape parseProcess reads (its `steps` and `total`), so a replica reads it back checked.
  wire: {
    encode: (w) => ({ businessKey: w.businessKey, processDefinitionKey: w.processDefinitionKey, processInstanceId: w.processInstanceId, steps: w.steps, total: w.totalSteps }),
    decode: (json) => parseProcess(json),
  },
  classifyError(error, state, target) {
    // Right after a change the platform may not have the key yet: wait for it a little.
    if (errorCodeOf(error) === ErrorCode.NOT_FOUND && state.last === null && state.elapsedMs < target.notFoundGraceMs) return { action: 'wait' };
    return undefined;
  },
};
