/** What a provisioning is made of (the mappers of schema/provisioning.graphql), and the steps a plan orders. */
import type { JsonObject } from '../core/parse';

export type StepTask = 'network' | 'hostedGateway' | 'service' | 'bridgeGateway' | 'client' | 'appWan' | 'authorizeEndpoints' | 'authorizeServices';

export interface ProvisioningErrorRecord {
  code: string;
  message: string;
  outcomeUnknown: boolean;
}

export interface StepRecord {
  index: number;
  task: StepTask;
  description: string;
  state: 'PENDING' | 'RUNNING' | 'DONE' | 'FAILED';
  resourceKind: string;
  resourceId: string | null;
  resourceName: string | null;
  created: boolean;
  /** The step's change may have been sent (not in the schema): a resumed run settles it before sending anything. */
  changeSent: boolean;
  statusName: string | null;
  businessKey: string | null;
  error: ProvisioningErrorRecord | null;
  rollback: 'NONE' | 'PENDING' | 'DELETED' | 'FAILED';
  rollbackError: ProvisioningErrorRecord | null;
  /** RFC 3339 (UTC). */
  startedAt: string | null;
  finishedAt: string | null;
}

export interface ProvisioningRecord {
  id: string;
  state: 'RUNNING' | 'SUCCEEDED' | 'FAILED';
  steps: StepRecord[];
  networkId: string | null;
  appWanId: string | null;
  error: ProvisioningErrorRecord | null;
  rollbackOnFailure: boolean;
  startedAt: string;
  finishedAt: string | null;
}

/** What a step creates or changes, resolved against earlier steps' results when it runs. */
export type StepAction =
  | { task: 'network'; existingId: string; body?: undefined }
  | { task: 'network'; existingId?: undefined; body: JsonObject }
  | { task: 'hostedGateway' | 'bridgeGateway' | 'client'; body: JsonObject }
  | { task: 'service'; body: JsonObject }
  | { task: 'appWan'; body: JsonObject }
  | { task: 'authorizeEndpoints' | 'authorizeServices' };

export interface PlannedStep {
  action: StepAction;
  record: StepRecord;
}

